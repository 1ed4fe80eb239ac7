/**
 * What the small catalogue forms (brand, equipment class) share: the not-found notice and the loading placeholder,
 * the saving state that leaves for the machines on success, and the card with heading, restored-draft notice, error
 * line and cancel/submit footer.
 */
import { Alert, Box, Button, Card, Field, Flex, Heading, Input, Skeleton, Text } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { CATALOG_NAME_MAX, type CatalogueNameIssue } from '../../../shared/domain/equipment';
import { formatDateTime } from '../../lib/dates';
import { useLocalWrite } from '../../sync/use-local-write';
import { NotFoundNotice } from '../../components/not-found-notice';
import { CATALOGUE_FORM_EXIT } from './use-record-target';

export function CatalogueNotFound({ text, testId }: { text: string; testId: string }) {
  return (
    <Box m="6">
      <NotFoundNotice text={text} back={CATALOGUE_FORM_EXIT} testId={testId} />
    </Box>
  );
}

/** While the record is read from the device's mirror: the card's place, so the form opens filled, not blank. */
export function CatalogueLoading() {
  return (
    <Box p={{ base: '4', md: '6' }} maxW="3xl">
      <Skeleton h="60" borderRadius="l3" />
    </Box>
  );
}

/**
 * `save(write)`: runs the local write once at a time, then forgets the kept draft and goes to the machines; a
 * failure stays on the form (and keeps the draft). `cancel()`: forgets the draft and goes to the machines.
 */
export function useCatalogueSave(dropDraft: () => void) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { busy, error, run } = useLocalWrite(t('equipment.errors.saveFailed'));
  const leave = () => {
    dropDraft();
    void navigate(CATALOGUE_FORM_EXIT);
  };
  const save = async (write: () => Promise<unknown>) => {
    if (await run(write)) leave();
  };
  return { busy, error, save, cancel: leave };
}

export interface CatalogueFormCardProps {
  title: string;
  onSubmit(): void;
  busy: boolean;
  error: string | null;
  submitLabel: string;
  canSubmit: boolean;
  /** Test id the e2e page models use. */
  submitTestId: string;
  onCancel(): void;
  /** When the draft the form was filled from was kept (epoch ms), or null when it started fresh. */
  restoredAt: number | null;
  children: ReactNode;
}

export function CatalogueFormCard({ title, onSubmit, busy, error, submitLabel, canSubmit, submitTestId, onCancel, restoredAt, children }: CatalogueFormCardProps) {
  const { t } = useTranslation();
  return (
    <Box p={{ base: '4', md: '6' }} maxW="3xl">
      <Card.Root variant="outline">
        <Card.Body gap="5" as="form" onSubmit={(event) => (event.preventDefault(), onSubmit())}>
          <Heading as="h2" size="lg">
            {title}
          </Heading>
          {restoredAt !== null && (
            <Text textStyle="sm" color="fg.muted" data-testid="catalogue-draft-restored">
              {t('notificationForm.draftRestored', { date: formatDateTime(restoredAt) })}
            </Text>
          )}
          {children}
          {error && (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Title>{error}</Alert.Title>
            </Alert.Root>
          )}
          <Flex gap="3" justify="flex-end">
            <Button variant="ghost" onClick={onCancel} disabled={busy}>
              {t('equipment.cancel')}
            </Button>
            <Button type="submit" colorPalette="brand" disabled={!canSubmit} loading={busy} data-testid={submitTestId}>
              {submitLabel}
            </Button>
          </Flex>
        </Card.Body>
      </Card.Root>
    </Box>
  );
}

/**
 * The required name input both forms start with, with what is wrong with it (catalogueNameIssue): a missing name
 * only once the field was left, too long or taken at once.
 */
export function CatalogueNameField({ label, testId, value, onChange, disabled, issue }: { label: string; testId: string; value: string; onChange(value: string): void; disabled: boolean; issue: CatalogueNameIssue }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(false);
  const shown = issue === 'required' && !left ? null : issue;
  return (
    <Field.Root required invalid={shown !== null} disabled={disabled}>
      <Field.Label>
        {label}
        <Field.RequiredIndicator />
      </Field.Label>
      <Input data-testid={testId} value={value} onChange={(event) => onChange(event.target.value)} onBlur={() => setLeft(true)} />
      {shown && (
        <Field.ErrorText data-testid={`${testId}-error`}>
          {shown === 'required' ? t('validation.required') : shown === 'tooLong' ? t('validation.tooLong', { max: CATALOG_NAME_MAX }) : t('brands.nameTaken')}
        </Field.ErrorText>
      )}
    </Field.Root>
  );
}
