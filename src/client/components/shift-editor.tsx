/**
 * The weekly shift editor (spec part 2 §2.7), used by the area form and the equipment form: 'Schichten Wochentage'
 * with a count, one row per shift (weekday multi-select Mo–So, start and end time, 'Endzeit (+1)' when the shift
 * ends the next day, 'Schicht ist unbemannt', remove) and '+ Schicht' with the §4 defaults. A shift that overlaps
 * another is warned about (`shiftOverlaps`), not refused.
 * Controlled: the parent holds the rows and decides what to save; `hasShiftRowIssues` (shared) tells it when not to.
 */
import { Badge, Box, Button, Checkbox, createListCollection, Field, Flex, Heading, IconButton, Portal, Select, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { TriangleAlert, Trash2 } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { TimeField } from './time-field';
import { isWeekday, newShiftRow, shiftOverlaps, shiftRowEndsNextDay, shiftRowIssues, sortWeekdays, WEEKDAYS, type ShiftOverlap, type ShiftRow } from '../../shared/domain/shift';

/** A row of the editor: the shared shift row ('HH:MM' times, as the API takes it) plus a stable key for React. */
export interface ShiftEditorRow extends ShiftRow {
  key: string;
}

/** Spec part 2 §9: "weekday menu max height 224". */
const WEEKDAY_MENU_MAX_HEIGHT = '224px';

let keyCounter = 0;
/** Keys only need to be unique within the page; no crypto.randomUUID (missing on plain-http LAN installs). */
export function nextShiftKey(): string {
  keyCounter += 1;
  return `shift-${keyCounter}`;
}

/** Editor rows for shifts loaded from the mirror. */
export function toEditorRows(rows: readonly ShiftRow[]): ShiftEditorRow[] {
  return rows.map((row) => ({ ...row, key: nextShiftKey() }));
}

/** The rows to save (the API's shape), without the editor's keys. */
export function fromEditorRows(rows: readonly ShiftEditorRow[]): ShiftRow[] {
  return rows.map(({ start, end, weekdays, unmanned }) => ({ start, end, weekdays: sortWeekdays(weekdays), unmanned }));
}

export interface ShiftEditorProps {
  shifts: readonly ShiftEditorRow[];
  onChange(shifts: ShiftEditorRow[]): void;
  disabled?: boolean;
}

export function ShiftEditor({ shifts, onChange, disabled = false }: ShiftEditorProps) {
  const { t } = useTranslation();
  const update = (key: string, change: Partial<ShiftRow>) => onChange(shifts.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const remove = (key: string) => onChange(shifts.filter((row) => row.key !== key));
  const add = () => onChange([...shifts, { ...newShiftRow(shifts[shifts.length - 1]), key: nextShiftKey() }]);
  const overlaps = useMemo(() => shiftOverlaps(shifts), [shifts]);

  return (
    <Stack as="section" gap="4" aria-labelledby="shift-editor-title" data-testid="shift-editor">
      <Flex align="center" gap="3">
        <Heading id="shift-editor-title" as="h3" size="md">
          {t('shifts.title')}
        </Heading>
        <Badge size="lg" colorPalette="brand" variant="subtle" data-testid="shift-count" aria-label={t('shifts.count', { count: shifts.length })}>
          {shifts.length}
        </Badge>
      </Flex>
      {shifts.length === 0 && <Text color="fg.muted">{t('shifts.empty')}</Text>}
      {shifts.map((row, index) => (
        <ShiftRowFields key={row.key} row={row} index={index} overlaps={overlaps[index] ?? []} disabled={disabled} onChange={(change) => update(row.key, change)} onRemove={() => remove(row.key)} />
      ))}
      <Box>
        <Button variant="outline" onClick={add} disabled={disabled} data-testid="shift-add">
          {t('shifts.add')}
        </Button>
      </Box>
    </Stack>
  );
}

interface ShiftRowFieldsProps {
  row: ShiftEditorRow;
  index: number;
  /** The other rows this shift overlaps. */
  overlaps: readonly ShiftOverlap[];
  disabled: boolean;
  onChange(change: Partial<ShiftRow>): void;
  onRemove(): void;
}

function ShiftRowFields({ row, index, overlaps, disabled, onChange, onRemove }: ShiftRowFieldsProps) {
  const { t } = useTranslation();
  const weekdays = useMemo(() => createListCollection({ items: WEEKDAYS.map((day) => ({ value: String(day), label: t(`shifts.weekdays.${day}`) })) }), [t]);
  const issues = shiftRowIssues(row);
  const invalid = (field: 'weekdays' | 'start' | 'end') => issues.some((issue) => issue.field === field);
  const missingWeekday = invalid('weekdays');
  const endIssue = issues.find((issue) => issue.field === 'end')?.code;
  const nextDay = shiftRowEndsNextDay(row);
  const number = index + 1;

  return (
    <Box borderWidth="1px" borderRadius="l2" p="4" bg="bg.panel" data-testid="shift-row" role="group" aria-label={t('shifts.row', { number })}>
      {/* why start: a field's error text grows its cell downwards; aligned at the end, that field's input rose above its
          neighbours' (an exploratory run's "25:99"). The labels are one line each, so the inputs line up from the top. */}
      <SimpleGrid columns={{ base: 1, sm: 4 }} columnGap="4" rowGap="2" alignItems="start">
        <Box gridColumn={{ sm: 'span 2' }}>
          <Select.Root
            multiple
            collection={weekdays}
            value={row.weekdays.map(String)}
            onValueChange={(details) => onChange({ weekdays: sortWeekdays(details.value.map(Number).filter(isWeekday)) })}
            invalid={missingWeekday}
            disabled={disabled}
            positioning={{ sameWidth: true }}
          >
            <Select.HiddenSelect />
            <Select.Label>{t('shifts.weekdaysLabel')}</Select.Label>
            <Select.Control>
              <Select.Trigger data-testid="shift-weekdays">
                <Select.ValueText placeholder={t('shifts.weekdaysPlaceholder')} />
              </Select.Trigger>
              <Select.IndicatorGroup>
                <Select.Indicator />
              </Select.IndicatorGroup>
            </Select.Control>
            <Portal>
              <Select.Positioner>
                <Select.Content maxH={WEEKDAY_MENU_MAX_HEIGHT} overflowY="auto">
                  {weekdays.items.map((item) => (
                    <Select.Item item={item} key={item.value} minH="11">
                      {item.label}
                      <Select.ItemIndicator />
                    </Select.Item>
                  ))}
                </Select.Content>
              </Select.Positioner>
            </Portal>
          </Select.Root>
          {missingWeekday && (
            <Text color="fg.error" textStyle="sm" mt="1" data-testid="shift-weekdays-error">
              {t('shifts.weekdaysRequired')}
            </Text>
          )}
        </Box>
        <Field.Root disabled={disabled} invalid={invalid('start')}>
          <Field.Label>{t('shifts.start')}</Field.Label>
          <TimeField value={row.start} onChange={(value) => onChange({ start: value })} data-testid="shift-start" />
          <Field.ErrorText>{t('shifts.invalidTime')}</Field.ErrorText>
        </Field.Root>
        <Field.Root disabled={disabled} invalid={invalid('end')}>
          <Field.Label data-testid="shift-end-label">{nextDay ? t('shifts.endNextDay') : t('shifts.end')}</Field.Label>
          <TimeField value={row.end} onChange={(value) => onChange({ end: value })} data-testid="shift-end" />
          <Field.ErrorText>{t(endIssue === 'endEqualsStart' || endIssue === 'endBeforeStart' ? `shifts.${endIssue}` : 'shifts.invalidTime')}</Field.ErrorText>
        </Field.Root>
        {overlaps.map((overlap) => (
          <Flex key={overlap.other} gridColumn={{ sm: 'span 4' }} align="center" gap="2" color="fg.warning" textStyle="sm" data-testid="shift-overlap">
            <TriangleAlert size={16} aria-hidden />
            <Text>{t('shifts.overlaps', { number: overlap.other + 1, days: overlap.weekdays.map((day) => t(`shifts.weekdays.${day}`)).join(', ') })}</Text>
          </Flex>
        ))}
        <Flex gridColumn={{ sm: 'span 4' }} align="center" justify="space-between" gap="3" minH="11">
          <Checkbox.Root checked={row.unmanned} onCheckedChange={(details) => onChange({ unmanned: details.checked === true })} disabled={disabled} size="lg" data-testid="shift-unmanned">
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>{t('shifts.unmanned')}</Checkbox.Label>
          </Checkbox.Root>
          <IconButton variant="ghost" colorPalette="red" onClick={onRemove} disabled={disabled} aria-label={t('shifts.remove', { number })} data-testid="shift-remove">
            <Trash2 aria-hidden />
          </IconButton>
        </Flex>
      </SimpleGrid>
    </Box>
  );
}
