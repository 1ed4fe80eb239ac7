/**
 * /dashboard (spec part 2 §1, §2.14): greeting with the user's name; the onboarding cards while the organisation
 * has no equipment, otherwise the machines the user follows (plant → area, pools; search) linking to each
 * machine's screen, and the "Dashboard-Auswahl" that chooses them. If the structure cannot be loaded (offline,
 * server error) the cards are shown with a notice. "Neue Meldung" (notification create) opens /create-notification.
 */
import { Alert, Box, Button, Flex, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { usePermission } from '../../lib/use-permission';
import { useSessionStore } from '../../stores/session-store';
import { OnboardingCards } from './onboarding-cards';
import { MachineList } from './machine-list';
import { canCreateEquipment, countEquipment } from './structure-stats';
import { SubscriptionDialog } from './subscription-dialog';
import { useStructureTree } from './use-structure-tree';
import { useSubscriptionEditor } from './use-subscription-editor';

export function DashboardScreen() {
  const { t } = useTranslation();
  const userinfo = useSessionStore((state) => state.session?.userinfo);
  const structure = useStructureTree();
  const hasEquipment = structure.status === 'ready' && countEquipment(structure.all) > 0;
  const selection = useSubscriptionEditor();
  const [dialogOpened, setDialogOpened] = useState(false);
  if (selection.isOpen && !dialogOpened) setDialogOpened(true);
  const canReport = usePermission('notification', 'create');

  return (
    <Stack gap="8" p={{ base: '4', md: '6', lg: '8' }} maxW="7xl">
      <Flex gap="4" justify="space-between" align="start" wrap="wrap">
        <Box>
          <Heading as="h2" size="2xl" data-testid="dashboard-greeting">
            {t('dashboard.greeting', { givenname: userinfo?.givenname ?? '', surname: userinfo?.surname ?? '' })}
          </Heading>
          <Text color="fg.muted" mt="1">
            {t('dashboard.intro')}
          </Text>
        </Box>
        {canReport && hasEquipment && (
          <Button colorPalette="brand" asChild data-testid="dashboard-new-notification">
            <RouterLink to="/create-notification" state={{ pageType: 'add', from: 'dashboard' }}>
              <Plus aria-hidden />
              {t('notificationForm.addTitle')}
            </RouterLink>
          </Button>
        )}
      </Flex>

      {structure.status === 'loading' && (
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4" role="status" aria-busy="true" aria-label={t('dashboard.structureLoading')}>
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} h="56" borderRadius="l3" />
          ))}
        </SimpleGrid>
      )}

      {structure.status === 'ready' && hasEquipment && (
        <>
          <MachineList tree={structure.mine} all={structure.all} onEditSelection={selection.open} />
          {/* Mounted once first opened (and kept for its closing animation): closed, its dialog machine and the
              selection's count re-ran with every tree the first sync brings (W1's longest tasks). */}
          {dialogOpened && (
            <SubscriptionDialog
              open={selection.isOpen}
              tree={structure.all}
              selection={structure.selection}
              busy={selection.busy}
              error={selection.error}
              onSave={(desired) => selection.save(desired, structure.all)}
              onClose={selection.close}
            />
          )}
        </>
      )}

      {(structure.status === 'error' || (structure.status === 'ready' && !hasEquipment)) && (
        <Stack gap="4" as="section" aria-labelledby="onboarding-title">
          <Box>
            <Heading id="onboarding-title" as="h2" size="lg">
              {t('dashboard.onboarding.title')}
            </Heading>
            <Text color="fg.muted">{t('dashboard.onboarding.text')}</Text>
          </Box>
          {structure.status === 'error' && (
            <Alert.Root status="info" size="sm" variant="subtle" data-testid="structure-unavailable">
              <Alert.Indicator />
              <Alert.Title fontWeight="normal">{t('dashboard.structureUnavailable')}</Alert.Title>
            </Alert.Root>
          )}
          {/* Unknown structure (error): leave the button usable; the equipment form checks again. */}
          <OnboardingCards equipmentBlocked={structure.status === 'ready' && !canCreateEquipment(structure.all)} />
        </Stack>
      )}
    </Stack>
  );
}
