/**
 * The FAQ accordion of a machine's FAQ tab and of an equipment type's (spec part 1 §2.1 "accordion list with
 * inline edit and delete"): the question opens its answer and files; "Bearbeiten" edits question and answer in
 * place, "Im Formular öffnen" the full form (files), "Löschen" asks first. Every write goes through the outbox, so
 * it works offline and the list shows it at once. §6: edit needs `equipment.faq` update; the delete button is
 * always shown and is disabled without the delete flag (the server refuses it anyway).
 */
import { Accordion, Badge, Box, Button, Card, Field, HStack, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { CircleHelp, ExternalLink, Pencil, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteFaq, updateFaq } from '../../shared/mutations/faqs';
import { useMayRun } from '../lib/use-permission';
import type { FaqItem } from '../sync/faq-mirror';
import { changeFaq, removeFaq } from '../sync/repositories/faqs';
import { isQuotaExceeded, useWriteContext } from '../sync/use-write-context';
import { useSubmission } from './use-submission';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';
import { FaqAttachments } from './faq-attachments';
import { FormError } from './form-actions';
import { NotSyncedBadge } from './not-synced-badge';

export interface FaqListProps {
  items: readonly FaqItem[];
  /** Opens the FAQ form in edit mode (its files). */
  onOpenForm(faq: FaqItem): void;
  /** The badge on FAQs that come from the machine's equipment type ("Vom Typ DMU 50"); none on the type's own screen. */
  typeBadge?: string;
  testId: string;
}

function InlineEdit({ faq, onDone }: { faq: FaqItem; onDone(): void }) {
  const { t } = useTranslation();
  const context = useWriteContext();
  // The FAQ as the edit was opened: a save sends what differs from it, not from the live row, which a sync while
  // this is open may have given another device's edit (compared with that, the stale text here would undo it).
  const [filledFrom] = useState(() => ({ question: faq.question, answer: faq.answer ?? '' }));
  const [question, setQuestion] = useState(filledFrom.question);
  const [answer, setAnswer] = useState(filledFrom.answer);
  const { saving, error, fieldErrors, submit: run } = useSubmission();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!context || saving || question.trim() === '') return;
    await run(() => changeFaq(context, faq.nodeid, filledFrom, { question, answer }), { failed: t('faq.errors.saveFailed'), done: onDone });
  };

  return (
    <Stack asChild gap="3">
      <form onSubmit={submit} noValidate data-testid="faq-inline-edit">
      <Field.Root required invalid={question.trim() === '' || fieldErrors.question !== undefined}>
        <Field.Label>{t('faq.form.question')}</Field.Label>
        <Input value={question} onChange={(event) => setQuestion(event.target.value)} autoComplete="off" size="lg" />
        <Field.ErrorText>{fieldErrors.question ?? t('faq.form.questionRequired')}</Field.ErrorText>
      </Field.Root>
      <Field.Root invalid={fieldErrors.answer !== undefined}>
        <Field.Label>{t('faq.form.answer')}</Field.Label>
        <Textarea value={answer} onChange={(event) => setAnswer(event.target.value)} rows={5} size="lg" />
        {fieldErrors.answer && <Field.ErrorText>{fieldErrors.answer}</Field.ErrorText>}
      </Field.Root>
      <FormError error={error} size="sm" />
      <HStack gap="3" justify="flex-end" wrap="wrap">
        <Button variant="outline" onClick={onDone} disabled={saving}>
          {t('faq.list.cancel')}
        </Button>
        <Button type="submit" colorPalette="brand" loading={saving} disabled={!context || question.trim() === ''} data-testid="faq-inline-save">
          {t('faq.list.save')}
        </Button>
      </HStack>
      </form>
    </Stack>
  );
}

