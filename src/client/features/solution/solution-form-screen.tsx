/**
 * /create-workflow-step and /edit-workflow-step (spec part 1 §2.3 solution part; §4.3, §5, §6). Opened from a
 * notification's measures list with navigation state and the same ids in the query (a reload keeps the form,
 * src/client/lib/solution-navigation.ts). Title, description (5 lines), files (images, videos, documents incl.
 * Pages/Numbers/Keynote; file or camera); save writes the solution and, after it, each new file with its bytes into
 * the outbox in one transaction, so it never waits for the network; delete (notification.workflow delete) in edit
 * mode asks first. Back and after save or delete: the notification's details. What was typed is kept on the device
 * until it is saved or cancelled (stores/kept-drafts.ts), so a reload or a killed tab loses nothing.
 */
import { Card, Field, Flex, Heading, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { Paperclip } from 'lucide-react';
import { useEffect, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { attachFile } from '../../../shared/mutations/files';
import { createWorkflow, deleteWorkflow, updateWorkflow } from '../../../shared/mutations/workflows';
import { BackLink } from '../../components/back-link';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { FormError, FormFooter } from '../../components/form-actions';
import { MissingRecord } from '../../components/missing-record';
import { RecordFormFrame as Frame, RecordFormPending, RecordFormPicker, useRecordForm } from '../../components/record-form';
import { formatDateTime } from '../../lib/dates';
import { holdPageOpen } from '../../lib/hold-page-open';
import { resolveSolutionForm, solutionReturnPath, solutionReturnState, type SolutionFormTarget } from '../../lib/solution-navigation';
import { useMayRun } from '../../lib/use-permission';
import { useKeptTextForm } from '../../stores/kept-text-form';
import { useNotificationTitle, useSolution, type SolutionItem } from '../../sync/notification-solutions';
import { addSolution, changeSolution, removeSolution } from '../../sync/repositories/workflows';
import { useWriteContext } from '../../sync/use-write-context';
import { canSaveSolution, SOLUTION_DRAFT_KIND, SOLUTION_FIELDS, solutionDraftKey } from './solution-form-model';

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
  const back = <BackLink to={solutionReturnPath(target.notificationnodeid)} state={solutionReturnState(target)} label={t('solution.form.back')} />;
  if (target.mode === 'add') return <SolutionForm target={target} solution={null} back={back} />;
  if (solution.status !== 'ready') return <RecordFormPending area="solution" status={solution.status} back={back} missingTestId="solution-not-found" />;
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
  // The solution as the form was filled from it, not the live row: a sync while the form is open may bring another
  // device's edit, and a save sends only what differs from what this form showed (else it would undo that edit).
  // What was typed and not saved comes back after a reload or a killed tab (stores/kept-text-form.ts).
  const kept = useKeptTextForm(SOLUTION_DRAFT_KIND, solutionDraftKey(target), SOLUTION_FIELDS, solution ? { title: solution.title ?? '', description: solution.description ?? '' } : null);
  const { values, setValues, initial, dropDraft } = kept;
  // Back with the details' origin (lib/notification-origin.ts): their back link still leads where it did.
  const form = useRecordForm('solution', () => {
    dropDraft();
    navigate(solutionReturnPath(target.notificationnodeid), { replace: true, state: solutionReturnState(target) });
  });
  // Chosen files are not kept with the text: while some are chosen, reloading or closing the tab asks first.
  const holdingFiles = form.files.length > 0;
  useEffect(() => (holdingFiles ? holdPageOpen() : undefined), [holdingFiles]);
  const { fieldErrors, clearFieldErrors } = form;
  // why: a workflow without a step (none this app makes) has nothing its files could hang on.
  const attachable = canAttach && (!solution || solution.stepnodeid !== null);

  useEffect(() => clearFieldErrors(), [values, clearFieldErrors]);

  const canSave = Boolean(context) && canWrite && canSaveSolution(values, { saving: form.saving, initial, newFiles: form.files.length, existingFiles: solution?.attachments.length ?? 0 });

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!context || !canSave) return;
    void form.save((uploads) =>
      solution && initial ? changeSolution(context, solution, initial, values, uploads) : addSolution(context, { ...values, notificationnodeid: target.notificationnodeid, files: uploads }),
    );
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
            {kept.restoredAt !== null && (
              <Text textStyle="sm" color="fg.muted" data-testid="solution-draft-restored">
                {t('notificationForm.draftRestored', { date: formatDateTime(kept.restoredAt) })}
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
                {attachable && <RecordFormPicker area="solution" form={form} />}
              </Stack>
            )}
            {!canWrite && <FormError error={t('solution.form.notAllowed')} />}
            <FormError error={form.error} />
          </Card.Body>
          <FormFooter
            {...(solution && canDelete ? { deleteLabel: t('solution.form.delete') } : {})}
            onDelete={form.askDelete}
            submitLabel={form.saving ? t('solution.form.saving') : t('solution.form.save')}
            cancelTo={solutionReturnPath(target.notificationnodeid)}
            cancelState={solutionReturnState(target)}
            onCancel={dropDraft}
            canSubmit={canSave}
            busy={form.saving}
            deleteTestId="solution-form-delete"
            submitTestId="solution-form-save"
          />
        </form>
      </Card.Root>
      {solution && (
        <ConfirmDeleteDialog
          open={form.confirming}
          title={t('solution.delete.title')}
          text={t('solution.delete.text', { title: solution.title ?? t('solution.list.untitled') })}
          cancelLabel={t('solution.delete.cancel')}
          confirmLabel={t('solution.delete.confirm')}
          onCancel={form.cancelDelete}
          onConfirm={() => context && void form.remove(() => removeSolution(context, solution.nodeid))}
          confirmTestId="solution-confirm-delete"
        />
      )}
    </Frame>
  );
}
