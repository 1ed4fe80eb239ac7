/**
 * The warning of the edit forms (notification, machine) that the record was changed elsewhere while the form was
 * open: each field with its other value, as the form would show it, and a button to take it over. Which fields, and
 * what taking one over does, is the form's (lib/changed-elsewhere.ts).
 */
import { Alert, Button, HStack, Text } from '@chakra-ui/react';

export interface ChangedElsewhereEntry {
  field: string;
  /** The field's label as the form shows it. */
  label: string;
  /** The other value as the form would show it; empty shows as "–". */
  value: string;
}

export interface ChangedElsewhereAlertProps {
  title: string;
  hint: string;
  entries: readonly ChangedElsewhereEntry[];
  takeOverLabel: string;
  onTakeOver(field: string): void;
  /** Test ids of the alert and of each field's line. */
  testId: string;
  fieldTestId: string;
}

export function ChangedElsewhereAlert({ title, hint, entries, takeOverLabel, onTakeOver, testId, fieldTestId }: ChangedElsewhereAlertProps) {
  if (entries.length === 0) return null;
  return (
    <Alert.Root status="warning" data-testid={testId}>
      <Alert.Indicator />
      <Alert.Content gap="2" minW="0">
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{hint}</Alert.Description>
        {entries.map(({ field, label, value }) => (
          <HStack key={field} gap="3" justify="space-between" flexWrap="wrap" data-testid={fieldTestId} data-field={field}>
            <Text textStyle="sm" minW="0" flex="1" wordBreak="break-word" lineClamp={4}>
              <Text as="span" fontWeight="medium">
                {label}:
              </Text>{' '}
              {value || '–'}
            </Text>
            <Button variant="outline" size="lg" onClick={() => onTakeOver(field)}>
              {takeOverLabel}
            </Button>
          </HStack>
        ))}
      </Alert.Content>
    </Alert.Root>
  );
}
