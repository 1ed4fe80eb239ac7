/**
 * FAQ tab (spec part 1 §2.1 tab 3, §2.3, §6): the machine's own FAQs and, below, the FAQs of its equipment type
 * (they show on every machine of that type and are marked as the type's), each an accordion with inline edit
 * and delete. "FAQ hinzufügen" (equipment.faq create) opens /create-faq with the spec's navigation state (from
 * faq, pageType add, specifier internalfaq, equipmentnodeid). Read live from the mirror: works offline.
 */
import { Button, Heading, HStack, Link, Skeleton, Stack, Text } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { createFaq } from '../../../shared/mutations/faqs';
import { FaqEmpty, FaqList } from '../../components/faq-list';
import { addMachineFaqState, editFaqState, typeScreenState } from '../../lib/faq-navigation';
import { currentLanguage } from '../../lib/i18n';
import { useMayRun } from '../../lib/use-permission';
import { useMachineFaqs, type FaqItem } from '../../sync/faq-mirror';
import type { MachineRecord } from '../../sync/machine-mirror';

export function FaqTab({ machine }: { machine: MachineRecord }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const faqs = useMachineFaqs(machine.nodeid, currentLanguage());
  const canCreate = useMayRun(createFaq);

  if (faqs === undefined) return <Skeleton h="40" aria-label={t('faq.tab.loading')} />;
  if (faqs === null) return null;

  const openForm = (faq: FaqItem) => navigate('/edit-faq', { state: editFaqState(faq, { equipmentnodeid: machine.nodeid }) });
  const typeTitle = faqs.typeModel ? t('faq.tab.typeTitle', { model: faqs.typeModel }) : t('faq.tab.typeTitleNoModel');
  const typeLink = faqs.equipmenttypenodeid ? `/equipmenttype-overview?nodeid=${encodeURIComponent(faqs.equipmenttypenodeid)}&tab=2` : null;

  return (
    <Stack gap="6" data-testid="faq-tab">
      <Stack gap="3">
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Heading as="h2" size="lg">
            {t('faq.tab.machineTitle')}
          </Heading>
          {canCreate && (
            <Button colorPalette="brand" onClick={() => navigate('/create-faq', { state: addMachineFaqState(machine.nodeid) })} data-testid="faq-add">
              <Plus aria-hidden />
              {t('faq.tab.add')}
            </Button>
          )}
        </HStack>
        {faqs.machine.length === 0 ? (
          <FaqEmpty text={t('faq.tab.empty')} hint={t('faq.tab.emptyHint')} />
        ) : (
          <FaqList items={faqs.machine} onOpenForm={openForm} testId="faq-machine-list" />
        )}
      </Stack>

      {faqs.equipmenttypenodeid && (
        <Stack gap="3" data-testid="faq-type-section">
          <HStack justify="space-between" gap="3" wrap="wrap" align="end">
            <Stack gap="0">
              <Heading as="h2" size="lg">
                {typeTitle}
              </Heading>
              <Text color="fg.muted" textStyle="sm">
                {t('faq.tab.typeHint')}
              </Text>
            </Stack>
            {typeLink && (
              <Link asChild colorPalette="brand" variant="underline" minH="11" display="inline-flex" alignItems="center">
                <RouterLink to={typeLink} state={typeScreenState(machine.nodeid)} data-testid="faq-manage-type">
                  {/* Who may not add FAQs opens the type's page to read it: "verwalten" promised what it does not offer. */}
                  {canCreate ? t('faq.tab.manageType') : t('faq.tab.openType')}
                </RouterLink>
              </Link>
            )}
          </HStack>
          {faqs.type.length === 0 ? (
            <Text color="fg.muted" data-testid="faq-type-empty">
              {t('faq.tab.typeEmpty')}
            </Text>
          ) : (
            <FaqList items={faqs.type} onOpenForm={openForm} typeBadge={faqs.typeModel ? t('faq.tab.fromType', { model: faqs.typeModel }) : t('faq.tab.typeTitleNoModel')} testId="faq-type-list" />
          )}
        </Stack>
      )}
    </Stack>
  );
}
