/**
 * "Zählerstand erfassen" (part 1 §4.6, §5): the input keeps only digits, one comma and one period as the user
 * types (`sanitizeCounterReading`); the value sent has the comma turned into a period (`parseCounterReading`).
 */
import { Button, Field, Input, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { parseCounterReading, sanitizeCounterReading } from '../../../shared/domain/counter';
import { AppDialog } from '../../components/app-dialog';
import { FormError } from '../../components/form-actions';
import { currentLanguage } from '../../lib/i18n';
import { type CounterItem } from '../../sync/machine-mirror';
import { addCounterReading } from '../../sync/repositories/counters';
import { useLocalWrite } from '../../sync/use-local-write';
import { useWriteContext } from '../../sync/use-write-context';
import { formatReading } from './format-reading';

export function CounterReadingDialog({ counter, onClose }: { counter: CounterItem; onClose: () => void }) {
  const { t } = useTranslation();
  const context = useWriteContext();
  const [input, setInput] = useState('');
  const { busy: saving, error, run } = useLocalWrite(t('counterSlice.dialog.failed'));
  const value = parseCounterReading(input);
  const invalid = input !== '' && value === undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!context || value === undefined || saving) return;
    if (await run(() => addCounterReading(context, { counternodeid: counter.nodeid, value }))) onClose();
  };

  return (
    <AppDialog
      onClose={() => !saving && onClose()}
      onSubmit={submit}
      title={t('counterSlice.dialog.title')}
      header={<Text color="fg.muted">{counter.name}</Text>}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={saving}>
            {t('counterSlice.dialog.cancel')}
          </Button>
          <Button type="submit" colorPalette="brand" disabled={value === undefined || saving || !context} loading={saving}>
            {t('counterSlice.dialog.save')}
          </Button>
        </>
      }
    >
      <Stack gap="4">
        {counter.latest && <Text>{t('counterSlice.dialog.current', { value: formatReading(counter.latest.value, currentLanguage(), counter.unit) })}</Text>}
        <Field.Root invalid={invalid} required>
          <Field.Label>{t('counterSlice.dialog.field')}</Field.Label>
          <Input inputMode="decimal" autoComplete="off" value={input} onChange={(event) => setInput(sanitizeCounterReading(event.target.value))} />
          {invalid ? <Field.ErrorText>{t('counterSlice.dialog.invalid')}</Field.ErrorText> : <Field.HelperText>{t('counterSlice.dialog.help')}{counter.unit ? ` (${counter.unit})` : ''}</Field.HelperText>}
        </Field.Root>
        <FormError error={error} size="sm" />
      </Stack>
    </AppDialog>
  );
}
