/**
 * /create-area (spec part 2 §2.3): `?nodeid=` present means edit, absent create. Navigation state carries the
 * plant (`sitename`, `sitenodeid`); without it (a reload) the create form asks for the plant. Fields: name, the
 * assigned machines (count, selection dialog, cards), in edit mode the weekly shift editor and delete (with a
 * confirmation). Submit 'Bereich anlegen' / 'Änderungen Speichern', disabled while the name is empty or a shift
 * row has no weekday (§5). Everything is saved through the outbox (works offline); afterwards
 * /sites?sitenodeid={site id}.
 */
import { Box, Button, Card, Field, Heading, Input, NativeSelect, Skeleton, Stack, Text } from '@chakra-ui/react';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { liveTextError } from '../../lib/input-errors';
import { createAreaSchema } from '../../../shared/api/areas';
import { hasShiftRowIssues, type ShiftRow } from '../../../shared/domain/shift';
import { nameTaken } from '../../../shared/domain/text';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { NotFoundNotice } from '../../components/not-found-notice';
import { FormError, FormFooter } from '../../components/form-actions';
import { fromEditorRows, ShiftEditor, toEditorRows, type ShiftEditorRow } from '../../components/shift-editor';
import { currentLanguage } from '../../lib/i18n';
import { useMayRun, usePermission } from '../../lib/use-permission';
import { createArea as createAreaAction, updateArea as updateAreaAction } from '../../../shared/mutations/structure';
import { createArea, deleteArea, updateArea } from '../../sync/repositories/areas';
import { areaShiftModelId, shiftRowsOf } from '../../sync/structure-shifts';
import { useStructureData } from '../../sync/use-structure-data';
import { useLocalWrite } from '../../sync/use-local-write';
import { useWriteContext } from '../../sync/use-write-context';
import { AssignedEquipment } from './assigned-equipment';
import { membersOf, selectionChanges } from './equipment-selection';
import { stateText } from './navigation-state';
import { fellowNames, selectableEquipment, siteViews } from './structure-view';

export function AreaFormScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const nodeid = params.get('nodeid');
  const isEdit = nodeid !== null;
  const data = useStructureData();
  const context = useWriteContext();
  const canDelete = usePermission('site', 'delete');
  // The server refuses a save without it; the form says so instead of queuing a change that will be refused.
  const canWrite = useMayRun(isEdit ? updateAreaAction : createAreaAction);
  const language = currentLanguage();

  const sites = useMemo(() => (data ? siteViews(data, language) : []), [data, language]);
  const area = isEdit ? sites.flatMap((site) => site.areas).find((candidate) => candidate.nodeid === nodeid) : undefined;
  const [chosenSite, setChosenSite] = useState<string>(stateText(location.state, 'sitenodeid') ?? params.get('sitenodeid') ?? '');
  const sitenodeid = area?.sitenodeid ?? chosenSite;
  const site = sites.find((candidate) => candidate.nodeid === sitenodeid);
  const equipment = useMemo(() => (data ? selectableEquipment(data, language) : []), [data, language]);
  const shiftmodelnodeid = data && area ? areaShiftModelId(data, area) : null;

  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [initialMembers, setInitialMembers] = useState<string[]>([]);
  // The name as the form was filled: only a name the user changed is sent (another tab's rename survives).
  const [filledName, setFilledName] = useState('');
  const [shifts, setShifts] = useState<ShiftEditorRow[]>([]);
  // The plan as the form was filled: a save sends the plan only when the editor's rows differ from it (updateArea).
  const [filledShifts, setFilledShifts] = useState<ShiftRow[]>([]);
  const [loaded, setLoaded] = useState(!isEdit);
  const { busy, error, run } = useLocalWrite(t('sites.form.saveFailed'));
  const [confirmOpen, setConfirmOpen] = useState(false);

  // Fill the form once from the mirror; later pulls do not overwrite the user's edits.
  useEffect(() => {
    if (loaded || !data || !area) return;
    const members = membersOf(equipment, 'area', area.nodeid);
    setName(area.name);
    setFilledName(area.name);
    setSelected(members);
    setInitialMembers(members);
    const plan = shiftRowsOf(data, areaShiftModelId(data, area));
    setShifts(toEditorRows(plan));
    setFilledShifts(plan);
    setLoaded(true);
  }, [loaded, data, area, equipment]);

  const backTo = sitenodeid ? `/sites?sitenodeid=${sitenodeid}` : '/sites';
  // A name too long says so at the field while typing (the save would be refused on the device otherwise); so does
  // the name of another area of the plant (the two could not be told apart), unless an edit keeps its name.
  const taken = data !== undefined && sitenodeid !== '' && nameTaken(name, fellowNames(data, language, { kind: 'area', nodeid: isEdit ? nodeid : null, sitenodeid }), isEdit ? filledName : null);
  const nameError = liveTextError(createAreaSchema.shape.name, name, t) ?? (taken ? t('areas.nameTaken') : undefined);
  const canSubmit = Boolean(context) && canWrite && name.trim().length > 0 && nameError === undefined && Boolean(site) && !hasShiftRowIssues(shifts) && !busy;

  const save = async () => {
    if (!context || !data || !canSubmit) return;
    const machines = new Map(data.equipment.map((row) => [row.nodeid, row]));
    const selection = { ...selectionChanges(initialMembers, selected), machines };
    const saved = await run(() =>
      isEdit && area
        ? updateArea(context, { nodeid: area.nodeid, name: filledName, shiftmodelnodeid, shifts: filledShifts }, { name, selection, shifts: fromEditorRows(shifts) })
        : createArea(context, { sitenodeid, name, selection }),
    );
    if (saved) navigate(backTo);
  };

  const remove = async () => {
    if (!context || !area) return;
    if (await run(() => deleteArea(context, area.nodeid))) navigate(backTo);
    else setConfirmOpen(false);
  };

  if (!data || (isEdit && !loaded)) {
    return (
      <Stack p={{ base: '4', md: '6', lg: '8' }} maxW="5xl" gap="4">
        {data?.synced && isEdit && !area ? <NotFoundNotice text={t('areas.notFound')} back="/sites" /> : <Skeleton h="80" borderRadius="l3" />}
      </Stack>
    );
  }

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
          {!isEdit && !stateText(location.state, 'sitenodeid') && (
            <Field.Root required disabled={busy}>
              <Field.Label>
                {t('areas.site')}
                <Field.RequiredIndicator />
              </Field.Label>
              <NativeSelect.Root size="lg">
                <NativeSelect.Field value={chosenSite} onChange={(event) => setChosenSite(event.target.value)} data-testid="area-site">
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
            <Input value={name} onChange={(event) => setName(event.target.value)} onBlur={() => setNameTouched(true)} data-testid="area-name-input" />
            <Field.ErrorText data-testid="area-name-error">{nameError ?? t('areas.nameRequired')}</Field.ErrorText>
          </Field.Root>
          <AssignedEquipment equipment={equipment} selected={selected} targetName={name.trim() || t('areas.newArea')} onChange={setSelected} disabled={busy || !canWrite} />
          {isEdit && (
            <ShiftEditor
              shifts={shifts}
              onChange={setShifts}
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
