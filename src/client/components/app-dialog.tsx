/**
 * The frame every dialog of the app shares: backdrop, title, body and footer, closed by Escape, a click outside
 * (not while it holds a chosen photo: `holdsInput`) or the footer's own button. A dialog says only what differs (its texts, body, buttons, size).
 */
import { Button, CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { FormEventHandler, ReactNode } from 'react';

export interface AppDialogProps {
  /** Default open: most dialogs are mounted only while they show. */
  open?: boolean;
  /** Escape, a click outside or the corner button; the footer's buttons call what they need themselves. */
  onClose(): void;
  title: ReactNode;
  /** Shown under the title (a subtitle, a search field, a live count); the header then stacks them. */
  header?: ReactNode;
  headerGap?: string;
  children: ReactNode;
  footer: ReactNode;
  /** `wrap`: three buttons that must fit a phone; `stack`: an error line above the buttons. */
  footerLayout?: 'row' | 'wrap' | 'stack';
  /** A question the user has to answer before going on (a delete, unsent changes): announced as an alert. */
  alert?: boolean;
  size?: Dialog.RootProps['size'];
  placement?: Dialog.RootProps['placement'];
  scrollBehavior?: Dialog.RootProps['scrollBehavior'];
  testId?: string;
  /** The accessible label of a close button in the corner; without it there is none. */
  closeLabel?: string;
  /** The dialog is this form: Enter in a field submits it. */
  onSubmit?: FormEventHandler<HTMLFormElement>;
  /**
   * It holds what the user chose and the device does not keep (a photo): a tap beside it or Escape does not close it,
   * only its own buttons do. A stray tap on a tablet must not throw a photo away.
   */
  holdsInput?: boolean;
}

const FOOTER_LAYOUT = {
  row: {},
  wrap: { flexWrap: 'wrap' },
  stack: { flexDirection: 'column', alignItems: 'stretch', gap: '2' },
} as const satisfies Record<string, Dialog.FooterProps>;

export function AppDialog({ open = true, onClose, title, header, headerGap = '1', children, footer, footerLayout = 'row', alert = false, size, placement, scrollBehavior, testId, closeLabel, onSubmit, holdsInput = false }: AppDialogProps) {
  const parts = (
    <>
      <Dialog.Header {...(header !== undefined && { flexDirection: 'column', alignItems: 'stretch', gap: headerGap })}>
        <Dialog.Title>{title}</Dialog.Title>
        {header}
      </Dialog.Header>
      <Dialog.Body>{children}</Dialog.Body>
      <Dialog.Footer {...FOOTER_LAYOUT[footerLayout]}>{footer}</Dialog.Footer>
      {closeLabel && (
        <Dialog.CloseTrigger asChild>
          <CloseButton size="lg" aria-label={closeLabel} />
        </Dialog.CloseTrigger>
      )}
    </>
  );
  return (
    <Dialog.Root
      lazyMount
      unmountOnExit
      open={open}
      onOpenChange={(details) => !details.open && onClose()}
      closeOnInteractOutside={!holdsInput}
      closeOnEscape={!holdsInput}
      role={alert ? 'alertdialog' : 'dialog'}
      size={size}
      placement={placement}
      scrollBehavior={scrollBehavior}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          {onSubmit ? (
            <Dialog.Content asChild data-testid={testId}>
              <form onSubmit={onSubmit} noValidate>
                {parts}
              </form>
            </Dialog.Content>
          ) : (
            <Dialog.Content data-testid={testId}>{parts}</Dialog.Content>
          )}
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** The footer of a dialog that saves: cancel (not while saving) and the submit button with its busy state. */
export function DialogSaveActions({ cancelLabel, saveLabel, savingLabel, onCancel, canSave, saving, saveTestId }: { cancelLabel: string; saveLabel: string; savingLabel?: string; onCancel(): void; canSave: boolean; saving: boolean; saveTestId?: string }) {
  return (
    <>
      <Button variant="ghost" onClick={onCancel} disabled={saving}>
        {cancelLabel}
      </Button>
      <Button type="submit" colorPalette="brand" disabled={!canSave || saving} loading={saving} loadingText={savingLabel} data-testid={saveTestId}>
        {saveLabel}
      </Button>
    </>
  );
}
