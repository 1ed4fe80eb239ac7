/**
 * What the FAQ and solution forms share around their own fields (spec part 1 §5, §6): the files picked for the
 * record (the rejected ones listed with their type), the save that reads the files' bytes first and then writes
 * the record with them into the outbox, the delete behind a confirmation, and the errors of both
 * (`use-submission.ts`). The texts come from the form's own
 * area of the i18n files (`<area>.errors.*`, `<area>.attachments.*`, `<area>.form.*`), so each form keeps its
 * wording; the test ids start with the area's name.
 */
import { Skeleton, Stack } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { keyedFiles, sortPickedFiles, uploadOfFile, type RejectedFile } from '../lib/attachment-files';
import { AttachmentPicker, type PickedEntry } from './attachment-picker';
import { MissingRecord } from './missing-record';
import { SubmissionStop, useSubmission } from './use-submission';

/** The i18n areas whose forms use this hook; each has `errors.fileUnreadable`, `errors.saveFailed`, `errors.deleteFailed`. */
export type RecordFormArea = 'faq' | 'solution';

export type FileUpload = Awaited<ReturnType<typeof uploadOfFile>>;

export interface RecordForm {
  files: PickedEntry[];
  rejected: RejectedFile[];
  saving: boolean;
  error: string | null;
  fieldErrors: Record<string, string>;
  confirming: boolean;
  pick(picked: File[]): void;
  unpick(key: string): void;
  /** Stable across renders: forms call it when their values change. */
  clearFieldErrors(): void;
  askDelete(): void;
  cancelDelete(): void;
  /** Reads the picked files, then runs `write` with them; `leave` after it succeeded. */
  save(write: (uploads: FileUpload[]) => Promise<unknown>): Promise<void>;
  /** Closes the confirmation and runs `write`; `leave` after it succeeded. */
  remove(write: () => Promise<unknown>): Promise<void>;
}

export function useRecordForm(area: RecordFormArea, leave: () => void): RecordForm {
  const { t } = useTranslation();
  const [files, setFiles] = useState<PickedEntry[]>([]);
  const [rejected, setRejected] = useState<RejectedFile[]>([]);
  const [confirming, setConfirming] = useState(false);
  const { saving, error, fieldErrors, clearFieldErrors, submit } = useSubmission();

  return {
    files,
    rejected,
    saving,
    error,
    fieldErrors,
    confirming,
    pick(picked) {
      const sorted = sortPickedFiles(picked);
      setRejected(sorted.rejected);
      setFiles((current) => [...current, ...keyedFiles(sorted.accepted)]);
    },
    unpick: (key) => setFiles((current) => current.filter((entry) => entry.key !== key)),
    clearFieldErrors,
    askDelete: () => setConfirming(true),
    cancelDelete: () => setConfirming(false),
    save: (write) =>
      submit(
        async () => {
          let uploads: FileUpload[];
          try {
            uploads = await Promise.all(files.map(({ file }) => uploadOfFile(file)));
          } catch {
            throw new SubmissionStop(t(`${area}.errors.fileUnreadable`, { name: files.map(({ file }) => file.name).join(', ') }));
          }
          await write(uploads);
        },
        { failed: t(`${area}.errors.saveFailed`), done: leave },
      ),
    remove(write) {
      setConfirming(false);
      return submit(write, { failed: t(`${area}.errors.deleteFailed`), done: leave });
    },
  };
}

/** The form screen's column. */
export function RecordFormFrame({ children }: { children: ReactNode }) {
  return (
    <Stack gap="4" p={{ base: '4', md: '6' }} maxW="4xl">
      {children}
    </Stack>
  );
}

/** The record of an edit form while it loads, or the message that it is gone (deleted, or never on this device). */
export function RecordFormPending({ area, status, back, missingTestId }: { area: RecordFormArea; status: 'loading' | 'missing'; back: ReactNode; missingTestId: string }) {
  const { t } = useTranslation();
  return (
    <RecordFormFrame>
      {back}
      {status === 'loading' ? <Skeleton h="80" borderRadius="l3" aria-label={t(`${area}.form.loading`)} /> : <MissingRecord title={t(`${area}.form.notFound`)} text={t(`${area}.form.notFoundText`)} testId={missingTestId} />}
    </RecordFormFrame>
  );
}

/** The file and camera buttons with the files picked so far and the skipped ones, in the area's texts. */
export function RecordFormPicker({ area, form }: { area: RecordFormArea; form: RecordForm }) {
  const { t } = useTranslation();
  return (
    <AttachmentPicker
      fileLabel={t(`${area}.attachments.add`)}
      cameraLabel={t(`${area}.attachments.camera`)}
      hint={t(`${area}.attachments.hint`)}
      fileTestId={`${area}-file-input`}
      cameraTestId={`${area}-camera-input`}
      onFiles={form.pick}
      files={form.files}
      onRemove={form.unpick}
      removeLabel={(name) => t(`${area}.attachments.remove`, { name })}
      filesHeading={t(`${area}.attachments.newFiles`)}
      filesTestId={`${area}-new-files`}
      rejectedTitle={t(`${area}.attachments.rejected`)}
      rejectedLines={form.rejected.map((file) => t(`${area}.attachments.rejectedItem`, { name: file.name, type: file.type }))}
      rejectedTestId={`${area}-rejected-files`}
    />
  );
}
