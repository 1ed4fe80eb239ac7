/**
 * Effort and costs (Aufwandserfassung) of a notification, part 1 §2.2, §5. Placeholder until the costs slice of
 * issue #13 fills it.
 */
import { Text } from '@chakra-ui/react';

export interface EffortTabProps {
  notificationnodeid: string;
  /** The machine whose hourly rate prices the hours. */
  equipmentnodeid: string | null;
}

export function EffortTab({ notificationnodeid }: EffortTabProps) {
  return <Text data-testid="effort-tab" data-notification={notificationnodeid} />;
}
