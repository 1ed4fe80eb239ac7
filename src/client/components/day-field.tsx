/**
 * A day field that shows and takes DD.MM.YYYY whatever language the tablet's browser runs in: a text input (a
 * native <input type="date"> shows the browser's format, mm/dd/yyyy on an English tablet) with a calendar button
 * that opens the browser's own date picker. The parent gets the day's first or last millisecond (`bound`) as soon
 * as a whole day is typed or picked, null when the field is emptied. A text that is no day is said at the field once
 * it is left — not written as a day, or a day the calendar does not have (31.02.2026) — and from then on the bound
 * does not act: the list is never filtered by a guess, nor by the day the field showed before. The parent clears a
 * wrong text by mounting the field anew (a `key`), as Filter zurücksetzen does.
 */
import { Box, Field, HStack, IconButton, Input } from '@chakra-ui/react';
import { CalendarDays } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseTypedDay } from '../../shared/domain/typed-day';
import { formatDate } from '../lib/dates';
import { dayEnd, dayInput, dayStart } from '../lib/day-bounds';

export interface DayFieldProps {
  label: string;
  /** Epoch ms of the bound, null when unset. */
  value: number | null;
  /** Which millisecond of the day the parent gets: a "Von" field the first, a "Bis" field the last. */
  bound: 'start' | 'end';
  onChange(value: number | null): void;
  /** The range as a whole is wrong (from after to): said by the parent. */
  invalid?: boolean;
}

const shownText = (value: number | null) => (value === null ? '' : formatDate(value));

export function DayField({ label, value, bound, onChange, invalid = false }: DayFieldProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => shownText(value));
  const [shown, setShown] = useState(value);
  const [left, setLeft] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const toBound = bound === 'start' ? dayStart : dayEnd;
  // why during render: a value from outside (Filter zurücksetzen, a stored view) replaces what was typed at once.
  if (value !== shown) {
    setShown(value);
    // A text that is no day stands for no value (it is replaced by any day from outside).
    if ((parseTypedDay(text).kind === 'invalid' ? null : toBound(text)) !== value) {
      setText(shownText(value));
      setLeft(false);
    }
  }
  const typed = parseTypedDay(text);
  const take = (next: string) => {
    setText(next);
    const day = parseTypedDay(next);
    const ms = day.kind === 'empty' ? null : toBound(next);
    if (day.kind !== 'invalid' && ms !== value) {
      setShown(ms);
      onChange(ms);
    }
  };
  const wrongDay = typed.kind === 'invalid' && left;
  return (
    <Field.Root invalid={invalid || wrongDay}>
      <Field.Label>{label}</Field.Label>
      <HStack gap="1" w="full">
        <Input
          size="lg"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder={t('dayField.placeholder')}
          maxLength={10}
          value={text}
          onChange={(event) => {
            setLeft(false);
            take(event.target.value);
          }}
          onBlur={() => {
            setLeft(true);
            // Left with a text that is no day: the bound stops acting (it went on filtering by the day shown before).
            if (typed.kind === 'invalid' && value !== null) {
              setShown(null);
              onChange(null);
            }
          }}
        />
        <Box position="relative" flexShrink={0}>
          <IconButton
            size="lg"
            variant="outline"
            aria-label={t('dayField.openCalendar')}
            onClick={() => {
              const input = picker.current;
              if (!input) return;
              input.value = dayInput(value);
              // why the fallback: showPicker is missing in browsers before 2022; a click opens the picker there.
              if (typeof input.showPicker === 'function') input.showPicker();
              else input.click();
            }}
          >
            <CalendarDays aria-hidden />
          </IconButton>
          {/* The browser's date picker only: invisible under the button (so the picker opens at it), out of the tab order. */}
          <input
            ref={picker}
            type="date"
            tabIndex={-1}
            aria-hidden
            style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', opacity: 0, pointerEvents: 'none' }}
            onChange={(event) => {
              const day = parseTypedDay(event.target.value);
              if (day.kind !== 'date') return;
              setLeft(true);
              take(formatDate(new Date(day.year, day.month - 1, day.day)));
            }}
          />
        </Box>
      </HStack>
      {wrongDay && <Field.ErrorText>{typed.reason === 'noSuchDay' ? t('dayField.noSuchDay') : t('dayField.invalid')}</Field.ErrorText>}
    </Field.Root>
  );
}
