/**
 * /create-notification and /edit-notification (spec part 1 §2.2, §3, §4.1, §4.3, §5, §9; issue #13). Type, title,
 * description, error code, machine (searchable list from the mirror, or preset by the machine overview or the
 * board), date and time of the report (5-minute step), due date, photos/videos/documents (camera or file).
 * Save writes the notification and after it each file into the outbox in one transaction, so it never waits for the
 * network, then opens the notification. Beside the form (below the title in portrait) "what the machine already
 * knows": FAQs and earlier solutions matching the typed title, from the mirror; opening one keeps the draft
 * (stores/notification-draft-store.ts) and restores it on return.
 */
import { Alert, Badge, Box, Button, Card, chakra, Field, Flex, Grid, Heading, HStack, Input, NativeSelect, Skeleton, Stack, Text, Textarea, useBreakpointValue } from '@chakra-ui/react';
import { BookOpen, Paperclip, Wrench } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { isUsableNotificationType, REPORTABLE_NOTIFICATION_TYPES, type NotificationType } from '../../../shared/domain/notification';
import { rankSuggestions, type RankedSuggestion } from '../../../shared/domain/suggestions';
import { attachFile } from '../../../shared/mutations/files';
import { createNotification, updateNotification } from '../../../shared/mutations/notifications';
import { AttachmentPicker } from '../../components/attachment-picker';
import { EquipmentPicker } from '../../components/equipment-picker';
import { BackLink } from '../../components/back-link';
import { ChangedElsewhereAlert } from '../../components/changed-elsewhere-alert';
import { FormError } from '../../components/form-actions';
import { MissingRecord } from '../../components/missing-record';
import { TimeField } from '../../components/time-field';
import { SubmissionStop, useSubmission } from '../../components/use-submission';
import { keyedFiles, sortPickedFiles, uploadOfFile, type RejectedFile } from '../../lib/attachment-files';
import { changedElsewhere } from '../../lib/changed-elsewhere';
import { formatDateTime } from '../../lib/dates';
import { holdPageOpen } from '../../lib/hold-page-open';
import { currentLanguage } from '../../lib/i18n';
import { useMayRun } from '../../lib/use-permission';
import { useAttachments } from '../../sync/machine-mirror';
import { useEditableNotification, type EditableNotification } from '../../sync/notification-form-mirror';
import { useSuggestionCandidates } from '../../sync/notification-suggestions';
import type { PhotoInput } from '../../sync/repositories/attachments';
import { createNotificationWithFiles, editNotification } from '../../sync/repositories/notifications';
import { useWriteContext } from '../../sync/use-write-context';
import {
  dropStoredNotificationDraft,
  notificationDraftStore,
  readStoredNotificationDraft,
  storeNotificationDraft,
  takeNotificationDraft,
  takeNotificationDraftBase,
  type NotificationDraftValues,
  type StoredNotificationDraft,
} from '../../stores/notification-draft-store';
import { sessionStore, useSessionStore } from '../../stores/session-store';
import {
  dateTimeOf,
  draftKey,
  dueUntilOf,
  fieldsOfTime,
  notificationFormReturnPath,
  notificationFormReturnState,
  savedNotificationState,
  nowFields,
  resolveNotificationForm,
  snapTime,
  validateNotificationForm,
  type NotificationFormErrors,
  type NotificationFormTarget,
} from './notification-form-model';

/** How long the title must rest before the suggestions are ranked again. */
const SUGGESTION_DEBOUNCE_MS = 200;
function Frame({ children }: { children: ReactNode }) {
  return (
    <Stack gap="4" p={{ base: '4', md: '6' }} maxW="7xl">
      {children}
    </Stack>
  );
}

export function NotificationFormScreen() {
  const location = useLocation();
  const { t } = useTranslation();
  const target = resolveNotificationForm(location.pathname, location.search, location.state);
  if (!target) {
    return (
      <Frame>
        <BackLink to="/dashboard" label={t('notificationForm.toDashboard')} />
        <MissingRecord title={t('notificationForm.invalidState')} text={t('notificationForm.invalidStateText')} testId="notification-form-invalid" />
      </Frame>
    );
  }
  return <NotificationFormLoader key={draftKey(target)} target={target} />;
}

