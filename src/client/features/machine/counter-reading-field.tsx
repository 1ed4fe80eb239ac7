/**
 * The counter reading input of the §4.6 modal (§5 rule: digits, one comma, one period, the comma read as a decimal
 * point) with what the rule makes of the text shown live beside it in the display format ("= 71,4 h"), and the
 * warnings a save asks to confirm (issue #12: a reading typed as the display shows it was stored 1000× too small).
 */
import { Alert, Box, Button, Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import type { ReadingCheck } from '../../../shared/domain/counter';
import { currentLanguage } from '../../lib/i18n';
import { droppedInput, meantWithoutPeriod, readingFeedback, type DroppedInput } from './counter-modal-model';
import { formatHours, formatReading } from './format-reading';

export interface CounterReadingFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  unit: string | null;
  required?: boolean;
  disabled?: boolean;
  testId?: string;
}

export function CounterReadingField({ label, value, onChange, unit, required = false, disabled = false, testId = 'counter-reading-input' }: CounterReadingFieldProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const feedback = readingFeedback(value);
  const meant = feedback.thousandsHint ? meantWithoutPeriod(value) : undefined;
  // What the §5 rule does not keep (a second comma or period, a minus, letters) the field says until the text is
  // cleared, instead of the value silently becoming another number ("12,3,4" → 12,34; "-5" → 5).
  const [dropped, setDropped] = useState<DroppedInput | undefined>();
  const type = (typed: string) => {
    const { kept, dropped: now } = droppedInput(typed);
    if (now) setDropped(now);
    else if (kept === '') setDropped(undefined);
    onChange(kept);
  };
  return (
    <Stack gap="2">
      <Field.Root invalid={feedback.issue !== undefined} required={required} disabled={disabled}>
        <Field.Label>
          {label}
          {required && <Field.RequiredIndicator />}
        </Field.Label>
        <HStack w="full" gap="3" align="center">
          <Input
            flex="1"
            minW="0"
            size="lg"
            inputMode="decimal"
            autoComplete="off"
            value={value}
            onChange={(event) => type(event.target.value)}
            data-testid={testId}
          />
          <Box minW="32" aria-live="polite" data-testid="counter-reading-interpreted">
            {feedback.value !== undefined && (
              <Text fontSize="lg" fontWeight="semibold" fontVariantNumeric="tabular-nums" whiteSpace="nowrap">
                {t('counterModal.interpreted', { value: formatReading(feedback.value, language, unit) })}
              </Text>
            )}
          </Box>
        </HStack>
        {feedback.issue ? <Field.ErrorText>{t(`counterModal.${feedback.issue}`)}</Field.ErrorText> : <Field.HelperText>{t('counterModal.help')}</Field.HelperText>}
      </Field.Root>
      {dropped && value !== '' && (
        <Alert.Root status="warning" size="sm" data-testid={dropped.kind === 'separator' ? 'counter-separator-dropped' : 'counter-character-dropped'}>
          <Alert.Indicator />
          <Alert.Description>
            {dropped.kind === 'separator'
              ? t('counterModal.separatorDropped')
              : dropped.kind === 'minus'
                ? t('counterModal.minusDropped')
                : t('counterModal.charactersDropped', { characters: dropped.characters })}
          </Alert.Description>
        </Alert.Root>
      )}
      {feedback.thousandsHint && feedback.value !== undefined && meant !== undefined && (
        <Alert.Root status="warning" size="sm" data-testid="counter-thousands-hint">
          <Alert.Indicator />
          <Alert.Description>
            {t('counterModal.thousandsHint', { typed: value, value: formatReading(feedback.value, language, unit), meant: formatReading(meant, language, unit) })}
          </Alert.Description>
        </Alert.Root>
      )}
    </Stack>
  );
}

/** The question a save asks before a suspicious reading is written: confirm it, or go back and correct it. */
export function ReadingWarning({ check, value, unit, onConfirm, onCorrect, busy }: { check: Exclude<ReadingCheck, { kind: 'ok' }>; value: number; unit: string | null; onConfirm(): void; onCorrect(): void; busy: boolean }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const texts =
    check.kind === 'lower'
      ? { title: t('counterModal.lowerTitle'), text: t('counterModal.lowerText', { value: formatReading(value, language, unit), previous: formatReading(check.previous, language, unit) }), confirm: t('counterModal.lowerConfirm') }
      : {
          title: t('counterModal.tooFastTitle'),
          text: t('counterModal.tooFastText', { elapsed: formatHours(check.elapsedHours, language), increase: formatReading(check.increase, language, unit) }),
          confirm: t('counterModal.tooFastConfirm'),
        };
  return (
    <Alert.Root status="warning" role="alert" data-testid="counter-reading-warning" data-kind={check.kind}>
      <Alert.Indicator />
      <Alert.Content gap="3">
        <Alert.Title>{texts.title}</Alert.Title>
        <Alert.Description>{texts.text}</Alert.Description>
        <HStack gap="2" wrap="wrap">
          <Button minH="11" variant="outline" onClick={onCorrect} disabled={busy} data-testid="counter-reading-correct">
            {t('counterModal.correct')}
          </Button>
          <Button minH="11" colorPalette="orange" onClick={onConfirm} loading={busy} data-testid="counter-reading-confirm">
            {texts.confirm}
          </Button>
        </HStack>
      </Alert.Content>
    </Alert.Root>
  );
}
