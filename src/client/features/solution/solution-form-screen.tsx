/**
 * /create-workflow-step and /edit-workflow-step (spec part 1 §2.3 solution part; §4.3, §5, §6). Opened from a
 * notification's measures list with navigation state and the same ids in the query (a reload keeps the form,
 * src/client/lib/solution-navigation.ts). Title, description (5 lines), files (images, videos, documents incl.
 * Pages/Numbers/Keynote; file or camera); save writes the solution and, after it, each new file with its bytes into
 * the outbox in one transaction, so it never waits for the network; delete (notification.workflow delete) in edit
 * mode asks first. Back and after save or delete: the notification's details.
 */
import { Card, Field, Flex, Heading, Input, Skeleton, Stack, Text, Textarea } from '@chakra-ui/react';
import { Paperclip } from 'lucide-react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { attachFile } from '../../../shared/mutations/files';
import { createWorkflow, deleteWorkflow, updateWorkflow } from '../../../shared/mutations/workflows';
import { AttachmentPicker, type PickedEntry } from '../../components/attachment-picker';
import { BackLink } from '../../components/back-link';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { FormError, FormFooter } from '../../components/form-actions';
import { MissingRecord } from '../../components/missing-record';
import { keyedFiles, sortPickedFiles, uploadOfFile, type RejectedFile } from '../../lib/attachment-files';
import { inputErrors } from '../../lib/input-errors';
import { resolveSolutionForm, solutionReturnPath, type SolutionFormTarget } from '../../lib/solution-navigation';
import { useMayRun } from '../../lib/use-permission';
import { useNotificationTitle, useSolution, type SolutionItem } from '../../sync/notification-solutions';
import type { PhotoInput } from '../../sync/repositories/attachments';
import { addSolution, changeSolution, removeSolution } from '../../sync/repositories/workflows';
import { isQuotaExceeded, useWriteContext } from '../../sync/use-write-context';
import { canSaveSolution, type SolutionFormValues } from './solution-form-model';

function Frame({ children }: { children: ReactNode }) {
  return (
    <Stack gap="4" p={{ base: '4', md: '6' }} maxW="4xl">
      {children}
    </Stack>
  );
}

export function SolutionFormScreen() {
  const location = useLocation();
  const { t } = useTranslation();
  const target = resolveSolutionForm(location.pathname, location.state, location.search);
  if (!target) {
    return (
      <Frame>
        <BackLink to="/dashboard" label={t('solution.form.toDashboard')} />
        <MissingRecord title={t('solution.form.invalidState')} text={t('solution.form.invalidStateText')} testId="solution-form-invalid" />
      </Frame>
    );
  }
  return <SolutionFormLoader key={`${target.mode}:${target.workflownodeid ?? target.notificationnodeid}`} target={target} />;
}

function SolutionFormLoader({ target }: { target: SolutionFormTarget }) {
  const { t } = useTranslation();
  const solution = useSolution(target.workflownodeid);
  const back = <BackLink to={solutionReturnPath(target.notificationnodeid)} label={t('solution.form.back')} />;
  if (target.mode === 'add') return <SolutionForm target={target} solution={null} back={back} />;
  if (solution.status === 'loading') {
    return (
      <Frame>
        {back}
        <Skeleton h="80" borderRadius="l3" aria-label={t('solution.form.loading')} />
      </Frame>
    );
  }
  if (solution.status === 'missing') {
    return (
      <Frame>
        {back}
        <MissingRecord title={t('solution.form.notFound')} text={t('solution.form.notFoundText')} testId="solution-not-found" />
      </Frame>
    );
  }
  return <SolutionForm key={solution.value.nodeid} target={target} solution={solution.value} back={back} />;
}

