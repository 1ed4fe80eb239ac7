/**
 * /equipmenttype-overview?nodeid=…&tab=… (spec part 1 §2.3, part 2 route table): an equipment type with its
 * FAQ tab (tab 2, the FAQ form's `faqMB` origin returns here) — the type's FAQs, which show on every machine of
 * that type, with add, inline edit and delete — and the machines of the type (tab 0). The spec shows no other tab
 * of this screen; other indexes open the FAQ tab (docs/decisions.md § Machine detail: FAQ). Read live from the
 * local mirror: works offline.
 */
import { Button, Card, DataList, Flex, Heading, HStack, Link, Skeleton, Stack, Tabs, Text } from '@chakra-ui/react';
import { CircleHelp, Factory, Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { createFaq } from '../../../shared/mutations/faqs';
import { brandAndModel } from '../../../shared/domain/equipment';
import { BackLink } from '../../components/back-link';
import { FaqEmpty, FaqList } from '../../components/faq-list';
import { MissingRecord } from '../../components/missing-record';
import { addTypeFaqState, editFaqState, typeScreenMachine } from '../../lib/faq-navigation';
import { currentLanguage } from '../../lib/i18n';
import { useMayRun } from '../../lib/use-permission';
import { useEquipmentTypeOverview, type EquipmentTypeOverview, type FaqItem } from '../../sync/faq-mirror';

const TYPE_TABS = [
  { index: '0', key: 'machines', icon: Factory },
  { index: '2', key: 'faq', icon: CircleHelp },
] as const;
type TypeTab = (typeof TYPE_TABS)[number]['index'];

const tabFrom = (value: string | null): TypeTab => TYPE_TABS.find((tab) => tab.index === value)?.index ?? '2';

/** Opened from a machine's FAQ tab, the way back leads to that machine. */

function Header({ type }: { type: EquipmentTypeOverview }) {
  const { t } = useTranslation();
  const rows: [string, string | null][] = [
    [t('faq.type.brand'), type.brand],
    [t('faq.type.manufacturer'), type.manufacturer],
  ];
  return (
    <Card.Root variant="outline" bg="bg.panel" data-testid="equipment-type-header">
      <Card.Body>
        <Stack gap="3">
          <Stack gap="0">
            <Text textStyle="sm" color="fg.muted" fontWeight="medium">
              {t('faq.type.kicker')}
            </Text>
            <Heading as="h1" size="2xl" overflowWrap="anywhere">
              {brandAndModel(type.brand, type.model)}
            </Heading>
          </Stack>
          <DataList.Root orientation="horizontal" size="md">
            {rows
              .filter((row): row is [string, string] => row[1] !== null)
              .map(([label, value]) => (
                <DataList.Item key={label}>
                  <DataList.ItemLabel>{label}</DataList.ItemLabel>
                  <DataList.ItemValue>{value}</DataList.ItemValue>
                </DataList.Item>
              ))}
            <DataList.Item>
              <DataList.ItemLabel>{t('faq.type.machines')}</DataList.ItemLabel>
              <DataList.ItemValue>{t('faq.type.machineCount', { count: type.machines.length })}</DataList.ItemValue>
            </DataList.Item>
          </DataList.Root>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

/** `machine`: the machine this overview was opened from; the FAQ form keeps it, so its save still leads back there. */
function FaqTabContent({ type, machine }: { type: EquipmentTypeOverview; machine: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canCreate = useMayRun(createFaq);
  const openForm = (faq: FaqItem) => navigate('/edit-faq', { state: editFaqState(faq, { equipmenttypenodeid: type.nodeid, machine }) });
  return (
    <Stack gap="3" data-testid="equipment-type-faq">
      <HStack justify="space-between" gap="3" wrap="wrap">
        <Text color="fg.muted">{t('faq.tab.typeHint')}</Text>
        {canCreate && (
          <Button colorPalette="brand" onClick={() => navigate('/create-faq', { state: addTypeFaqState(type.nodeid, machine) })} data-testid="faq-add">
            <Plus aria-hidden />
            {t('faq.tab.add')}
          </Button>
        )}
      </HStack>
      {type.faqs.length === 0 ? (
        <FaqEmpty text={t('faq.tab.typeEmpty')} />
      ) : (
        <FaqList items={type.faqs} onOpenForm={openForm} testId="faq-type-list" />
      )}
    </Stack>
  );
}

function MachinesTabContent({ type }: { type: EquipmentTypeOverview }) {
  const { t } = useTranslation();
  if (type.machines.length === 0) return <Text color="fg.muted">{t('faq.type.noMachines')}</Text>;
  return (
    <Card.Root variant="outline" bg="bg.panel">
      <Stack as="ul" gap="0" listStyleType="none" ps="0" m="0" data-testid="equipment-type-machines">
        {type.machines.map((machine) => (
          <Flex as="li" key={machine.nodeid} px="4" minH="12" align="center" gap="3" borderBottomWidth="1px" _last={{ borderBottomWidth: 0 }}>
            <Link asChild fontWeight="medium" colorPalette="brand" variant="underline" minH="11" display="inline-flex" alignItems="center">
              <RouterLink to={`/machine-overview?nodeid=${encodeURIComponent(machine.nodeid)}&tab=3`}>{machine.name}</RouterLink>
            </Link>
            {machine.equipmentid && (
              <Text color="fg.muted" textStyle="sm">
                {machine.equipmentid}
              </Text>
            )}
          </Flex>
        ))}
      </Stack>
    </Card.Root>
  );
}

export function EquipmentTypeOverviewScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const nodeid = params.get('nodeid');
  const tab = tabFrom(params.get('tab'));
  const type = useEquipmentTypeOverview(nodeid, currentLanguage());
  const fromMachine = typeScreenMachine(location.state);
  const back = fromMachine ? (
    <BackLink to={`/machine-overview?nodeid=${encodeURIComponent(fromMachine)}&tab=3`} label={t('faq.type.backMachine')} />
  ) : (
    <BackLink to="/dashboard" label={t('faq.type.breadcrumb')} />
  );

  const selectTab = (index: string) => {
    const next = new URLSearchParams(params);
    next.set('tab', index);
    setParams(next, { replace: true, state: location.state });
  };

  return (
    <Stack gap="4" p={{ base: '4', md: '6' }} maxW="7xl">
      {back}
      {type.status === 'loading' && <Skeleton h="40" aria-label={t('faq.type.loading')} />}
      {type.status === 'missing' && <MissingRecord title={t('faq.type.notFound')} text={t('faq.type.notFoundText')} testId="equipment-type-not-found" />}
      {type.status === 'ready' && (
        <>
          <Header type={type.value} />
          <Tabs.Root value={tab} onValueChange={(details) => selectTab(details.value)} variant="line" size="lg" lazyMount unmountOnExit>
            <Tabs.List aria-label={t('faq.type.tabsLabel')}>
              {TYPE_TABS.map(({ index, key, icon: Icon }) => (
                <Tabs.Trigger key={index} value={index} minH="11">
                  <Icon size={18} aria-hidden />
                  {t(`faq.type.${key}`)}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <Tabs.Content value="0">
              <MachinesTabContent type={type.value} />
            </Tabs.Content>
            <Tabs.Content value="2">
              <FaqTabContent type={type.value} machine={fromMachine} />
            </Tabs.Content>
          </Tabs.Root>
        </>
      )}
    </Stack>
  );
}
