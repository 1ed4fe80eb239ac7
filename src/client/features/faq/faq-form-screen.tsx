/**
 * /create-faq and /edit-faq (spec part 1 §2.3, FAQ part; §4.3, §5, §6). Opened from a machine's FAQ tab (origin
 * `faq`) or an equipment type's (origin `faqMB`) with their navigation state (src/client/lib/faq-navigation.ts):
 * add when no FAQ is named, edit otherwise. Question, answer (5 lines), files (images, videos, documents incl.
 * Pages/Numbers/Keynote); save writes the FAQ and, after it, each new file with its bytes into the outbox in one
 * transaction, so it never waits for the network; delete (equipment.faq delete) in edit mode asks first. Back and
 * after save or delete: the screen the form came from.
 */
import { Card, Field, Heading, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { deleteFaq } from '../../../shared/mutations/faqs';
import { attachFile } from '../../../shared/mutations/files';
import { BackLink } from '../../components/back-link';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { FaqAttachments } from '../../components/faq-attachments';
import { FormError, FormFooter } from '../../components/form-actions';
import { MissingRecord } from '../../components/missing-record';
import { RecordFormFrame as Frame, RecordFormPending, RecordFormPicker, useRecordForm } from '../../components/record-form';
import { faqReturnPath, faqReturnState, resolveFaqForm, type FaqFormTarget } from '../../lib/faq-navigation';
import { formatDateTime } from '../../lib/dates';
import { holdPageOpen } from '../../lib/hold-page-open';
import { currentLanguage } from '../../lib/i18n';
import { useMayRun } from '../../lib/use-permission';
import { useKeptTextForm } from '../../stores/kept-text-form';
import { useFaq, useFaqOwnerName, type FaqItem } from '../../sync/faq-mirror';
import { addFaq, changeFaq, removeFaq } from '../../sync/repositories/faqs';
import { useWriteContext } from '../../sync/use-write-context';
import { canSaveFaq, FAQ_DRAFT_KIND, FAQ_FIELDS, faqDraftKey } from './faq-form-model';

export function FaqFormScreen() {
  const location = useLocation();
  const { t } = useTranslation();
  const target = resolveFaqForm(location.state);
  if (!target) {
    return (
      <Frame>
        <BackLink to="/dashboard" label={t('faq.form.toDashboard')} />
        <MissingRecord title={t('faq.form.invalidState')} text={t('faq.form.invalidStateText')} testId="faq-form-invalid" />
      </Frame>
    );
  }
  return <FaqFormLoader target={target} />;
}

function FaqFormLoader({ target }: { target: FaqFormTarget }) {
  const { t } = useTranslation();
  const faq = useFaq(target.faqnodeid);
  const back = <BackLink to={faqReturnPath(target)} state={faqReturnState(target)} label={target.origin === 'faq' ? t('faq.form.backMachine') : t('faq.form.backType')} />;
  if (target.mode === 'add') return <FaqForm target={target} faq={null} back={back} />;
  if (faq.status !== 'ready') return <RecordFormPending area="faq" status={faq.status} back={back} missingTestId="faq-not-found" />;
  return <FaqForm key={faq.value.nodeid} target={target} faq={faq.value} back={back} />;
}

function FaqForm({ target, faq, back }: { target: FaqFormTarget; faq: FaqItem | null; back: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const context = useWriteContext();
  const canAttach = useMayRun(attachFile);
  const canDelete = useMayRun(deleteFaq);
  // The FAQ as the form was filled from it, not the live row: a sync while the form is open may bring another
  // device's edit, and a save sends only what differs from what this form showed (else it would undo that edit).
  // What was typed and not saved comes back after a reload or a killed tab (stores/kept-text-form.ts).
  const kept = useKeptTextForm(FAQ_DRAFT_KIND, faqDraftKey(target), FAQ_FIELDS, faq ? { question: faq.question, answer: faq.answer ?? '' } : null);
  const { values, setValues, initial, dropDraft } = kept;
  const [touched, setTouched] = useState(false);
  const form = useRecordForm('faq', () => {
    dropDraft();
    navigate(faqReturnPath(target), { replace: true, state: faqReturnState(target) });
  });
  // Chosen files are not kept with the text: while some are chosen, reloading or closing the tab asks first.
  const holdingFiles = form.files.length > 0;
  useEffect(() => (holdingFiles ? holdPageOpen() : undefined), [holdingFiles]);
  const { fieldErrors, clearFieldErrors } = form;
  const language = currentLanguage();
  const owner = faq
    ? faq.equipmentnodeid
      ? ({ kind: 'equipment', nodeid: faq.equipmentnodeid } as const)
      : faq.equipmenttypenodeid
        ? ({ kind: 'equipmenttypes', nodeid: faq.equipmenttypenodeid } as const)
        : null
    : { kind: target.specifier === 'internalfaq' ? ('equipment' as const) : ('equipmenttypes' as const), nodeid: target.isfaqof! };
  const ownerName = useFaqOwnerName(owner, language);
  const isTypeFaq = (faq?.specifier ?? target.specifier) === 'equipmenttypefaq';

  useEffect(() => clearFieldErrors(), [values, clearFieldErrors]);

  const questionMissing = touched && values.question.trim() === '';
  const canSave = Boolean(context) && canSaveFaq(values, { saving: form.saving, initial, newFiles: form.files.length });

  const save = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!context || !canSave) return;
    void form.save((uploads) =>
      faq && initial ? changeFaq(context, faq.nodeid, initial, values, uploads) : addFaq(context, { question: values.question, answer: values.answer, specifier: target.specifier, isfaqof: target.isfaqof!, files: uploads }),
    );
  };

  const title = faq ? t('faq.form.editTitle') : t('faq.form.addTitle');
  return (
    <Frame>
      {back}
      <Card.Root variant="outline" bg="bg.panel" asChild>
        <form onSubmit={save} noValidate aria-label={title} data-testid="faq-form">
          <Card.Header gap="1">
            <Heading as="h1" size="xl">
              {title}
            </Heading>
            {ownerName && (
              <Text color="fg.muted" data-testid="faq-form-owner">
                {isTypeFaq && !faq?.equipmentnodeid ? t('faq.form.forType', { name: ownerName }) : t('faq.form.forMachine', { name: ownerName })}
              </Text>
            )}
            {isTypeFaq && (
              <Text textStyle="sm" color="purple.fg">
                {t('faq.form.typeNote')}
              </Text>
            )}
            {kept.restoredAt !== null && (
              <Text textStyle="sm" color="fg.muted" data-testid="faq-draft-restored">
                {t('notificationForm.draftRestored', { date: formatDateTime(kept.restoredAt) })}
              </Text>
            )}
          </Card.Header>
          <Card.Body gap="5">
            <Field.Root required invalid={questionMissing || fieldErrors.question !== undefined}>
              <Field.Label>
                {t('faq.form.question')}
                <Field.RequiredIndicator />
              </Field.Label>
              <Input
                value={values.question}
                onChange={(event) => setValues((current) => ({ ...current, question: event.target.value }))}
                onBlur={() => setTouched(true)}
                autoComplete="off"
                size="lg"
                data-testid="faq-question-input"
              />
              <Field.ErrorText>{fieldErrors.question ?? t('faq.form.questionRequired')}</Field.ErrorText>
            </Field.Root>
            <Field.Root invalid={fieldErrors.answer !== undefined}>
              <Field.Label>{t('faq.form.answer')}</Field.Label>
              <Textarea value={values.answer} onChange={(event) => setValues((current) => ({ ...current, answer: event.target.value }))} rows={5} size="lg" data-testid="faq-answer-input" />
              {fieldErrors.answer && <Field.ErrorText>{fieldErrors.answer}</Field.ErrorText>}
            </Field.Root>

            {(canAttach || faq) && (
              <Stack gap="3" as="section" aria-label={t('faq.attachments.label')}>
                <Text fontWeight="medium">{t('faq.attachments.label')}</Text>
                {faq && <FaqAttachments faqnodeid={faq.nodeid} />}
                {canAttach && <RecordFormPicker area="faq" form={form} />}
              </Stack>
            )}
            <FormError error={form.error} />
          </Card.Body>
          <FormFooter
            {...(faq && canDelete ? { deleteLabel: t('faq.form.delete') } : {})}
            onDelete={form.askDelete}
            submitLabel={form.saving ? t('faq.form.saving') : t('faq.form.save')}
            cancelTo={faqReturnPath(target)}
            cancelState={faqReturnState(target)}
            onCancel={dropDraft}
            canSubmit={canSave}
            busy={form.saving}
            deleteTestId="faq-form-delete"
            submitTestId="faq-form-save"
          />
        </form>
      </Card.Root>
      {faq && (
        <ConfirmDeleteDialog
          open={form.confirming}
          title={t('faq.delete.title')}
          text={isTypeFaq ? t('faq.delete.typeText', { question: faq.question }) : t('faq.delete.text', { question: faq.question })}
          cancelLabel={t('faq.delete.cancel')}
          confirmLabel={t('faq.delete.confirm')}
          onCancel={form.cancelDelete}
          onConfirm={() => context && void form.remove(() => removeFaq(context, faq.nodeid))}
          confirmTestId="faq-confirm-delete"
        />
      )}
    </Frame>
  );
}
