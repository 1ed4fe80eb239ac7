/**
 * Effort and costs (Aufwandserfassung) of a notification, part 1 §2.2, §4.3, §5, §9: the effort inputs (standard
 * cost types in EUR or hours, in the spec's order) with their planned and actual values, and the total in EUR
 * with hours at the machine's hourly rate. "Bearbeiten" turns the values into inputs in the app language's
 * number format; "Kosten speichern" writes only the changed cells, in one local transaction (works offline).
 * Shown to everyone who reads costs; editing needs `notification.cost` create and update. Values typed and not saved
 * are kept on the device (stores/kept-drafts.ts) until saved or cancelled: another tab of the notification, a reload
 * or a killed tab opens the table in edit mode with them again.
 */
import { Box, Button, Card, Field, HStack, Input, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { Pencil, Save, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  COST_PLACEHOLDERS,
  COST_SPECIFIERS,
  effortTotal,
  formatCostValue,
  parseCostValue,
  type CostAmount,
  type CostSpecifier,
  type CostUnit,
  type CostValueError,
} from '../../../shared/domain/cost';
import { createCost, updateCost } from '../../../shared/mutations/costs';
import { FormError } from '../../components/form-actions';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { formatDateTime } from '../../lib/dates';
import { currentLanguage } from '../../lib/i18n';
import { useMayRun } from '../../lib/use-permission';
import { readKeptDraft, useKeepDraft } from '../../stores/kept-drafts';
import { useSessionStore } from '../../stores/session-store';
import { useNotificationEffort, type EffortLine, type NotificationEffort } from '../../sync/notification-costs';
import { effortEditChanges, saveEffort, type EffortEdit } from '../../sync/repositories/costs';
import { useLocalWrite } from '../../sync/use-local-write';
import { useWriteContext } from '../../sync/use-write-context';

export interface EffortTabProps {
  notificationnodeid: string;
  /** The machine whose hourly rate prices the hours. */
  equipmentnodeid: string | null;
}

/** Planned first, then actual: the columns left to right. */
const COLUMNS: readonly CostSpecifier[] = ['plannedcost', 'actualcost'];
const COLUMN_LABEL: Record<CostSpecifier, 'effort.planned' | 'effort.actual'> = { plannedcost: 'effort.planned', actualcost: 'effort.actual' };

type Draft = Record<string, string>;
const draftKey = (costtypenodeid: string, specifier: CostSpecifier) => `${costtypenodeid}:${specifier}`;

const EFFORT_DRAFT_KIND = 'effort-draft';

/** What edit mode keeps: the texts typed, the texts it began with (only changed cells are saved), their language. */
interface KeptEffort {
  lang: string;
  draft: Draft;
  initial: Draft;
}

const isTextRecord = (value: unknown): value is Draft => typeof value === 'object' && value !== null && Object.values(value).every((text) => typeof text === 'string');

function isKeptEffort(value: unknown): value is KeptEffort {
  if (typeof value !== 'object' || value === null) return false;
  const { lang, draft, initial } = value as Partial<Record<keyof KeptEffort, unknown>>;
  return typeof lang === 'string' && isTextRecord(draft) && isTextRecord(initial);
}

/** Kept while some cell differs from what edit mode began with; null (drop it) otherwise. */
function keptEffortOf(draft: Draft | null, initial: Draft, lang: string): KeptEffort | null {
  if (!draft || Object.entries(draft).every(([key, text]) => text === (initial[key] ?? ''))) return null;
  return { lang, draft, initial };
}

function showValue(value: number | null, unit: CostUnit, lang: string): string {
  return value === null ? '—' : formatCostValue(value, lang, { fixed: unit === 'EUR' });
}

function draftOf(effort: NotificationEffort, lang: string): Draft {
  const draft: Draft = {};
  for (const line of effort.lines) {
    for (const specifier of COST_SPECIFIERS) {
      const { value } = line.cells[specifier];
      draft[draftKey(line.costtypenodeid, specifier)] = value === null ? '' : formatCostValue(value, lang, { fixed: line.unit === 'EUR' });
    }
  }
  return draft;
}

function amountsOf(lines: readonly EffortLine[], specifier: CostSpecifier, valueOf: (line: EffortLine) => number | null): CostAmount[] {
  return lines.flatMap((line) => {
    const value = valueOf(line);
    return value === null ? [] : [{ value, unit: line.unit }];
  });
}

function TotalCell({ amounts, hourlyRate, lang }: { amounts: CostAmount[]; hourlyRate: number | null; lang: string }) {
  const { t } = useTranslation();
  const total = effortTotal(amounts, hourlyRate);
  if (total.total !== null) return <Text fontWeight="semibold">{formatCostValue(total.total, lang, { fixed: true })} €</Text>;
  return (
    <Text fontWeight="semibold" color="fg.warning">
      {t('effort.unpriced', { euros: formatCostValue(total.euros, lang, { fixed: true }), hours: formatCostValue(total.unpricedHours, lang) })}
    </Text>
  );
}

export function EffortTab({ notificationnodeid, equipmentnodeid }: EffortTabProps) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const effort = useNotificationEffort(notificationnodeid, equipmentnodeid, lang);
  const context = useWriteContext();
  const mayCreate = useMayRun(createCost);
  const mayUpdate = useMayRun(updateCost);
  const canEdit = mayCreate && mayUpdate;
  const { busy, error, run } = useLocalWrite(t('effort.saveFailed'));
  // Typed values come back after a tab change, a reload or a killed tab (a technician's walkthrough switched to
  // "Maßnahmen" to look something up and the costs typed were gone). Another language's texts are not taken back.
  const usernodeid = useSessionStore((state) => state.session?.usernodeid) ?? '';
  const [restored, setRestored] = useState(() => {
    const kept = usernodeid ? readKeptDraft(EFFORT_DRAFT_KIND, usernodeid, notificationnodeid, isKeptEffort) : null;
    return kept && kept.value.lang === lang ? kept : null;
  });
  const [draft, setDraft] = useState<Draft | null>(restored?.value.draft ?? null);
  // why the texts edit mode began with: only a cell the user changed is saved, so a value another device sent
  // meanwhile (a pull while editing) is not overwritten with the stale text of an untouched cell.
  const [initial, setInitial] = useState<Draft>(restored?.value.initial ?? {});
  useKeepDraft(EFFORT_DRAFT_KIND, usernodeid, notificationnodeid, useMemo(() => keptEffortOf(draft, initial, lang), [draft, initial, lang]), restored !== null);

  const parsed = useMemo(() => {
    const result = new Map<string, { value: number | null } | { error: CostValueError }>();
    if (!draft) return result;
    for (const [key, text] of Object.entries(draft)) {
      const value = parseCostValue(text, lang);
      result.set(key, value.ok ? { value: value.value } : { error: value.error });
    }
    return result;
  }, [draft, lang]);

  if (!effort) {
    return (
      <Stack gap="3" role="status" aria-busy="true" aria-label={t('effort.loading')} data-testid="effort-tab" data-notification={notificationnodeid}>
        <Skeleton h="10" />
        <Skeleton h="40" />
      </Stack>
    );
  }

  const editing = draft !== null;
  const valueIn = (line: EffortLine, specifier: CostSpecifier): number | null => {
    const key = draftKey(line.costtypenodeid, specifier);
    const entry = parsed.get(key);
    if (!editing || draft[key] === initial[key] || !entry || !('value' in entry)) return line.cells[specifier].value;
    return entry.value;
  };
  const edits: EffortEdit[] = editing
    ? effort.lines.flatMap((line) =>
        COST_SPECIFIERS.flatMap((specifier) => {
          const key = draftKey(line.costtypenodeid, specifier);
          const entry = parsed.get(key);
          if (!entry || !('value' in entry) || draft?.[key] === initial[key]) return [];
          const edit = { costtypenodeid: line.costtypenodeid, name: line.nameDe, specifier, before: line.cells[specifier], value: entry.value };
          return effortEditChanges(edit) ? [edit] : [];
        }),
      )
    : [];
  const invalid = [...parsed.values()].some((entry) => 'error' in entry);
  const canSave = editing && !busy && !invalid && edits.length > 0;

  const save = async () => {
    if (!context || !canSave) return;
    // The tab stays after the save: a second edit must not find its buttons still busy (a walkthrough's correction
    // after a save found "Abbrechen" and "Kosten speichern" disabled until the tab was left).
    const done = await run(() => saveEffort(context, notificationnodeid, edits), { stays: true });
    if (done) {
      setDraft(null);
      setRestored(null);
    }
  };

  return (
    <Card.Root variant="outline" bg="bg.panel" data-testid="effort-tab" data-notification={notificationnodeid}>
      <Card.Body gap="4">
        <HStack justify="space-between" flexWrap="wrap" gap="3">
          <Stack gap="1">
            <Text as="h3" fontSize="lg" fontWeight="semibold">
              {t('effort.title')}
            </Text>
            <Text color="fg.muted" fontSize="sm" data-testid="effort-rate">
              {effort.hourlyRate === null ? t('effort.noRate') : t('effort.hourlyRate', { rate: formatCostValue(effort.hourlyRate, lang, { fixed: true }) })}
            </Text>
          </Stack>
          {canEdit && !editing && effort.lines.length > 0 && (
            <Button
              size="lg"
              variant="outline"
              onClick={() => {
                const start = draftOf(effort, lang);
                setInitial(start);
                setDraft(start);
              }}
            >
              <Pencil aria-hidden /> {t('effort.edit')}
            </Button>
          )}
        </HStack>
        {effort.lines.length === 0 ? (
          <Text color="fg.muted">{t('effort.none')}</Text>
        ) : (
          <Box overflowX="auto">
            <Table.Root size="md" data-testid="effort-table">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('effort.type')}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t('effort.unit')}</Table.ColumnHeader>
                  {COLUMNS.map((specifier) => (
                    <Table.ColumnHeader key={specifier} textAlign="end">
                      {t(COLUMN_LABEL[specifier])}
                    </Table.ColumnHeader>
                  ))}
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {effort.lines.map((line) => (
                  <Table.Row key={line.costtypenodeid} data-testid="effort-row" data-costtype={line.costtypenodeid}>
                    <Table.Cell>
                      <HStack gap="2" flexWrap="wrap">
                        <Text>{line.name}</Text>
                        {(line.cells.plannedcost.pending || line.cells.actualcost.pending) && <NotSyncedBadge />}
                      </HStack>
                    </Table.Cell>
                    <Table.Cell>{line.symbol}</Table.Cell>
                    {COLUMNS.map((specifier) => {
                      const key = draftKey(line.costtypenodeid, specifier);
                      const entry = parsed.get(key);
                      const failure = entry && 'error' in entry ? entry.error : null;
                      const label = t('effort.inputLabel', { type: line.name, column: t(COLUMN_LABEL[specifier]) });
                      return (
                        <Table.Cell key={specifier} textAlign="end" minW={editing ? '36' : undefined} data-testid={`effort-${specifier}`}>
                          {editing ? (
                            <Field.Root invalid={failure !== null}>
                              <Input
                                size="lg"
                                aria-label={label}
                                inputMode="decimal"
                                autoComplete="off"
                                textAlign="end"
                                value={draft[key] ?? ''}
                                placeholder={formatCostValue(COST_PLACEHOLDERS[specifier], lang)}
                                onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
                              />
                              {failure && <Field.ErrorText>{t(`effort.errors.${failure}`)}</Field.ErrorText>}
                            </Field.Root>
                          ) : (
                            showValue(line.cells[specifier].value, line.unit, lang)
                          )}
                        </Table.Cell>
                      );
                    })}
                  </Table.Row>
                ))}
              </Table.Body>
              <Table.Footer>
                <Table.Row>
                  <Table.Cell colSpan={2}>
                    <Text fontWeight="semibold">{t('effort.total')}</Text>
                    <Text color="fg.muted" fontSize="xs">
                      {t('effort.totalHelp')}
                    </Text>
                  </Table.Cell>
                  {COLUMNS.map((specifier) => (
                    <Table.Cell key={specifier} textAlign="end" data-testid={`effort-total-${specifier}`}>
                      <TotalCell amounts={amountsOf(effort.lines, specifier, (line) => valueIn(line, specifier))} hourlyRate={effort.hourlyRate} lang={lang} />
                    </Table.Cell>
                  ))}
                </Table.Row>
              </Table.Footer>
            </Table.Root>
          </Box>
        )}
        {editing && (
          <Stack gap="3">
            {restored && (
              <Text color="fg.muted" fontSize="sm" data-testid="effort-draft-restored">
                {t('notificationForm.draftRestored', { date: formatDateTime(restored.savedAt) })}
              </Text>
            )}
            <Text color="fg.muted" fontSize="sm">
              {t('effort.editHint')}
            </Text>
            <FormError error={error} />
            <HStack justify="end" gap="3" flexWrap="wrap">
              <Button
                size="lg"
                variant="outline"
                onClick={() => {
                  setDraft(null);
                  setRestored(null);
                }}
                disabled={busy}
              >
                <X aria-hidden /> {t('effort.cancel')}
              </Button>
              <Button size="lg" colorPalette="blue" onClick={() => void save()} disabled={!canSave} loading={busy}>
                <Save aria-hidden /> {t('effort.save')}
              </Button>
            </HStack>
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
