/**
 * /create-area (spec part 2 §2.3): `?nodeid=` present means edit, absent create. Navigation state carries the
 * plant (`sitename`, `sitenodeid`); without it (a reload) the create form asks for the plant. Fields: name, the
 * assigned machines (count, selection dialog, cards), in edit mode the weekly shift editor and delete (with a
 * confirmation). Submit 'Bereich anlegen' / 'Änderungen Speichern', disabled while the name is empty or a shift
 * row has no weekday (§5). Everything is saved through the outbox (works offline); afterwards
 * /sites?sitenodeid={site id}. What was entered is kept on the device until saved or cancelled (group-form-draft.ts).
 */
import { Box, Button, Card, Field, Heading, Input, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react';
import { ArrowLeft } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { liveTextError } from '../../lib/input-errors';
import { createAreaSchema } from '../../../shared/api/areas';
import { hasShiftRowIssues } from '../../../shared/domain/shift';
import { nameTaken } from '../../../shared/domain/text';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { NotFoundNotice } from '../../components/not-found-notice';
import { FormError, FormFooter } from '../../components/form-actions';
import { fromEditorRows, ShiftEditor, toEditorRows } from '../../components/shift-editor';
import { formatDateTime } from '../../lib/dates';
import { currentLanguage } from '../../lib/i18n';
import { useMayRun, usePermission } from '../../lib/use-permission';
import { createArea as createAreaAction, updateArea as updateAreaAction } from '../../../shared/mutations/structure';
import { createArea, deleteArea, updateArea } from '../../sync/repositories/areas';
import { areaShiftModelId, shiftRowsOf } from '../../sync/structure-shifts';
import { useKeptForm } from '../../stores/kept-form';
import { useStructureData, type StructureData } from '../../sync/use-structure-data';
import { useLocalWrite } from '../../sync/use-local-write';
import { useWriteContext } from '../../sync/use-write-context';
import { AssignedEquipment } from './assigned-equipment';
import { knownMachines, membersOf, selectionChanges, type SelectableEquipment } from './equipment-selection';
import { AREA_DRAFT_KIND, emptyGroupForm, GROUP_FORM_MODEL, groupDraftKey, type GroupFormValues } from './group-form-draft';
import { stateText } from './navigation-state';
import { fellowNames, selectableEquipment, siteViews, type AreaView, type SiteView } from './structure-view';

export function AreaFormScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const nodeid = params.get('nodeid');
  const data = useStructureData();
  const language = currentLanguage();
  const sites = useMemo(() => (data ? siteViews(data, language) : []), [data, language]);
  const equipment = useMemo(() => (data ? selectableEquipment(data, language) : []), [data, language]);
  const area = nodeid !== null ? sites.flatMap((site) => site.areas).find((candidate) => candidate.nodeid === nodeid) : undefined;

  if (!data || (nodeid !== null && !area)) {
    return (
      <Stack p={{ base: '4', md: '6', lg: '8' }} maxW="5xl" gap="4">
        {data?.synced && nodeid !== null ? <NotFoundNotice text={t('areas.notFound')} back="/sites" /> : <Skeleton h="80" borderRadius="l3" />}
      </Stack>
    );
  }
  // The plant a new area is added to, from the plant's page; without it (a reload of an old link) the form asks.
  const givenSite = stateText(location.state, 'sitenodeid');
  const addTo = givenSite ?? params.get('sitenodeid') ?? '';
  return <AreaForm key={groupDraftKey(nodeid, addTo)} area={area} addTo={addTo} askSite={area === undefined && givenSite === null} data={data} sites={sites} equipment={equipment} />;
}

interface AreaFormProps {
  /** The area edited, or undefined when adding one. */
  area: AreaView | undefined;
  /** The plant a new area goes to ('' until chosen). */
  addTo: string;
  /** Whether the form shows the plant select (a new area without a plant given). */
  askSite: boolean;
  /** The screen's live structure reads, passed down (a second live query would read every machine again per change). */
  data: StructureData;
  sites: SiteView[];
  equipment: SelectableEquipment[];
}