function NotificationFormLoader({ target }: { target: NotificationFormTarget }) {
  const { t } = useTranslation();
  const notification = useEditableNotification(target.notificationnodeid);
  const back = <BackLink to={notificationFormReturnPath(target, target.equipmentnodeid)} state={notificationFormReturnState(target)} label={t('notificationForm.back')} />;
  if (target.mode === 'add') return <NotificationForm target={target} notification={null} />;
  if (notification.status === 'loading') {
    return (
      <Frame>
        {back}
        <Skeleton h="80" borderRadius="l3" aria-label={t('notificationForm.loading')} />
      </Frame>
    );
  }
  if (notification.status === 'missing') {
    return (
      <Frame>
        {back}
        <MissingRecord title={t('notificationForm.notFound')} text={t('notificationForm.notFoundText')} testId="notification-form-not-found" />
      </Frame>
    );
  }
  return <NotificationForm target={target} notification={notification.value} />;
}

function initialValues(target: NotificationFormTarget, notification: EditableNotification | null): NotificationDraftValues {
  if (notification) {
    const at = notification.created ? fieldsOfTime(notification.created) : { date: '', time: '' };
    return {
      type: notification.type,
      title: notification.title,
      description: notification.description ?? '',
      errorcode: notification.errorcode ?? '',
      equipmentnodeid: notification.equipmentnodeid,
      ...at,
      dueDate: notification.dueuntil ? fieldsOfTime(notification.dueuntil).date : '',
      files: [],
    };
  }
  const now = nowFields(new Date());
  return {
    type: null,
    title: '',
    description: '',
    errorcode: '',
    equipmentnodeid: target.equipmentnodeid,
    date: target.date ?? now.date,
    time: target.time ? snapTime(target.time) : now.time,
    dueDate: '',
    files: [],
  };
}

/** The fields a change from elsewhere is said for (lib/changed-elsewhere.ts). */
const CHANGEABLE = ['type', 'title', 'description', 'errorcode', 'equipmentnodeid', 'dueDate'] as const;