function SolutionForm({ target, solution, back }: { target: SolutionFormTarget; solution: SolutionItem | null; back: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const context = useWriteContext();
  const canAttach = useMayRun(attachFile);
  const canWrite = useMayRun(solution ? updateWorkflow : createWorkflow);
  const canDelete = useMayRun(deleteWorkflow);
  const notificationTitle = useNotificationTitle(target.notificationnodeid);
  const initial: SolutionFormValues | null = solution ? { title: solution.title ?? '', description: solution.description ?? '' } : null;
  const [values, setValues] = useState<SolutionFormValues>(initial ?? { title: '', description: '' });
  const [files, setFiles] = useState<PickedEntry[]>([]);
  const [rejected, setRejected] = useState<RejectedFile[]>([]);
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  // why: a workflow without a step (none this app makes) has nothing its files could hang on.
  const attachable = canAttach && (!solution || solution.stepnodeid !== null);

  useEffect(() => setFieldErrors({}), [values]);

  const pick = (picked: File[]) => {
    const { accepted, rejected: refused } = sortPickedFiles(picked);
    setRejected(refused);
    setFiles((current) => [...current, ...keyedFiles(accepted)]);
  };

  const leave = () => navigate(solutionReturnPath(target.notificationnodeid), { replace: true });
  const canSave = Boolean(context) && canWrite && canSaveSolution(values, { saving, initial, newFiles: files.length, existingFiles: solution?.attachments.length ?? 0 });

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!context || !canSave) return;
    setSaving(true);
    setError(null);
    let uploads: PhotoInput[];
    try {
      uploads = await Promise.all(files.map(({ file }) => uploadOfFile(file)));
    } catch {
      setError(t('solution.errors.fileUnreadable', { name: files.map(({ file }) => file.name).join(', ') }));
      setSaving(false);
      return;
    }
    try {
      if (solution && initial) await changeSolution(context, solution, initial, values, uploads);
      else await addSolution(context, { ...values, notificationnodeid: target.notificationnodeid, files: uploads });
      leave();
    } catch (failure) {
      const refused = inputErrors(failure, t);
      if (refused) setFieldErrors(refused);
      else setError(isQuotaExceeded(failure) ? t('sync.errors.quota') : t('solution.errors.saveFailed'));
      setSaving(false);
    }
  };

  const confirmDelete = async () => {
    if (!context || !solution) return;
    setConfirming(false);
    setSaving(true);
    try {
      await removeSolution(context, solution.nodeid);
      leave();
    } catch (failure) {
      setError(isQuotaExceeded(failure) ? t('sync.errors.quota') : t('solution.errors.deleteFailed'));
      setSaving(false);
    }
  };

  const heading = solution ? t('solution.form.editTitle') : t('solution.form.addTitle');
  return (
    <Frame>
      {back}
      <Card.Root variant="outline" bg="bg.panel" asChild>
        <form onSubmit={save} noValidate aria-label={heading} data-testid="solution-form">
          <Card.Header gap="1">
            <Heading as="h1" size="xl">
              {heading}
            </Heading>
            {notificationTitle && (
              <Text color="fg.muted" data-testid="solution-form-notification">
                {t('solution.form.forNotification', { title: notificationTitle })}
              </Text>
            )}
          </Card.Header>
          <Card.Body gap="5">
            <Field.Root invalid={fieldErrors.title_workflow !== undefined}>
              <Field.Label>{t('solution.form.title')}</Field.Label>
              <Input
                value={values.title}
                onChange={(event) => setValues((current) => ({ ...current, title: event.target.value }))}
                autoComplete="off"
                size="lg"
                data-testid="solution-title-input"
              />
              {fieldErrors.title_workflow && <Field.ErrorText>{fieldErrors.title_workflow}</Field.ErrorText>}
            </Field.Root>
            <Field.Root invalid={fieldErrors.description !== undefined}>
              <Field.Label>{t('solution.form.description')}</Field.Label>
              <Textarea value={values.description} onChange={(event) => setValues((current) => ({ ...current, description: event.target.value }))} rows={5} size="lg" data-testid="solution-description-input" />
              {fieldErrors.description && <Field.ErrorText>{fieldErrors.description}</Field.ErrorText>}
            </Field.Root>

            {(attachable || (solution && solution.attachments.length > 0)) && (
              <Stack gap="3" as="section" aria-label={t('solution.attachments.label')}>
                <Text fontWeight="medium">{t('solution.attachments.label')}</Text>
                {solution && solution.attachments.length > 0 && (
                  <Stack as="ul" gap="1" listStyleType="none" m="0" p="0" data-testid="solution-form-attachments">
                    {solution.attachments.map((item) => (
                      <Flex as="li" key={item.nodeid} align="center" gap="2" minH="11">
                        <Paperclip size={16} aria-hidden />
                        <Text overflowWrap="anywhere">{item.title}</Text>
                      </Flex>
                    ))}
                  </Stack>
                )}
                {attachable && (
                  <AttachmentPicker
                    fileLabel={t('solution.attachments.add')}
                    cameraLabel={t('solution.attachments.camera')}
                    hint={t('solution.attachments.hint')}
                    fileTestId="solution-file-input"
                    cameraTestId="solution-camera-input"
                    onFiles={pick}
                    files={files}
                    onRemove={(removed) => setFiles((current) => current.filter((entry) => entry.key !== removed))}
                    removeLabel={(name) => t('solution.attachments.remove', { name })}
                    filesHeading={t('solution.attachments.newFiles')}
                    filesTestId="solution-new-files"
                    rejectedTitle={t('solution.attachments.rejected')}
                    rejectedLines={rejected.map((file) => t('solution.attachments.rejectedItem', { name: file.name, type: file.type }))}
                    rejectedTestId="solution-rejected-files"
                  />
                )}
              </Stack>
            )}
            {!canWrite && <FormError error={t('solution.form.notAllowed')} />}
            <FormError error={error} />
          </Card.Body>
          <FormFooter
            {...(solution && canDelete ? { deleteLabel: t('solution.form.delete') } : {})}
            onDelete={() => setConfirming(true)}
            submitLabel={saving ? t('solution.form.saving') : t('solution.form.save')}
            canSubmit={canSave}
            busy={saving}
            deleteTestId="solution-form-delete"
            submitTestId="solution-form-save"
          />
        </form>
      </Card.Root>
      {solution && (
        <ConfirmDeleteDialog
          open={confirming}
          title={t('solution.delete.title')}
          text={t('solution.delete.text', { title: solution.title ?? t('solution.list.untitled') })}
          cancelLabel={t('solution.delete.cancel')}
          confirmLabel={t('solution.delete.confirm')}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void confirmDelete()}
          confirmTestId="solution-confirm-delete"
        />
      )}
    </Frame>
  );
}
