/**
 * The error line of every form and dialog, and the footer (delete on the left in edit mode, Abbrechen and submit on
 * the right) of the plant, area, pool, solution and FAQ forms.
 */
import { Alert, Button, Card, Flex } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';

/** `size="sm"`: the line under a single field or in a small dialog. */
export function FormError({ error, size }: { error: string | null; size?: 'sm' }) {
  if (!error) return null;
  return (
    <Alert.Root status="error" role="alert" size={size}>
      <Alert.Indicator />
      <Alert.Title fontWeight="normal">{error}</Alert.Title>
    </Alert.Root>
  );
}

export interface FormFooterProps {
  /** Shown only when set (edit mode with the delete permission). */
  deleteLabel?: string;
  onDelete(): void;
  submitLabel: string;
  /** Where "Abbrechen" leads: where the form's back link and its save lead (nothing is saved). */
  cancelTo: string;
  /** Navigation state for `cancelTo` (the notification details' origin, lib/notification-origin.ts). */
  cancelState?: unknown;
  /** Runs when "Abbrechen" is tapped (a form drops its kept draft: the user chose to throw the input away). */
  onCancel?(): void;
  canSubmit: boolean;
  busy: boolean;
  /** Test ids the e2e page models use. */
  deleteTestId: string;
  submitTestId: string;
}

export function FormFooter({ deleteLabel, onDelete, submitLabel, cancelTo, cancelState, onCancel, canSubmit, busy, deleteTestId, submitTestId }: FormFooterProps) {
  const { t } = useTranslation();
  return (
    <Card.Footer>
      <Flex w="full" justify="space-between" gap="3" wrap="wrap-reverse">
        {deleteLabel ? (
          <Button variant="outline" colorPalette="red" size="lg" onClick={onDelete} disabled={busy} data-testid={deleteTestId}>
            <Trash2 aria-hidden />
            {deleteLabel}
          </Button>
        ) : (
          <span />
        )}
        <Flex gap="3" wrap="wrap" justify="flex-end">
          <Button asChild variant="outline" size="lg" aria-disabled={busy || undefined}>
            <RouterLink to={cancelTo} state={cancelState} onClick={(event) => (busy ? event.preventDefault() : onCancel?.())}>
              {t('formFooter.cancel')}
            </RouterLink>
          </Button>
          <Button type="submit" colorPalette="brand" size="lg" disabled={!canSubmit} loading={busy} data-testid={submitTestId}>
            {submitLabel}
          </Button>
        </Flex>
      </Flex>
    </Card.Footer>
  );
}
