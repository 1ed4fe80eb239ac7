/**
 * The §4.6 counter modal in edit mode: type and name locked, a new reading (equipment.counter update) and, except
 * for the built-in operating-hours type, delete (equipment.counter delete). Titled "Zählerstand erfassen: <name>"
 * when the user may record (what its button says), else "Zähler bearbeiten". The reading is checked before it is
 * written (src/shared/domain/counter.ts): lower than the last one asks "Zähler getauscht?" (yes starts a new
 * series), an hour counter faster than the clock asks to check it. Everything is a local write, sent later.
 * A typed reading is kept on the device per user and counter until it is saved or cancelled, so the dialog closed
 * by a stray tap, Escape or a reload opens again with it (stores/kept-drafts.ts).
 */
import { Button, Field, HStack, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isHourCounter, type ReadingCheck } from '../../../shared/domain/counter';
import { AppDialog } from '../../components/app-dialog';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { FormError } from '../../components/form-actions';
import { formatDate, formatDateTime } from '../../lib/dates';
import { currentLanguage } from '../../lib/i18n';
import { dropKeptDraft, hasTextFields, readKeptDraft, useKeepDraft } from '../../stores/kept-drafts';
import { useSessionStore } from '../../stores/session-store';
import type { CounterDetail } from '../../sync/machine-counters';
import { addCounterReading, deleteCounter } from '../../sync/repositories/counters';
import { useLocalWrite } from '../../sync/use-local-write';
import { useWriteContext } from '../../sync/use-write-context';
import { readingCheckFor, readingFeedback } from './counter-modal-model';
import { CounterReadingField, ReadingWarning } from './counter-reading-field';
import { formatReading } from './format-reading';

const DRAFT_KIND = 'counter-reading-draft';

const isReadingDraft = (value: unknown): value is { reading: string } => hasTextFields(value, ['reading']);

export interface CounterEditDialogProps {
  counter: CounterDetail;
  canRecord: boolean;
  canDelete: boolean;
  onClose(): void;
}

export function CounterReadingDialog({ counter, canRecord, canDelete, onClose }: CounterEditDialogProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const context = useWriteContext();
  const usernodeid = useSessionStore((state) => state.session?.usernodeid) ?? '';
  const [restored] = useState(() => (usernodeid && canRecord ? readKeptDraft(DRAFT_KIND, usernodeid, counter.nodeid, isReadingDraft) : null));
  const [input, setInput] = useState(restored?.value.reading ?? '');
  useKeepDraft(DRAFT_KIND, usernodeid, counter.nodeid, useMemo(() => (input.trim() === '' ? null : { reading: input }), [input]), restored !== null);
  const discard = () => {
    if (usernodeid) dropKeptDraft(DRAFT_KIND, usernodeid, counter.nodeid);
    onClose();
  };
  const [warning, setWarning] = useState<Exclude<ReadingCheck, { kind: 'ok' }> | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { busy: saving, error, run } = useLocalWrite(t('counterModal.failed'));
  const removing = useLocalWrite(t('counterModal.deleteFailed'));
  const unit = counter.type?.unit?.symbol ?? null;
  const hour = isHourCounter(counter.type ? { ...counter.type.unit, builtin: counter.type.builtin } : null);
  const { value } = readingFeedback(input);
  const deletable = canDelete && counter.type?.builtin !== true;
  const busy = saving || removing.busy;

  const save = async (confirmed: boolean) => {
    if (!context || value === undefined || busy) return;
    const now = (context.now ?? Date.now)();
    const check = readingCheckFor(value, now, counter.latest, hour);
    if (check.kind !== 'ok' && !confirmed) {
      setWarning(check);
      return;
    }
    if (await run(() => addCounterReading(context, { counternodeid: counter.nodeid, value, takenat: now }))) discard();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(false);
  };
  const change = (next: string) => {
    setInput(next);
    setWarning(null);
  };

  return (
    <>
      <AppDialog
        open={!confirmDelete}
        onClose={() => !busy && onClose()}
        onSubmit={submit}
        size="lg"
        testId="counter-edit-dialog"
        // Opened to record a reading, it says so with the counter, as the button that opened it; "Zähler bearbeiten"
        // only where the dialog edits without recording (delete only).
        title={canRecord ? t('counterModal.recordTitle', { name: counter.name }) : t('counterModal.editTitle')}
        footerLayout="wrap"
        footer={
          <HStack w="full" justify="space-between" gap="3" wrap="wrap-reverse">
            {deletable ? (
              <Button variant="outline" colorPalette="red" onClick={() => setConfirmDelete(true)} disabled={busy || !context} data-testid="counter-delete">
                <Trash2 aria-hidden />
                {t('counterModal.delete')}
              </Button>
            ) : (
              <span />
            )}
            <HStack gap="3">
              <Button variant="ghost" onClick={discard} disabled={busy}>
                {t('counterModal.cancel')}
              </Button>
              {canRecord && (
                <Button type="submit" colorPalette="brand" disabled={value === undefined || busy || !context || warning !== null} loading={saving} data-testid="counter-save">
                  {t('counterModal.save')}
                </Button>
              )}
            </HStack>
          </HStack>
        }
      >
        <Stack gap="4">
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <Field.Root disabled>
              <Field.Label>{t('counterModal.type')}</Field.Label>
              <Input readOnly value={counter.type ? `${counter.type.name}${unit ? ` (${unit})` : ''}` : '—'} data-testid="counter-type-locked" />
            </Field.Root>
            <Field.Root disabled>
              <Field.Label>{t('counterModal.name')}</Field.Label>
              <Input readOnly value={counter.name} data-testid="counter-name-locked" />
            </Field.Root>
          </SimpleGrid>
          <Text color="fg.muted" textStyle="sm">
            {t('counterModal.locked')}
          </Text>
          <Text data-testid="counter-previous">
            {counter.latest ? t('counterModal.previous', { value: formatReading(counter.latest.value, language, unit), date: formatDate(counter.latest.takenat) }) : t('counterModal.noPrevious')}
          </Text>
          {restored && (
            <Text textStyle="sm" color="fg.muted" data-testid="counter-draft-restored">
              {t('notificationForm.draftRestored', { date: formatDateTime(restored.savedAt) })}
            </Text>
          )}
          {canRecord && <CounterReadingField label={t('counterModal.reading')} value={input} onChange={change} unit={unit} required disabled={busy} />}
          {warning && value !== undefined && <ReadingWarning check={warning} value={value} unit={unit} busy={saving} onConfirm={() => void save(true)} onCorrect={() => setWarning(null)} />}
          <FormError error={error ?? removing.error} size="sm" />
        </Stack>
      </AppDialog>
      <ConfirmDeleteDialog
        open={confirmDelete}
        title={t('counterModal.deleteTitle')}
        text={t('counterModal.deleteText', { name: counter.name })}
        cancelLabel={t('counterModal.cancel')}
        confirmLabel={t('counterModal.delete')}
        confirmTestId="counter-delete-confirm"
        busy={removing.busy}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          if (!context) return;
          void removing.run(() => deleteCounter(context, counter.nodeid)).then((done) => (done ? discard() : setConfirmDelete(false)));
        }}
      />
    </>
  );
}
