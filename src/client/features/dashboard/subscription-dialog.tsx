/**
 * "Dashboard-Auswahl": which plants, areas and equipment pools the user's dashboard shows (spec part 2 §1 "Only
 * equipment selected on the profile appears on that user's dashboard", §3 `issubscriberof`). A whole plant
 * includes its areas, also ones added later; an area can be chosen on its own. Saving writes the changes
 * offline-first (repositories/subscriptions.ts); the dashboard follows at once.
 */
import { Badge, Box, Button, Checkbox, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { StructureTree } from '../../../shared/api/structure';
import { subscribedTree, type SubscriptionSelection } from '../../../shared/domain/subscription';
import { AppDialog } from '../../components/app-dialog';
import { FormError } from '../../components/form-actions';
import { withToggled } from '../../lib/sets';
import { countEquipment } from './structure-stats';

export interface SubscriptionDialogProps {
  open: boolean;
  /** The whole organisation's structure. */
  tree: StructureTree;
  /** What the user follows now. */
  selection: SubscriptionSelection;
  busy: boolean;
  error: string | null;
  onSave(selection: SubscriptionSelection): void;
  onClose(): void;
}

type Draft = { sites: Set<string>; areas: Set<string>; equipmentpools: Set<string> };

const copy = (selection: SubscriptionSelection): Draft => ({ sites: new Set(selection.sites), areas: new Set(selection.areas), equipmentpools: new Set(selection.equipmentpools) });

export function SubscriptionDialog({ open, tree, selection, busy, error, onSave, onClose }: SubscriptionDialogProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => copy(selection));

  // Each opening starts from what the user follows now. Only the opening: a sync finishing while the dialog is
  // open hands in a new `selection`, and must not throw away the boxes the user has ticked meanwhile.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open && !wasOpen.current) setDraft(copy(selection));
    wasOpen.current = open;
  }, [open, selection]);

  const machines = useMemo(() => countEquipment(subscribedTree(tree, draft)), [tree, draft]);
  const toggle = (key: keyof Draft, nodeid: string, on: boolean) =>
    setDraft((current) => ({ ...current, [key]: withToggled(current[key], nodeid, on) }));

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      size={{ base: 'full', md: 'lg' }}
      scrollBehavior="inside"
      testId="subscription-dialog"
      closeLabel={t('subscriptions.close')}
      title={t('subscriptions.title')}
      header={
        <>
          <Text color="fg.muted">{t('subscriptions.intro')}</Text>
          <Text fontWeight="medium" aria-live="polite" data-testid="subscription-count">
            {t('subscriptions.count', { count: machines })}
          </Text>
        </>
      }
      footerLayout="stack"
      footer={
        <>
          <FormError error={error} />
          <HStack justify="flex-end" gap="3">
            <Button variant="outline" onClick={onClose} disabled={busy}>
              {t('subscriptions.cancel')}
            </Button>
            <Button colorPalette="brand" onClick={() => onSave(draft)} loading={busy} data-testid="subscription-save">
              {t('subscriptions.save')}
            </Button>
          </HStack>
        </>
      }
    >
      <Stack gap="6">
        {tree.sites.length > 0 && (
          <ChoiceSection id="subscription-sites" title={t('subscriptions.sites')} gap="3">
            {tree.sites.map((site) => {
              const whole = draft.sites.has(site.nodeid);
              return (
                <Box as="li" key={site.nodeid} borderWidth="1px" borderColor="border.muted" borderRadius="l2" p="2">
                  <Choice
                    label={site.name}
                    hint={t('subscriptions.wholeSite')}
                    count={site.areas.reduce((sum, area) => sum + area.equipment.length, 0)}
                    checked={whole}
                    onChange={(on) => toggle('sites', site.nodeid, on)}
                    strong
                  />
                  {site.areas.length > 0 && (
                    <Stack as="ul" gap="0" listStyleType="none" m="0" ps="8">
                      {site.areas.map((area) => (
                        <Box as="li" key={area.nodeid}>
                          <Choice
                            label={area.name}
                            count={area.equipment.length}
                            checked={whole || draft.areas.has(area.nodeid)}
                            disabled={whole}
                            onChange={(on) => toggle('areas', area.nodeid, on)}
                          />
                        </Box>
                      ))}
                    </Stack>
                  )}
                </Box>
              );
            })}
          </ChoiceSection>
        )}
        {tree.equipmentpools.length > 0 && (
          <ChoiceSection id="subscription-pools" title={t('subscriptions.pools')} gap="0">
            {tree.equipmentpools.map((pool) => (
              <Box as="li" key={pool.nodeid}>
                <Choice label={pool.name} count={pool.equipment.length} checked={draft.equipmentpools.has(pool.nodeid)} onChange={(on) => toggle('equipmentpools', pool.nodeid, on)} />
              </Box>
            ))}
          </ChoiceSection>
        )}
      </Stack>
    </AppDialog>
  );
}

/** A titled list of choices (the plants with their areas, the pools). */
function ChoiceSection({ id, title, gap, children }: { id: string; title: string; gap: string; children: ReactNode }) {
  return (
    <Stack as="section" gap="2" aria-labelledby={id}>
      <Heading id={id} as="h3" size="sm" color="fg.muted">
        {title}
      </Heading>
      <Stack as="ul" gap={gap} listStyleType="none" m="0" p="0">
        {children}
      </Stack>
    </Stack>
  );
}

function Choice({ label, hint, count, checked, disabled = false, strong = false, onChange }: { label: string; hint?: string; count: number; checked: boolean; disabled?: boolean; strong?: boolean; onChange(on: boolean): void }) {
  const { t } = useTranslation();
  return (
    <Checkbox.Root checked={checked} disabled={disabled} onCheckedChange={(details) => onChange(details.checked === true)} size="lg" w="full" minH="12" px="1" alignItems="center" data-testid="subscription-choice">
      <Checkbox.HiddenInput />
      <Checkbox.Control />
      <Checkbox.Label flex="1" minW="0">
        <HStack justify="space-between" gap="3">
          <Box minW="0">
            <Text fontWeight={strong ? 'semibold' : 'normal'} truncate>
              {label}
            </Text>
            {hint && (
              <Text textStyle="xs" color="fg.muted">
                {hint}
              </Text>
            )}
          </Box>
          <Badge variant="subtle" flexShrink={0}>
            {t('machine.list.count', { count })}
          </Badge>
        </HStack>
      </Checkbox.Label>
    </Checkbox.Root>
  );
}
