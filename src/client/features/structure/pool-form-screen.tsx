/**
 * /create-machine-pool, /create-equipment-pool, /edit-machine-pool, /edit-pool (spec part 2 §2.4): `?nodeid=`
 * present means edit. Pool name (required), the assigned machines (count, selection dialog, cards), delete in
 * edit mode (with a confirmation). Submit 'Equipment Pool anlegen' / 'Änderungen speichern', disabled while the
 * name is empty or busy (§5). Saved through the outbox (works offline); afterwards /machines. What was entered is
 * kept on the device until saved or cancelled (group-form-draft.ts).
 */
import { Button, Card, Field, Heading, Input, Skeleton, Stack, Text } from '@chakra-ui/react';
import { ArrowLeft } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { liveTextError } from '../../lib/input-errors';
import { createPoolSchema } from '../../../shared/api/equipmentpools';
import { nameTaken } from '../../../shared/domain/text';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { NotFoundNotice } from '../../components/not-found-notice';
import { FormError, FormFooter } from '../../components/form-actions';
import { formatDateTime } from '../../lib/dates';
import { currentLanguage } from '../../lib/i18n';
import { useMayRun, usePermission } from '../../lib/use-permission';
import { createPool as createPoolAction, updatePool as updatePoolAction } from '../../../shared/mutations/structure';
import { useKeptForm } from '../../stores/kept-form';
import { useSessionStore } from '../../stores/session-store';
import { createPool, deletePool, updatePool } from '../../sync/repositories/pools';
import { useStructureData, type StructureData } from '../../sync/use-structure-data';
import { useLocalWrite } from '../../sync/use-local-write';
import { useWriteContext } from '../../sync/use-write-context';
import { AssignedEquipment } from './assigned-equipment';
import { knownMachines, membersOf, selectionChanges, type SelectableEquipment } from './equipment-selection';
import { emptyGroupForm, GROUP_FORM_MODEL, groupDraftKey, POOL_DRAFT_KIND, type GroupFormValues } from './group-form-draft';
import { recordIdFrom } from './navigation-state';
import { fellowNames, poolViews, selectableEquipment, type PoolView } from './structure-view';

const EMPTY_POOL = emptyGroupForm();

export function PoolFormScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const nodeid = recordIdFrom(location.state, params);
  const data = useStructureData();
  const language = currentLanguage();
  const pool = nodeid !== null && data ? poolViews(data, language).find((candidate) => candidate.nodeid === nodeid) : undefined;
  const equipment = useMemo(() => (data ? selectableEquipment(data, language) : []), [data, language]);

  if (!data || (nodeid !== null && !pool)) {
    return (
      <Stack p={{ base: '4', md: '6', lg: '8' }} maxW="5xl" gap="4">
        {data?.synced && nodeid !== null ? <NotFoundNotice text={t('pools.notFound')} back="/machines" /> : <Skeleton h="80" borderRadius="l3" />}
      </Stack>
    );
  }
  return <PoolForm key={groupDraftKey(nodeid)} pool={pool} data={data} equipment={equipment} />;
}