function FaqEntry({ faq, onOpenForm, typeBadge }: { faq: FaqItem; onOpenForm(faq: FaqItem): void; typeBadge: string | undefined }) {
  const { t } = useTranslation();
  const context = useWriteContext();
  const canUpdate = useMayRun(updateFaq);
  const canDelete = useMayRun(deleteFaq);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // The list's delete button is always shown (spec §: equipment.faq); who may not delete learns why on a tap — a
  // tablet shows no hover title, and a disabled button takes no tap to explain itself.
  const [deleteDenied, setDeleteDenied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fromType = typeBadge !== undefined && faq.specifier === 'equipmenttypefaq';

  const confirmDelete = async () => {
    if (!context) return;
    setConfirming(false);
    try {
      await removeFaq(context, faq.nodeid);
    } catch (failure) {
      setError(isQuotaExceeded(failure) ? t('sync.errors.quota') : t('faq.errors.deleteFailed'));
    }
  };

  return (
    <Accordion.Item value={faq.nodeid} data-testid="faq-item" data-faq={faq.nodeid}>
      <Accordion.ItemTrigger minH="14" py="3" cursor="pointer" data-testid="faq-trigger">
        <Stack flex="1" gap="1" align="start" textAlign="start" minW="0">
          <Text fontWeight="semibold" overflowWrap="anywhere" data-testid="faq-question">
            {faq.question}
          </Text>
          {(fromType || faq.pending) && (
            <HStack gap="2" wrap="wrap">
              {fromType && (
                <Badge colorPalette="purple" variant="subtle" data-testid="faq-from-type">
                  {typeBadge}
                </Badge>
              )}
              {faq.pending && <NotSyncedBadge />}
            </HStack>
          )}
        </Stack>
        <Accordion.ItemIndicator />
      </Accordion.ItemTrigger>
      <Accordion.ItemContent>
        <Accordion.ItemBody>
          {editing ? (
            <InlineEdit faq={faq} onDone={() => setEditing(false)} />
          ) : (
            <Stack gap="4">
              <Text whiteSpace="pre-wrap" overflowWrap="anywhere" color={faq.answer ? undefined : 'fg.muted'} data-testid="faq-answer">
                {faq.answer ?? t('faq.list.noAnswer')}
              </Text>
              <FaqAttachments faqnodeid={faq.nodeid} />
              <FormError error={error} size="sm" />
              <HStack gap="3" wrap="wrap">
                {canUpdate && (
                  <Button variant="outline" onClick={() => setEditing(true)} data-testid="faq-edit">
                    <Pencil aria-hidden />
                    {t('faq.list.edit')}
                  </Button>
                )}
                {canUpdate && (
                  <Button variant="ghost" onClick={() => onOpenForm(faq)} data-testid="faq-open-form">
                    <ExternalLink aria-hidden />
                    {t('faq.list.openForm')}
                  </Button>
                )}
                <Button
                  variant="outline"
                  colorPalette="red"
                  onClick={() => (canDelete ? setConfirming(true) : setDeleteDenied(true))}
                  disabled={!context}
                  aria-disabled={canDelete ? undefined : true}
                  opacity={canDelete ? undefined : 0.5}
                  cursor={canDelete ? undefined : 'not-allowed'}
                  title={canDelete ? undefined : t('faq.list.deleteNotAllowed')}
                  data-testid="faq-delete"
                >
                  <Trash2 aria-hidden />
                  {t('faq.list.delete')}
                </Button>
              </HStack>
              {deleteDenied && (
                <Text color="fg.muted" fontSize="sm" role="status" data-testid="faq-delete-not-allowed">
                  {t('faq.list.deleteNotAllowed')}
                </Text>
              )}
            </Stack>
          )}
        </Accordion.ItemBody>
      </Accordion.ItemContent>
      <ConfirmDeleteDialog
        open={confirming}
        title={t('faq.delete.title')}
        text={fromType ? t('faq.delete.typeText', { question: faq.question }) : t('faq.delete.text', { question: faq.question })}
        cancelLabel={t('faq.delete.cancel')}
        confirmLabel={t('faq.delete.confirm')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void confirmDelete()}
        confirmTestId="faq-confirm-delete"
      />
    </Accordion.Item>
  );
}

export function FaqList({ items, onOpenForm, typeBadge, testId }: FaqListProps) {
  return (
    <Accordion.Root multiple collapsible variant="enclosed" data-testid={testId}>
      {items.map((faq) => (
        <FaqEntry key={faq.nodeid} faq={faq} onOpenForm={onOpenForm} typeBadge={typeBadge} />
      ))}
    </Accordion.Root>
  );
}

/** The empty state of a FAQ list (a machine's or an equipment type's): what is missing and, optionally, how to add one. */
export function FaqEmpty({ text, hint }: { text: string; hint?: string }) {
  return (
    <Card.Root variant="outline" bg="bg.panel" data-testid="faq-empty">
      <Card.Body>
        <HStack gap="4" align="start">
          <Box color="fg.muted" flexShrink={0}>
            <CircleHelp size={32} aria-hidden />
          </Box>
          <Stack gap="1">
            <Text fontWeight="semibold">{text}</Text>
            {hint && <Text color="fg.muted">{hint}</Text>}
          </Stack>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
