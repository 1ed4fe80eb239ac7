/**
 * "Meldung teilen", part 1 §2.2, §5, §8: the recipient's e-mail, checked with the rule the server applies
 * (src/shared/domain/share.ts; the error state with its text when it fails), then queued like every write
 * (sync/repositories/share.ts). Online the dialog waits briefly for the server's answer: "Email sent!" (a toast of
 * 4 s) and the dialog closes, or the refusal in the dialog. Offline, or when the answer takes longer, the toast says
 * the e-mail goes out once the device is online; the queue sends it exactly once.
 */
import { Button, Field, Input, Stack, Text } from '@chakra-ui/react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isShareEmail, SHARE_TOAST_MS } from '../../../shared/domain/share';
import { AppDialog } from '../../components/app-dialog';
import { FormError } from '../../components/form-actions';
import { toaster } from '../../lib/toaster';
import { useSyncStatus } from '../../stores/sync-store';
import { shareByEmail, shareOutcome } from '../../sync/repositories/share';
import { isQuotaExceeded, useWriteContext } from '../../sync/use-write-context';

export interface ShareDialogProps {
  open: boolean;
  onClose: () => void;
  notificationnodeid: string;
  /** The notification's title, for the dialog and the queued change's description. */
  title: string;
}

/** How long an online share waits for the server before saying it is queued. */
const ANSWER_WAIT_MS = 8_000;

export function ShareDialog({ open, onClose, notificationnodeid, title }: ShareDialogProps) {
  const { t } = useTranslation();
  const context = useWriteContext();
  const online = useSyncStatus((state) => state.online);
  const [receiver, setReceiver] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();

  useEffect(() => {
    if (!open) return;
    setReceiver('');
    setInvalid(false);
    setBusy(false);
    setError(null);
  }, [open]);

  const notify = (kind: 'success' | 'info', text: string) => toaster.create({ type: kind, title: text, duration: SHARE_TOAST_MS, closable: true });

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (busy || !context) return;
    if (!isShareEmail(receiver)) {
      setInvalid(true);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // §7/§9: every call says de; the mail is in German, as the app.
      const entry = await shareByEmail(context, { notificationnodeid, receiver: receiver.trim(), title, lang: 'de' });
      if (!online) {
        notify('info', t('share.queued'));
        onClose();
        return;
      }
      const outcome = await shareOutcome(context, entry, ANSWER_WAIT_MS);
      if (outcome.kind === 'refused') {
        setBusy(false);
        setError(outcome.message ? `${t('share.failed')} (${outcome.message})` : t('share.failed'));
        return;
      }
      notify(outcome.kind === 'sent' ? 'success' : 'info', outcome.kind === 'sent' ? t('share.sent') : t('share.waiting'));
      onClose();
    } catch (cause) {
      setBusy(false);
      setError(isQuotaExceeded(cause) ? t('sync.errors.quota') : t('share.failed'));
    }
  };

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={t('share.title')}
      size="md"
      placement="center"
      testId="share-dialog"
      closeLabel={t('share.cancel')}
      onSubmit={(event) => void submit(event)}
      footerLayout={error ? 'stack' : 'row'}
      footer={
        <>
          <FormError error={error} />
          <Stack direction="row" justify="flex-end" gap="2">
            <Button variant="outline" onClick={onClose} disabled={busy}>
              {t('share.cancel')}
            </Button>
            <Button type="submit" colorPalette="brand" loading={busy} disabled={busy} data-testid="share-send">
              {t('share.send')}
            </Button>
          </Stack>
        </>
      }
    >
      <Stack gap="4">
        <Text color="fg.muted">{t('share.intro', { title })}</Text>
        <Field.Root invalid={invalid} required>
          <Field.Label htmlFor={fieldId}>{t('share.receiver')}</Field.Label>
          <Input
            size="lg"
            id={fieldId}
            type="email"
            inputMode="email"
            autoComplete="email"
            autoFocus
            value={receiver}
            placeholder={t('share.placeholder')}
            onChange={(event) => {
              setReceiver(event.target.value);
              if (invalid) setInvalid(!isShareEmail(event.target.value));
            }}
            data-testid="share-receiver"
          />
          <Field.ErrorText textStyle="sm">{t('share.invalidEmail')}</Field.ErrorText>
        </Field.Root>
      </Stack>
    </AppDialog>
  );
}