function AreaForm({ area, addTo, askSite, data, sites, equipment }: AreaFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isEdit = area !== undefined;
  const context = useWriteContext();
  const canDelete = usePermission('site', 'delete');
  // The server refuses a save without it; the form says so instead of queuing a change that will be refused.
  const canWrite = useMayRun(isEdit ? updateAreaAction : createAreaAction);
  const language = currentLanguage();

  // The form is filled once, from the area as the mirror has it when it opens: later pulls do not overwrite what the
  // user is entering (the save sends only what changed against it).
  const fill = (): GroupFormValues | null =>
    area ? { sitenodeid: area.sitenodeid, name: area.name, selected: membersOf(equipment, 'area', area.nodeid), shifts: toEditorRows(shiftRowsOf(data, areaShiftModelId(data, area))) } : null;
  const kept = useKeptForm(AREA_DRAFT_KIND, groupDraftKey(area?.nodeid ?? null, addTo), GROUP_FORM_MODEL, emptyGroupForm(addTo), fill);
  const { values, setField, initial, dropDraft } = kept;
  const { name, shifts } = values;
  // A machine deleted since a kept draft was made is no longer offered, nor moved.
  const selected = useMemo(() => knownMachines(values.selected, equipment), [values.selected, equipment]);
  const initialMembers = useMemo(() => knownMachines(initial?.selected ?? [], equipment), [initial, equipment]);
  // The name and plan as the form was filled: only what the user changed is sent (another tab's rename survives).
  const filledName = initial?.name ?? '';
  const filledShifts = useMemo(() => fromEditorRows(initial?.shifts ?? []), [initial]);
  const [nameTouched, setNameTouched] = useState(false);
  const { busy, error, run } = useLocalWrite(t('sites.form.saveFailed'));
  const [confirmOpen, setConfirmOpen] = useState(false);

  // The plant chosen in the form only where the form asks for it: a draft kept on a link without a plant given, taken
  // back where the plant's page gives it, is added to that plant (the one its heading names).
  const sitenodeid = area?.sitenodeid ?? (askSite ? values.sitenodeid : addTo);
  const site = sites.find((candidate) => candidate.nodeid === sitenodeid);
  const shiftmodelnodeid = area ? areaShiftModelId(data, area) : null;
  const backTo = sitenodeid ? `/sites?sitenodeid=${sitenodeid}` : '/sites';
  // A name too long says so at the field while typing (the save would be refused on the device otherwise); so does
  // the name of another area of the plant (the two could not be told apart), unless an edit keeps its name.
  const taken = sitenodeid !== '' && nameTaken(name, fellowNames(data, language, { kind: 'area', nodeid: area?.nodeid ?? null, sitenodeid }), isEdit ? filledName : null);
  const nameError = liveTextError(createAreaSchema.shape.name, name, t) ?? (taken ? t('areas.nameTaken') : undefined);
  const canSubmit = Boolean(context) && canWrite && name.trim().length > 0 && nameError === undefined && Boolean(site) && !hasShiftRowIssues(shifts) && !busy;

  const save = async () => {
    if (!context || !canSubmit) return;
    const machines = new Map(data.equipment.map((row) => [row.nodeid, row]));
    const selection = { ...selectionChanges(initialMembers, selected), machines };
    const done = await run(() =>
      isEdit && area
        ? updateArea(context, { nodeid: area.nodeid, name: filledName, shiftmodelnodeid, shifts: filledShifts }, { name, selection, shifts: fromEditorRows(shifts) })
        : createArea(context, { sitenodeid, name, selection }),
    );
    if (!done) return;
    dropDraft();
    navigate(backTo);
  };

  const remove = async () => {
    if (!context || !area) return;
    if (await run(() => deleteArea(context, area.nodeid))) {
      dropDraft();
      navigate(backTo);
    } else setConfirmOpen(false);
  };

  return (
    <Stack gap="5" p={{ base: '4', md: '6', lg: '8' }} maxW="5xl">
      <Button asChild variant="ghost" alignSelf="start">
        <RouterLink to={backTo}>
          <ArrowLeft aria-hidden />
          {t('sites.back')}
        </RouterLink>
      </Button>
      <Box>
        <Heading as="h2" size="xl">
          {isEdit ? t('areas.editTitle') : t('areas.createTitle')}
        </Heading>
        {site && (
          <Text color="fg.muted" data-testid="area-site-name">
            {t('areas.ofSite', { name: site.name })}
          </Text>
        )}
      </Box>
      <Card.Root variant="outline" bg="bg.panel" as="form" onSubmit={(event: React.FormEvent) => { event.preventDefault(); void save(); }}>
        <Card.Body gap="6">
          {kept.restoredAt !== null && (
            <Text textStyle="sm" color="fg.muted" data-testid="area-draft-restored">
              {t('notificationForm.draftRestored', { date: formatDateTime(kept.restoredAt) })}
            </Text>
          )}
          {askSite && (
            <Field.Root required disabled={busy}>
              <Field.Label>
                {t('areas.site')}
                <Field.RequiredIndicator />
              </Field.Label>
              <NativeSelect.Root size="lg">
                <NativeSelect.Field value={values.sitenodeid} onChange={(event) => setField('sitenodeid', event.target.value)} data-testid="area-site">
                  <option value="">{t('areas.sitePlaceholder')}</option>
                  {sites.map((candidate) => (
                    <option key={candidate.nodeid} value={candidate.nodeid}>
                      {candidate.name}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </Field.Root>
          )}
          <Field.Root required invalid={(nameTouched && name.trim().length === 0) || nameError !== undefined} disabled={busy}>
            <Field.Label>
              {t('areas.name')}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input value={name} onChange={(event) => setField('name', event.target.value)} onBlur={() => setNameTouched(true)} data-testid="area-name-input" />
            <Field.ErrorText data-testid="area-name-error">{nameError ?? t('areas.nameRequired')}</Field.ErrorText>
          </Field.Root>
          <AssignedEquipment equipment={equipment} selected={selected} targetName={name.trim() || t('areas.newArea')} onChange={(machines) => setField('selected', machines)} disabled={busy || !canWrite} />
          {isEdit && (
            <ShiftEditor
              shifts={shifts}
              onChange={(rows) => setField('shifts', rows)}
              disabled={busy}
            />
          )}
          {!canWrite && <FormError error={t('areas.notAllowed')} />}
          <FormError error={error} />
        </Card.Body>
        <FormFooter
          deleteLabel={isEdit && canDelete ? t('areas.delete') : undefined}
          onDelete={() => setConfirmOpen(true)}
          submitLabel={isEdit ? t('areas.submitEdit') : t('areas.submitCreate')}
          cancelTo={backTo}
          onCancel={dropDraft}
          canSubmit={canSubmit}
          busy={busy}
          deleteTestId="area-delete"
          submitTestId="area-submit"
        />
      </Card.Root>
      <ConfirmDeleteDialog
        open={confirmOpen}
        title={t('areas.deleteTitle')}
        text={t('areas.deleteText', { name: area?.name ?? '' })}
        onCancel={() => setConfirmOpen(false)}
        onConfirm={() => void remove()}
        busy={busy}
      />
    </Stack>
  );
}
