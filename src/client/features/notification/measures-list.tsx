/**
 * The measures (Maßnahmen) of a notification, part 1 §2.2: each solution with title, description, date, author and
 * attachments, and the "add solution" link. Placeholder until the solutions slice of issue #13 fills it.
 */
import { Text } from '@chakra-ui/react';

export interface MeasuresListProps {
  notificationnodeid: string;
  /** Where the solution form returns to: the notification's details screen. */
  equipmentnodeid: string | null;
}

export function MeasuresList({ notificationnodeid }: MeasuresListProps) {
  return <Text data-testid="measures-list" data-notification={notificationnodeid} />;
}
