/**
 * A brand, type or manufacturer picker (spec part 2 §4): choose an existing entry or "+ Neu anlegen", which
 * shows a name field; new entries get their device-made id at once. A native select: large touch targets and
 * the tablet's own picker wheel.
 */
import { Field, Input, NativeSelect, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { newNodeId } from '../../sync/outbox';

export interface PickerChoice {
  isnew: boolean;
  nodeid: string;
  name?: string | undefined;
}

export interface PickerOption {
  nodeid: string;
  label: string;
}

const NEW = '__new__';

export interface CatalogPickerProps {
  label: string;
  testId: string;
  options: readonly PickerOption[];
  value: PickerChoice | null | undefined;
  onChange(choice: PickerChoice | null): void;
  /** Red outline ("brand, type or manufacturer missing"). */
  invalid?: boolean;
  errorText?: string | undefined;
  disabled?: boolean;
  allowNew?: boolean;
  /** Marked with the form's one required sign ("*"). */
  required?: boolean;
  /** The name the form records "touched" under. */
  field?: string;
  /** Whether a missing new name is shown as an error yet (after the field was left or a save was tried). */
  showMissing?: boolean;
}

export function CatalogPicker({ label, testId, options, value, onChange, invalid = false, errorText, disabled = false, allowNew = true, required = false, field, showMissing = true }: CatalogPickerProps) {
  const { t } = useTranslation();
  const selected = value ? (value.isnew ? NEW : value.nodeid) : '';
  return (
    <Stack gap="2" data-field={field}>
      <Field.Root invalid={invalid} disabled={disabled} required={required}>
        <Field.Label>
          {label}
          {required && <Field.RequiredIndicator />}
        </Field.Label>
        <NativeSelect.Root size="lg">
          <NativeSelect.Field
            data-testid={`${testId}-select`}
            value={selected}
            onChange={(event) => {
              const next = event.target.value;
              if (next === '') onChange(null);
              else if (next === NEW) onChange({ isnew: true, nodeid: value?.isnew ? value.nodeid : newNodeId(), name: value?.isnew ? value.name : '' });
              else onChange({ isnew: false, nodeid: next });
            }}
          >
            <option value="">{t('equipment.picker.choose')}</option>
            {options.map((option) => (
              <option key={option.nodeid} value={option.nodeid}>
                {option.label}
              </option>
            ))}
            {allowNew && <option value={NEW}>{t('equipment.picker.createNew')}</option>}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        {errorText && !value?.isnew && <Field.ErrorText>{errorText}</Field.ErrorText>}
      </Field.Root>
      {value?.isnew && (
        <Field.Root invalid={(showMissing && !value.name?.trim()) || Boolean(value.name?.trim() && errorText)} disabled={disabled} required>
          <Field.Label>
            {t('equipment.picker.newName', { label })}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input data-testid={`${testId}-new`} value={value.name ?? ''} onChange={(event) => onChange({ ...value, name: event.target.value })} />
          {showMissing && !value.name?.trim() && <Field.ErrorText>{t('equipment.errors.required')}</Field.ErrorText>}
          {/* A new name's own problem (taken, too long) shows under it: the select above only says "new". */}
          {value.name?.trim() && errorText && <Field.ErrorText data-testid={`${testId}-new-error`}>{errorText}</Field.ErrorText>}
        </Field.Root>
      )}
    </Stack>
  );
}