/** `data`, `equipment`: the screen's live structure reads, passed down (a second live query would read every machine again). */
function PoolForm({ pool, data, equipment }: { pool: PoolView | undefined; data: StructureData; equipment: SelectableEquipment[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isEdit = pool !== undefined;
  const context = useWriteContext();
  const legalentitynodeid = useSessionStore((state) => state.session?.legalentitynodeid ?? '');
  const canDelete = usePermission('equipmentpool', 'delete');
  // The server refuses a save without it; the form says so instead of queuing a change that will be refused.
  const canWrite = useMayRun(isEdit ? updatePoolAction : createPoolAction);
  const language = currentLanguage();

  // The form is filled once, from the pool as the mirror has it when it opens: later pulls do not overwrite what the
  // user is entering (the save sends only what changed against it).
  const fill = (): GroupFormValues | null => (pool ? { ...EMPTY_POOL, name: pool.name, selected: membersOf(equipment, 'pool', pool.nodeid) } : null);
  const kept = useKeptForm(POOL_DRAFT_KIND, groupDraftKey(pool?.nodeid ?? null), GROUP_FORM_MODEL, EMPTY_POOL, fill);
  const { values, setField, initial, dropDraft } = kept;
  const { name } = values;
  // A machine deleted since a kept draft was made is no longer offered, nor moved.
  const selected = useMemo(() => knownMachines(values.selected, equipment), [values.selected, equipment]);
  const initialMembers = useMemo(() => knownMachines(initial?.selected ?? [], equipment), [initial, equipment]);
  // The name as the form was filled: only a name the user changed is sent (another tab's rename survives).
  const filledName = initial?.name ?? '';
  const [nameTouched, setNameTouched] = useState(false);
  const { busy, error, run } = useLocalWrite(t('sites.form.saveFailed'));
  const [confirmOpen, setConfirmOpen] = useState(false);

  // A name too long says so at the field while typing (the save would be refused on the device otherwise); so does
  // the name of another pool (the two could not be told apart), unless an edit keeps the name it was filled with.
  const taken = nameTaken(name, fellowNames(data, language, { kind: 'pool', nodeid: pool?.nodeid ?? null }), isEdit ? filledName : null);
  const nameError = liveTextError(createPoolSchema.shape.name, name, t) ?? (taken ? t('pools.nameTaken') : undefined);
  const canSubmit = Boolean(context) && canWrite && name.trim().length > 0 && nameError === undefined && !busy;
  const save = async () => {
    if (!context || !canSubmit) return;
    const selection = { ...selectionChanges(initialMembers, selected), machines: new Map(data.equipment.map((row) => [row.nodeid, row])) };
    const done = await run(() => (isEdit && pool ? updatePool(context, { nodeid: pool.nodeid, name: filledName }, { name, selection }) : createPool(context, { legalentitynodeid, name, selection })));
    if (!done) return;
    dropDraft();
    navigate('/machines');
  };

  const remove = async () => {
    if (!context || !pool) return;
    if (await run(() => deletePool(context, pool.nodeid))) {
      dropDraft();
      navigate('/machines');
    } else setConfirmOpen(false);
  };

  return (
    <Stack gap="5" p={{ base: '4', md: '6', lg: '8' }} maxW="5xl">
      <Button asChild variant="ghost" alignSelf="start">
        <RouterLink to="/machines">
          <ArrowLeft aria-hidden />
          {t('sites.back')}
        </RouterLink>
      </Button>
      <Heading as="h2" size="xl">
        {isEdit ? t('pools.editTitle') : t('pools.createTitle')}
      </Heading>
      <Card.Root variant="outline" bg="bg.panel" as="form" onSubmit={(event: React.FormEvent) => { event.preventDefault(); void save(); }}>
        <Card.Body gap="6">
          {kept.restoredAt !== null && (
            <Text textStyle="sm" color="fg.muted" data-testid="pool-draft-restored">
              {t('notificationForm.draftRestored', { date: formatDateTime(kept.restoredAt) })}
            </Text>
          )}
          <Field.Root required invalid={(nameTouched && name.trim().length === 0) || nameError !== undefined} disabled={busy}>
            <Field.Label>
              {t('pools.name')}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input value={name} onChange={(event) => setField('name', event.target.value)} onBlur={() => setNameTouched(true)} data-testid="pool-name-input" />
            <Field.ErrorText data-testid="pool-name-error">{nameError ?? t('pools.nameRequired')}</Field.ErrorText>
          </Field.Root>
          <AssignedEquipment equipment={equipment} selected={selected} targetName={name.trim() || t('pools.newPool')} onChange={(machines) => setField('selected', machines)} disabled={busy || !canWrite} />
          {!canWrite && <FormError error={t('pools.notAllowed')} />}
          <FormError error={error} />
        </Card.Body>
        <FormFooter
          deleteLabel={isEdit && canDelete ? t('pools.delete') : undefined}
          onDelete={() => setConfirmOpen(true)}
          submitLabel={isEdit ? t('pools.submitEdit') : t('pools.submitCreate')}
          cancelTo="/machines"
          onCancel={dropDraft}
          canSubmit={canSubmit}
          busy={busy}
          deleteTestId="pool-delete"
          submitTestId="pool-submit"
        />
      </Card.Root>
      <ConfirmDeleteDialog
        open={confirmOpen}
        title={t('pools.deleteTitle')}
        text={t('pools.deleteText', { name: pool?.name ?? '' })}
        onCancel={() => setConfirmOpen(false)}
        onConfirm={() => void remove()}
        busy={busy}
      />
    </Stack>
  );
}
