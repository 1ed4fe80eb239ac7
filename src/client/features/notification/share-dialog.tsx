/**
 * "Meldung teilen", part 1 §2.2, §5: a recipient e-mail, sent by the server (queued while offline). Placeholder
 * until the share slice of issue #13 fills it.
 */
export interface ShareDialogProps {
  open: boolean;
  onClose: () => void;
  notificationnodeid: string;
  /** The notification's title, for the dialog and the queued change's description. */
  title: string;
}

export function ShareDialog({ open }: ShareDialogProps) {
  return open ? null : null;
}