/** Whether two drafts hold the same text and choices (files aside). */
function sameText(a: NotificationDraftValues, b: NotificationDraftValues): boolean {
  return (['type', 'title', 'description', 'errorcode', 'equipmentnodeid', 'date', 'time', 'dueDate'] as const).every((field) => a[field] === b[field]);
}

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function NotificationForm({ target, notification }: { target: NotificationFormTarget; notification: EditableNotification | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const context = useWriteContext();
  const language = currentLanguage();
  const canAttach = useMayRun(attachFile);
  const canSubmit = useMayRun(notification ? updateNotification : createNotification);
  const key = draftKey(target);
  // A new report's fresh values are fixed when the form opens: its date and time are "now" then. Made again on a
  // later render (a language switch), an untouched form would differ from them and be kept as a draft (review).
  const [fresh] = useState(() => initialValues(target, null));
  const initial = useMemo(() => (notification ? initialValues(target, notification) : fresh), [target, notification, fresh]);
  const usernodeid = useSessionStore((state) => state.session?.usernodeid) ?? '';
  // A draft parked in memory (a suggestion opened) first; else one kept on the device (a reload, a killed tab, the
  // menu tapped): the form says it took that back and offers to throw it away.
  const [restored, setRestored] = useState<StoredNotificationDraft | null>(() => (takeNotificationDraft(key, usernodeid) || !usernodeid ? null : readStoredNotificationDraft(key, usernodeid)));
  const [values, setValues] = useState<NotificationDraftValues>(() => takeNotificationDraft(key, usernodeid) ?? (restored ? { ...restored.values, files: [] } : initial));
  // The notification as the form was filled from it (a taken-back draft's own): a save sends what the user changed
  // against it. `notification` is the live mirror row — a sync while the form is open brings another device's edit
  // into it, and comparing with that would send this form's stale copy of the field back and undo the edit.
  const [filledFrom, setFilledFrom] = useState<EditableNotification | null>(() => (takeNotificationDraft(key, usernodeid) ? takeNotificationDraftBase(key, usernodeid) : restored?.filledFrom) ?? notification);
  const [touched, setTouched] = useState(false);
  const { saving, error, fieldErrors, clearFieldErrors, submit: run } = useSubmission();
  const [rejected, setRejected] = useState<RejectedFile[]>([]);
  const wide = useBreakpointValue({ base: false, lg: true }) ?? false;

  // Every change is kept, so opening a suggestion and coming back finds the form as it was left; on the device too,
  // as long as it differs from the fresh form (a form opened and left untouched leaves no draft behind).
  // Compared with what the form was filled from, not the live row: a sync bringing another device's change into
  // the mirror is no input of this user's (compared with it, an untouched form was kept as a stale draft).
  const untouched = values.files.length === 0 && sameText(values, notification && filledFrom ? initialValues(target, filledFrom) : initial);
  // A draft just taken back is kept as it is (rewritten on opening, its date would move and it would never age).
  const takenBack = useRef(restored ? values : null);
  useEffect(() => {
    if (!usernodeid) return;
    if (values === takenBack.current) return;
    notificationDraftStore.getState().keep(key, usernodeid, values, filledFrom);
    if (untouched) dropStoredNotificationDraft(key, usernodeid);
    else storeNotificationDraft(key, usernodeid, values, filledFrom);
  }, [key, usernodeid, values, filledFrom, untouched]);
  // Chosen photos cannot be kept on the device with the text: while there are some, leaving the page asks first.
  const holdingFiles = values.files.length > 0;
  useEffect(() => (holdingFiles ? holdPageOpen() : undefined), [holdingFiles]);
  // The session ending (a refresh refused: the login screen takes over and comes back here) must not throw away
  // what the technician typed: the draft is parked, and this form takes it back after the same user signed in.
  useEffect(
    () =>
      sessionStore.subscribe((state, previous) => {
        if (previous.session && !state.session && state.endReason !== 'logout') notificationDraftStore.getState().park();
      }),
    [],
  );
  useEffect(() => clearFieldErrors(), [values, clearFieldErrors]);

  const set = (change: Partial<NotificationDraftValues>) => setValues((current) => ({ ...current, ...change }));
  const errors = validateNotificationForm(values, !notification);
  const shown: NotificationFormErrors = touched ? errors : {};
  const errorText = (field: keyof NotificationFormErrors) => {
    const server = fieldErrors[field === 'dueDate' ? 'dueuntil' : field];
    if (server) return server;
    const code = shown[field];
    return code ? t(`notificationForm.errors.${code}`) : null;
  };

  const returnPath = notificationFormReturnPath(target, values.equipmentnodeid ?? target.equipmentnodeid);
  // Back to the details with the origin they were opened from: their back link leads there again after the edit.
  const returnState = notificationFormReturnState(target);
  const leave = (path: string, state?: unknown) => {
    notificationDraftStore.getState().clear();
    dropStoredNotificationDraft(key, usernodeid);
    void navigate(path, { replace: true, state });
  };
  // Another device's (or tab's) change that reached the mirror since the form was filled: said per field, with its
  // value to take over. Saving still sends only this form's changes; a field changed here too replaces the other.
  const elsewhere = notification && filledFrom ? changedElsewhere(CHANGEABLE, initialValues(target, filledFrom), initial, values) : [];
  // Thrown away, the draft's base goes with it: the form is filled from the notification as it is now. Kept, the old
  // base made the fresh form look changed (stored as a draft again) and a save sent fields the user never touched.
  const discardRestored = () => {
    dropStoredNotificationDraft(key, usernodeid);
    setRestored(null);
    setFilledFrom(notification);
    setValues(initial);
  };

  const pick = (picked: File[]) => {
    const { accepted, rejected: refused } = sortPickedFiles(picked);
    setRejected(refused);
    set({ files: [...values.files, ...keyedFiles(accepted)] });
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!context || saving || Object.keys(errors).length > 0 || !isUsableNotificationType(values.type) || !values.equipmentnodeid) return;
    const fields = {
      type: values.type,
      title: values.title.trim(),
      description: values.description.trim() || null,
      errorcode: values.errorcode.trim() || null,
      equipmentnodeid: values.equipmentnodeid,
      dueuntil: dueUntilOf(values.dueDate, (filledFrom ?? notification)?.dueuntil, notification?.dueuntil),
    } as const;
    await run(
      async () => {
        let uploads: PhotoInput[];
        try {
          uploads = await Promise.all(values.files.map(({ file }) => uploadOfFile(file)));
        } catch {
          throw new SubmissionStop(t('notificationForm.errors.fileUnreadable'));
        }
        if (notification) {
          const before = filledFrom ?? notification;
          // why the cast: an old row may carry a type the form does not offer; it differs from the chosen one, so it is sent.
          await editNotification(context, notification.nodeid, { ...before, type: before.type as NotificationType }, fields, uploads);
          return notification.nodeid;
        }
        return createNotificationWithFiles(context, { ...fields, created: dateTimeOf(values.date, values.time) ?? Date.now(), files: uploads });
      },
      { failed: t('notificationForm.errors.saveFailed'), done: (nodeid) => leave(`/notification-details?nodeid=${nodeid}`, savedNotificationState(target, values.equipmentnodeid ?? target.equipmentnodeid)) },
    );
  };

  const title = notification ? t('notificationForm.editTitle') : t('notificationForm.addTitle');
  const suggestions = <SuggestionsPanel equipmentnodeid={values.equipmentnodeid} title={values.title} errorcode={values.errorcode} exclude={notification?.nodeid ?? null} />;

  return (
    <Frame>
      <BackLink to={returnPath} state={returnState} label={t('notificationForm.back')} />
      <Grid templateColumns={{ base: '1fr', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }} gap="4" alignItems="start">
        <Card.Root variant="outline" bg="bg.panel" asChild>
          <form onSubmit={save} noValidate aria-label={title} data-testid="notification-form">
            <Card.Header>
              <Heading as="h1" size="xl">
                {title}
              </Heading>
            </Card.Header>
            <Card.Body gap="5">
              {!canSubmit && (
                // Opened by a link or an address without the right to save (a reader): said before anything is typed.
                <Alert.Root status="info" data-testid="notification-form-not-allowed">
                  <Alert.Indicator />
                  <Alert.Title>{t(notification ? 'notificationForm.notAllowedUpdate' : 'notificationForm.notAllowedCreate')}</Alert.Title>
                </Alert.Root>
              )}
              <ChangedElsewhereAlert
                title={t('notificationForm.changedElsewhere')}
                hint={t('notificationForm.changedElsewhereHint')}
                entries={elsewhere.map((field) => ({
                  field,
                  label: t(`notificationForm.${field}`),
                  value:
                    (field === 'type'
                      ? initial.type !== null && t(`notification.type.${initial.type as NotificationType}`)
                      : field === 'equipmentnodeid'
                        ? t('notificationForm.otherMachine')
                        : initial[field]) || '',
                }))}
                takeOverLabel={t('notificationForm.takeOver')}
                onTakeOver={(field) => set({ [field]: initial[field as (typeof CHANGEABLE)[number]] })}
                testId="notification-changed-elsewhere"
                fieldTestId="notification-changed-field"
              />
              {restored && (
                <Alert.Root status="info" data-testid="notification-draft-restored">
                  <Alert.Indicator />
                  <Alert.Content>
                    <Alert.Title>{t('notificationForm.draftRestored', { date: formatDateTime(restored.savedAt) })}</Alert.Title>
                    {restored.files > 0 && <Alert.Description>{t('notificationForm.draftFilesNotKept', { count: restored.files })}</Alert.Description>}
                  </Alert.Content>
                  <Button variant="outline" size="lg" alignSelf="center" onClick={discardRestored} data-testid="notification-draft-discard">
                    {t('notificationForm.draftDiscard')}
                  </Button>
                </Alert.Root>
              )}
              <Field.Root required invalid={errorText('type') !== null}>
                <Field.Label>
                  {t('notificationForm.type')}
                  <Field.RequiredIndicator />
                </Field.Label>
                <NativeSelect.Root size="lg">
                  <NativeSelect.Field value={values.type === null ? '' : String(values.type)} onChange={(event) => set({ type: event.target.value === '' ? null : Number(event.target.value) })} data-testid="notification-type-select">
                    <option value="">{t('notificationForm.choose')}</option>
                    {values.type !== null && !REPORTABLE_NOTIFICATION_TYPES.includes(values.type as never) && <option value={values.type}>{t('notification.type.unknown')}</option>}
                    {REPORTABLE_NOTIFICATION_TYPES.map((value) => (
                      <option key={value} value={value}>
                        {t(`notification.type.${value}`)}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
                <Field.ErrorText>{errorText('type')}</Field.ErrorText>
              </Field.Root>

              <Field.Root required invalid={errorText('title') !== null}>
                <Field.Label>
                  {t('notificationForm.title')}
                  <Field.RequiredIndicator />
                </Field.Label>
                <Input value={values.title} onChange={(event) => set({ title: event.target.value })} autoComplete="off" size="lg" data-testid="notification-title-input" />
                <Field.ErrorText>{errorText('title')}</Field.ErrorText>
              </Field.Root>

              {!wide && suggestions}

              <Field.Root invalid={Boolean(fieldErrors.description)}>
                <Field.Label>{t('notificationForm.description')}</Field.Label>
                <Textarea value={values.description} onChange={(event) => set({ description: event.target.value })} rows={4} size="lg" data-testid="notification-description-input" />
                {fieldErrors.description && <Field.ErrorText>{fieldErrors.description}</Field.ErrorText>}
              </Field.Root>

              <Field.Root invalid={Boolean(fieldErrors.errorcode)}>
                <Field.Label>{t('notificationForm.errorcode')}</Field.Label>
                <Input value={values.errorcode} onChange={(event) => set({ errorcode: event.target.value })} autoComplete="off" size="lg" data-testid="notification-errorcode-input" />
                {fieldErrors.errorcode && <Field.ErrorText>{fieldErrors.errorcode}</Field.ErrorText>}
              </Field.Root>

              <EquipmentPicker value={values.equipmentnodeid} onChange={(equipmentnodeid) => set({ equipmentnodeid })} error={errorText('equipmentnodeid')} language={language} />

              <Grid templateColumns={{ base: '1fr', sm: 'repeat(3, minmax(0, 1fr))' }} gap="4">
                <Field.Root required={!notification} invalid={errorText('date') !== null} disabled={Boolean(notification)}>
                  <Field.Label>{t('notificationForm.date')}</Field.Label>
                  <Input value={values.date} onChange={(event) => set({ date: event.target.value })} placeholder={t('notificationForm.datePlaceholder')} inputMode="numeric" autoComplete="off" maxLength={10} size="lg" data-testid="notification-date-input" />
                  <Field.ErrorText>{errorText('date')}</Field.ErrorText>
                </Field.Root>
                <Field.Root required={!notification} invalid={errorText('time') !== null} disabled={Boolean(notification)}>
                  <Field.Label>{t('notificationForm.time')}</Field.Label>
                  <TimeField value={values.time} onChange={(time) => set({ time: snapTime(time) })} size="lg" data-testid="notification-time-input" />
                  {errorText('time') ? <Field.ErrorText>{errorText('time')}</Field.ErrorText> : <Field.HelperText>{t('notificationForm.timeStep')}</Field.HelperText>}
                </Field.Root>
                <Field.Root invalid={errorText('dueDate') !== null}>
                  <Field.Label>{t('notificationForm.dueDate')}</Field.Label>
                  <Input value={values.dueDate} onChange={(event) => set({ dueDate: event.target.value })} placeholder={t('notificationForm.datePlaceholder')} inputMode="numeric" autoComplete="off" maxLength={10} size="lg" data-testid="notification-due-input" />
                  <Field.ErrorText>{errorText('dueDate')}</Field.ErrorText>
                </Field.Root>
              </Grid>
              {notification && (
                <Text textStyle="sm" color="fg.muted">
                  {t('notificationForm.dateFixed')}
                </Text>
              )}

              {canAttach && (
                <Stack gap="3" as="section" aria-label={t('notificationForm.files')}>
                  <Text fontWeight="medium">{t('notificationForm.files')}</Text>
                  {notification && <ExistingAttachments notificationnodeid={notification.nodeid} />}
                  <AttachmentPicker
                    fileLabel={t('notificationForm.chooseFiles')}
                    cameraLabel={t('notificationForm.camera')}
                    hint={t('notificationForm.filesHint')}
                    fileTestId="notification-file-input"
                    cameraTestId="notification-camera-input"
                    cameraFirst
                    onFiles={pick}
                    files={values.files}
                    onRemove={(removed) => set({ files: values.files.filter((entry) => entry.key !== removed) })}
                    removeLabel={(name) => t('notificationForm.removeFile', { name })}
                    previews={{ alt: (name) => t('notificationForm.preview', { name }), rowTestId: 'notification-chosen-file' }}
                    rejectedLines={rejected.length > 0 ? [t('notificationForm.rejected', { names: rejected.map((file) => file.name).join(', ') })] : []}
                    rejectedTestId="notification-rejected-files"
                  />
                </Stack>
              )}
              <FormError error={error} />
            </Card.Body>
            <Card.Footer justifyContent="flex-end" gap="3" flexWrap="wrap">
              <Button variant="outline" size="lg" onClick={() => leave(returnPath, returnState)} disabled={saving} data-testid="notification-form-cancel">
                {t('notificationForm.cancel')}
              </Button>
              <Button
                type="submit"
                colorPalette="brand"
                size="lg"
                disabled={saving || !context || !canSubmit || (touched && Object.keys(errors).length > 0)}
                loading={saving}
                loadingText={t('notificationForm.saving')}
                data-testid="notification-form-save"
              >
                {t('notificationForm.save')}
              </Button>
            </Card.Footer>
          </form>
        </Card.Root>
        {wide && <Box position="sticky" top="4">{suggestions}</Box>}
      </Grid>
    </Frame>
  );
}

/** In edit mode: the files the notification already has (new ones are added below; removing is on the details screen). */
function ExistingAttachments({ notificationnodeid }: { notificationnodeid: string }) {
  const { t } = useTranslation();
  const attachments = useAttachments(notificationnodeid);
  if (!attachments || attachments.length === 0) return null;
  return (
    <Stack gap="1" data-testid="notification-existing-files">
      <Text textStyle="sm" color="fg.muted">
        {t('notificationForm.existingFiles', { count: attachments.length })}
      </Text>
      {attachments.map((attachment) => (
        <Flex key={attachment.nodeid} align="center" gap="2">
          <Paperclip size={16} aria-hidden />
          <Text flex="1" minW="0" overflowWrap="anywhere">
            {attachment.title}
          </Text>
        </Flex>
      ))}
    </Stack>
  );
}

function suggestionLink(item: RankedSuggestion): string {
  const { candidate } = item;
  if (candidate.kind === 'solution') return `/notification-details?nodeid=${candidate.nodeid}`;
  if (candidate.scope === 'type' && candidate.ownernodeid) return `/equipmenttype-overview?nodeid=${candidate.ownernodeid}&tab=2`;
  return `/machine-overview?nodeid=${candidate.ownernodeid ?? ''}&tab=3`;
}

/** "What the machine already knows": ranked from the mirror on the debounced title and the error code. */
function SuggestionsPanel({ equipmentnodeid, title, errorcode, exclude }: { equipmentnodeid: string | null; title: string; errorcode: string; exclude: string | null }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const candidates = useSuggestionCandidates(equipmentnodeid, language, exclude);
  const query = useDebounced(`${title}\u0000${errorcode}`, SUGGESTION_DEBOUNCE_MS);
  const ranked = useMemo(() => {
    const [typedTitle = '', typedCode = ''] = query.split('\u0000');
    return candidates ? rankSuggestions({ title: typedTitle, errorcode: typedCode }, candidates) : [];
  }, [candidates, query]);
  const typed = title.trim() !== '' || errorcode.trim() !== '';

  return (
    <Card.Root variant="subtle" as="section" aria-labelledby="notification-suggestions-heading" data-testid="notification-suggestions">
      <Card.Header pb="2">
        <Heading as="h2" size="md" id="notification-suggestions-heading">
          {t('notificationForm.suggestions.title')}
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          {t('notificationForm.suggestions.intro')}
        </Text>
      </Card.Header>
      <Card.Body pt="2">
        {!equipmentnodeid && <Text color="fg.muted">{t('notificationForm.suggestions.noEquipment')}</Text>}
        {equipmentnodeid && !typed && <Text color="fg.muted">{t('notificationForm.suggestions.typeTitle')}</Text>}
        {equipmentnodeid && typed && candidates && ranked.length === 0 && <Text color="fg.muted">{t('notificationForm.suggestions.none')}</Text>}
        {ranked.length > 0 && (
          <Stack as="ul" listStyleType="none" m="0" p="0" gap="2" aria-label={t('notificationForm.suggestions.title')}>
            {ranked.map((item) => (
              <Box as="li" key={`${item.candidate.kind}-${item.candidate.nodeid}`}>
                <SuggestionLink item={item} />
              </Box>
            ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function SuggestionLink({ item }: { item: RankedSuggestion }) {
  const { t } = useTranslation();
  const { candidate } = item;
  const isFaq = candidate.kind === 'faq';
  const source = isFaq
    ? candidate.scope === 'type'
      ? t('notificationForm.suggestions.typeFaq', { name: candidate.ownerName ?? '' })
      : t('notificationForm.suggestions.machineFaq')
    : candidate.scope === 'type'
      ? t('notificationForm.suggestions.otherMachine', { name: candidate.ownerName ?? '' })
      : t('notificationForm.suggestions.thisMachine');
  return (
    <chakra.a asChild display="block" p="3" borderRadius="l2" borderWidth="1px" borderColor="border" bg="bg.panel" color="fg" textDecoration="none" _hover={{ bg: 'bg.subtle' }} focusRingColor="brand.solid">
      <RouterLink to={suggestionLink(item)} onClick={() => notificationDraftStore.getState().park()} data-testid="notification-suggestion">
        <Stack gap="1">
          <HStack gap="2" flexWrap="wrap">
            <Badge size="sm" variant="subtle" colorPalette={isFaq ? 'purple' : 'green'}>
              {isFaq ? <BookOpen size={12} aria-hidden /> : <Wrench size={12} aria-hidden />}
              {isFaq ? t('notificationForm.suggestions.faq') : t('notificationForm.suggestions.solution')}
            </Badge>
            {item.reason === 'errorcode' && (
              <Badge size="sm" variant="outline" colorPalette="orange">
                {t('notificationForm.suggestions.sameCode', { code: candidate.errorcode ?? '' })}
              </Badge>
            )}
            <Text textStyle="xs" color="fg.muted">
              {source}
            </Text>
          </HStack>
          <Text fontWeight="semibold" lineClamp={2}>
            {candidate.title}
          </Text>
          {candidate.summary && (
            <Text textStyle="sm" color="fg.muted" lineClamp={2}>
              {isFaq ? candidate.summary : t('notificationForm.suggestions.solvedBy', { solution: candidate.summary })}
            </Text>
          )}
        </Stack>
      </RouterLink>
    </chakra.a>
  );
}
