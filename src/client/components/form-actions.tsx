/** The error line of every form and dialog, and the footer (delete on the left in edit mode, submit on the right) of the plant, area and pool forms. */
import { Alert, Button, Card, Flex } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';

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
  canSubmit: boolean;
  busy: boolean;
  /** Test ids the e2e page models use. */
  deleteTestId: string;
  submitTestId: string;
}

export function FormFooter({ deleteLabel, onDelete, submitLabel, canSubmit, busy, deleteTestId, submitTestId }: FormFooterProps) {
  return (
    <Card.Footer>
      <Flex w="full" justify="space-between" gap="3" wrap="wrap-reverse">
        {deleteLabel ? (
          <Button variant="outline" colorPalette="red" onClick={onDelete} disabled={busy} data-testid={deleteTestId}>
            <Trash2 aria-hidden />
            {deleteLabel}
          </Button>
        ) : (
          <span />
        )}
        <Button type="submit" colorPalette="brand" disabled={!canSubmit} loading={busy} data-testid={submitTestId}>
          {submitLabel}
        </Button>
      </Flex>
    </Card.Footer>
  );
}
