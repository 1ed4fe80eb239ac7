/**
 * The §4.6 counter modal in add mode (equipment.counter create): a counter of an existing counter type, or of a
 * new type with its name and unit, with an optional first reading. A new type, the counter and the reading are
 * one user action, written to the mirror and the outbox at once and sent in order when online.
 */
import { Button, Field, HStack, Input, NativeSelect, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../components/app-dialog';
import { FormError } from '../../components/form-actions';
import { currentLanguage } from '../../lib/i18n';
import { useCounterChoices } from '../../sync/machine-counters';
import { createCounter } from '../../sync/repositories/counters';
import { useLocalWrite } from '../../sync/use-local-write';
import { useWriteContext } from '../../sync/use-write-context';
import { addFormIssues, emptyAddForm, formUnitSymbol, toNewCounter, withType, type AddCounterForm, type TypeMode } from './counter-modal-model';
import { CounterReadingField } from './counter-reading-field';

export function CounterAddDialog({ equipmentnodeid, onClose }: { equipmentnodeid: string; onClose(): void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const context = useWriteContext();
  const choices = useCounterChoices(language);
  const types = choices?.types ?? [];
  const units = choices?.units ?? [];
  const [form, setForm] = useState<AddCounterForm | null>(null);
  const [touched, setTouched] = useState(false);
  const { busy, error, run } = useLocalWrite(t('counterModal.failed'));
  // The form starts once the types are read, so "existing" is preselected only when there is one.
  const current = form ?? (choices ? emptyAddForm(types) : null);
  const issues = current ? addFormIssues(current, types) : {};
  const valid = current !== null && Object.keys(issues).length === 0;
  const unit = current ? formUnitSymbol(current, types, units) : null;
  const set = (patch: Partial<AddCounterForm>) => current && setForm({ ...current, ...patch });
  const shown = (field: keyof typeof issues) => (touched || field === 'reading' || issues[field] === 'typeExists' ? issues[field] : undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!context || !current || !valid || busy) return;
    if (await run(() => createCounter(context, toNewCounter(current, equipmentnodeid)))) onClose();
  };

  const modeButton = (mode: TypeMode, label: string) => (
    <Button
      flex="1"
      variant={current?.typeMode === mode ? 'solid' : 'outline'}
      colorPalette={current?.typeMode === mode ? 'brand' : 'gray'}
      aria-pressed={current?.typeMode === mode}
      onClick={() => set({ typeMode: mode })}
      disabled={busy || (mode === 'existing' && types.length === 0)}
      data-testid={`counter-type-mode-${mode}`}
    >
      {label}
    </Button>
  );

  return (
    <AppDialog
      onClose={() => !busy && onClose()}
      onSubmit={submit}
      size="lg"
      testId="counter-add-dialog"
      title={t('counterModal.addTitle')}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('counterModal.cancel')}
          </Button>
          <Button type="submit" colorPalette="brand" disabled={!current || busy || !context || (touched && !valid)} loading={busy} data-testid="counter-add-save">
            {t('counterModal.save')}
          </Button>
        </>
      }
    >
      {current && (
        <Stack gap="4">
          <Stack gap="2" role="group" aria-label={t('counterModal.type')}>
            <HStack gap="2">
              {modeButton('existing', t('counterModal.existingType'))}
              {modeButton('new', t('counterModal.newType'))}
            </HStack>
          </Stack>
          {current.typeMode === 'existing' ? (
            <Field.Root required invalid={shown('typeNodeId') !== undefined} disabled={busy}>
              <Field.Label>
                {t('counterModal.type')}
                <Field.RequiredIndicator />
              </Field.Label>
              <NativeSelect.Root size="lg">
                <NativeSelect.Field value={current.typeNodeId} onChange={(event) => setForm(withType(current, event.target.value, types))} data-testid="counter-type-select">
                  <option value="">{t('counterModal.typePlaceholder')}</option>
                  {types.map((type) => (
                    <option key={type.nodeid} value={type.nodeid}>
                      {type.unit ? `${type.name} (${type.unit.symbol})` : type.name}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              <Field.ErrorText>{t('counterModal.required')}</Field.ErrorText>
            </Field.Root>
          ) : (
            <HStack gap="4" align="start" flexWrap={{ base: 'wrap', sm: 'nowrap' }}>
              <Field.Root required invalid={shown('newTypeName') !== undefined} disabled={busy} flex="2" minW="48">
                <Field.Label>
                  {t('counterModal.typeName')}
                  <Field.RequiredIndicator />
                </Field.Label>
                <Input size="lg" value={current.newTypeName} onChange={(event) => set({ newTypeName: event.target.value })} placeholder={t('counterModal.typeNamePlaceholder')} data-testid="counter-new-type-name" />
                <Field.ErrorText>{t(`counterModal.${shown('newTypeName') ?? 'required'}`)}</Field.ErrorText>
              </Field.Root>
              <Field.Root required invalid={shown('unitNodeId') !== undefined} disabled={busy} flex="1" minW="40">
                <Field.Label>
                  {t('counterModal.unit')}
                  <Field.RequiredIndicator />
                </Field.Label>
                <NativeSelect.Root size="lg">
                  <NativeSelect.Field value={current.unitNodeId} onChange={(event) => set({ unitNodeId: event.target.value })} data-testid="counter-unit-select">
                    <option value="">{t('counterModal.unitPlaceholder')}</option>
                    {units.map((option) => (
                      <option key={option.nodeid} value={option.nodeid}>
                        {`${option.name} (${option.symbol})`}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
                <Field.ErrorText>{t('counterModal.required')}</Field.ErrorText>
              </Field.Root>
            </HStack>
          )}
          <Field.Root required invalid={shown('name') !== undefined} disabled={busy}>
            <Field.Label>
              {t('counterModal.name')}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input size="lg" value={current.name} onChange={(event) => set({ name: event.target.value })} placeholder={t('counterModal.namePlaceholder')} data-testid="counter-name" />
            <Field.ErrorText>{t('counterModal.required')}</Field.ErrorText>
          </Field.Root>
          <CounterReadingField label={t('counterModal.firstReading')} value={current.reading} onChange={(reading) => set({ reading })} unit={unit} disabled={busy} testId="counter-first-reading" />
          <FormError error={error} size="sm" />
        </Stack>
      )}
    </AppDialog>
  );
}
