/**
 * A 24-hour time field (HH:mm) that looks the same whatever the tablet's operating-system language: a text input
 * with a numeric keyboard instead of <input type="time"> (see src/client/lib/time-input.ts). The parent gets a
 * value as soon as a complete HH:mm is typed, and on leaving the field whatever was typed, completed where it can
 * be ("630" → "06:30"), else as it is so the form's own rule marks it invalid.
 */
import { Input, type InputProps } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeTimeInput, TIME_INPUT_PATTERN } from '../lib/time-input';

export interface TimeFieldProps extends Omit<InputProps, 'value' | 'onChange' | 'type'> {
  /** 'HH:mm'. */
  value: string;
  onChange(value: string): void;
}

export function TimeField({ value, onChange, onBlur, ...props }: TimeFieldProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  // why during render: a new value from the parent (a loaded plan, the next default) replaces the draft at once.
  if (value !== shown) {
    setShown(value);
    setDraft(value);
  }
  return (
    <Input
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder={t('shifts.timePlaceholder')}
      maxLength={5}
      {...props}
      value={draft}
      onChange={(event) => {
        const text = event.target.value;
        setDraft(text);
        if (TIME_INPUT_PATTERN.test(text) && text !== value) {
          setShown(text);
          onChange(text);
        }
      }}
      onBlur={(event) => {
        const completed = normalizeTimeInput(draft) ?? draft;
        setDraft(completed);
        if (completed !== value) {
          setShown(completed);
          onChange(completed);
        }
        onBlur?.(event);
      }}
    />
  );
}
