/**
 * /create-machine, /create-equipment (add) and /edit-machine (edit): the equipment form of spec part 2 §2.2 with
 * the rules of §4 and §5. Reads everything from the local mirror and saves through the equipment repository, so
 * a machine with both photos can be created with no network at all. The record comes from navigation state
 * (`{nodeid}` or `{equipment: {nodeid}}`) or, for a reload or a shared link, `?nodeid=`.
 */
import { Alert, Box, Button, Card, Checkbox, Field, Flex, Grid, Heading, HStack, IconButton, Input, NativeSelect, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type FocusEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { CONTROLLER_TEXT_MAX, equipmentSchema, MEDIA_SUPPLY_TEXT_MAX } from '../../../shared/api/equipment';
import { brandAndModel, brandOptions, chooseBrand, chooseEquipmentType, chooseManufacturer, equipmentTypeOptions, type CatalogSelection } from '../../../shared/domain/equipment';
import { CARD_TITLE_MAX, compareNames, localized, matchKey, truncateText } from '../../../shared/domain/text';
import type { ShiftRow } from '../../../shared/domain/shift';
import { ChangedElsewhereAlert } from '../../components/changed-elsewhere-alert';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { fromEditorRows, ShiftEditor, toEditorRows, type ShiftEditorRow } from '../../components/shift-editor';
import { api } from '../../lib/api';
import { useObjectUrl } from '../../lib/use-object-url';
import { useOnlineStatus } from '../../lib/use-online-status';
import { usePermission } from '../../lib/use-permission';
import { PENDING_DELETE } from '../../sync/mirror-fields';
import { newNodeId } from '../../sync/outbox';
import type { PhotoInput } from '../../sync/repositories/attachments';
import { createEquipment, updateEquipment } from '../../sync/repositories/equipment';
import { areaShiftModelId, shiftRowsOf } from '../../sync/structure-shifts';
import { useDeleteEquipment } from '../../sync/use-delete-equipment';
import { useMirrorRows, useStoredFileUrl, type MirrorRow } from '../../sync/use-mirror';
import { useStructureData } from '../../sync/use-structure-data';
import { isQuotaExceeded, useWriteContext } from '../../sync/use-write-context';
import { CatalogPicker, type PickerChoice } from './catalog-picker';
import {
  checkForm,
  emptyFormState,
  EQUIPMENT_DRAFT_KIND,
  equipmentChangedElsewhere,
  equipmentDraftKey,
  equipmentDraftOf,
  formStateFromRow,
  isEquipmentFormDraft,
  mirrorCatalogLookup,
  newNamesTaken,
  pathAfterSave,
  selectableYears,
  takeOverBase,
  takeOverField,
  type EquipmentChangeableField,
  type EquipmentFormState,
} from './equipment-form-model';
import { PhotoField } from './photo-field';
import { ServiceSticker } from './service-sticker';
import { useRecordTarget } from './use-record-target';
import { currentLanguage } from '../../lib/i18n';
import { formatDateTime } from '../../lib/dates';
import { holdPageOpen } from '../../lib/hold-page-open';
import { dropKeptDraft, readKeptDraft, useKeepDraft } from '../../stores/kept-drafts';
import { useSessionStore } from '../../stores/session-store';

const visible = (rows: MirrorRow[] | undefined) => (rows ?? []).filter((row) => !row[PENDING_DELETE]);

/**
 * Fields side by side only as long as each keeps 16rem: values of realistic length ("Werk Süd 01500 Chemnitz",
 * "SIGMA CONTROL 2") and labels like "Steuerungshersteller (optional)" stay readable on one line, at 1280 px
 * beside the navigation as in portrait.
 */
const FIELD_MIN_WIDTH = '16rem';

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Card.Root variant="outline" data-testid={testId}>
      <Card.Body gap="4">
        <Heading as="h2" size="md">
          {title}
        </Heading>
        {children}
      </Card.Body>
    </Card.Root>
  );
}

interface RecordSelectProps {
  label: string;
  testId: string;
  rows: MirrorRow[];
  value: string | null;
  onChange(nodeid: string | null): void;
  /** Marks the field invalid when set. */
  errorText?: string | undefined;
  disabled: boolean;
  /** The name "touched" is recorded under (a missing-value error shows once it was left or a save was tried). */
  field?: string;
}

/** A select over mirrored records by their localised name, with an empty "none" choice first. */
function RecordSelect({ label, testId, rows, value, onChange, errorText, disabled, field }: RecordSelectProps) {
  const { t, i18n } = useTranslation();
  return (
    <Field.Root invalid={Boolean(errorText)} disabled={disabled} data-field={field}>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root size="lg">
        <NativeSelect.Field data-testid={testId} value={value ?? ''} onChange={(event) => onChange(event.target.value || null)}>
          <option value="">{t('equipment.picker.none')}</option>
          {rows
            .map((row) => ({ nodeid: row.nodeid, label: localized(row.name, i18n.language) ?? '' }))
            .sort((a, b) => compareNames(a.label, b.label, i18n.language))
            .map((option) => (
              <option key={option.nodeid} value={option.nodeid}>
                {option.label}
              </option>
            ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {errorText && <Field.ErrorText>{errorText}</Field.ErrorText>}
    </Field.Root>
  );
}

export function EquipmentFormScreen() {
  const { mode, nodeid } = useRecordTarget('/edit-machine');
  // Another machine (or add instead of edit) is another form: filled from it, with its own kept draft.
  return <EquipmentForm key={`${mode}:${nodeid ?? ''}`} />;
}

function EquipmentForm() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const navigate = useNavigate();
  const online = useOnlineStatus();
  const context = useWriteContext();
  const { mode, nodeid: editId } = useRecordTarget('/edit-machine');
  const usernodeid = useSessionStore((state) => state.session?.usernodeid) ?? '';
  const draftKey = equipmentDraftKey(mode, editId);
  // The form's unsaved input from before a reload or a slip onto another screen: read once, taken back when the form fills.
  const [restored] = useState(() => (usernodeid && draftKey ? readKeptDraft(EQUIPMENT_DRAFT_KIND, usernodeid, draftKey, isEquipmentFormDraft) : null));
  const canWrite = usePermission('equipment', mode === 'add' ? 'create' : 'update');
  const canDelete = usePermission('equipment', 'delete');

  const equipmentRows = useMirrorRows('equipment');
  const manufacturers = useMirrorRows('manufacturers');
  const brands = useMirrorRows('brands');
  const types = useMirrorRows('equipmenttypes');
  const classes = useMirrorRows('equipmentclasses');
  const sites = useMirrorRows('sites');
  const areas = useMirrorRows('areas');
  const pools = useMirrorRows('equipmentpools');
  const structure = useStructureData();
  const loaded = [equipmentRows, manufacturers, brands, types, classes, sites, areas, pools].every((rows) => rows !== undefined) && structure !== undefined;

  const lookup = useMemo(() => mirrorCatalogLookup(brands ?? [], types ?? []), [brands, types]);
  const machine = editId ? (equipmentRows ?? []).find((row) => row.nodeid === editId && !row[PENDING_DELETE]) : undefined;

  // The id the sticker encodes: a new machine's id is chosen now, so its sticker can be printed before saving.
  const [newId, setNewId] = useState(() => restored?.value.newId ?? newNodeId());
  const nodeid = mode === 'edit' ? (editId ?? '') : newId;

  const [form, setForm] = useState<EquipmentFormState>(() => emptyFormState());
  const [shiftEditorRows, setShiftEditorRows] = useState<ShiftEditorRow[]>([]);
  const initialised = useRef(false);
  // What the form was opened with (null until it is filled): a form equal to it keeps no draft.
  const [start, setStart] = useState<EquipmentFormState | null>(null);
  const [restoredAt, setRestoredAt] = useState<number | null>(null);
  // The row the form was filled from: a save sends what the user changed against it (updateEquipment `base`).
  const filledFrom = useRef<typeof machine>(undefined);
  // The shift plan it was filled with: the machine's own plan is sent only when the editor's differs from it.
  const filledShifts = useRef<ShiftRow[] | undefined>(undefined);
  /** Fills the form from the machine as the mirror has it now (edit), or empty (add). */
  const fill = useCallback(
    (row: MirrorRow | undefined) => {
      filledFrom.current = row;
      if (row && structure) {
        // why by owner too: a plan made on this device is linked on the machine's row only by a later pull.
        const shifts = shiftRowsOf(structure, areaShiftModelId(structure, { nodeid: row.nodeid, shiftmodelnodeid: typeof row.shiftmodelnodeid === 'string' ? row.shiftmodelnodeid : null }));
        const state = formStateFromRow(row, { lang, lookup, areas: areas ?? [], shifts });
        filledShifts.current = state.shifts;
        setForm(state);
        setShiftEditorRows(toEditorRows(state.shifts));
        setStart({ ...state, shifts: fromEditorRows(toEditorRows(state.shifts)) });
      } else {
        filledShifts.current = undefined;
        setForm(emptyFormState());
        setShiftEditorRows([]);
        setStart(emptyFormState());
      }
    },
    [structure, lang, lookup, areas],
  );
  // Fills once (the ref), as soon as the mirror has what the form needs.
  useEffect(() => {
    if (initialised.current || !loaded) return;
    if (mode === 'edit' && !machine) return;
    initialised.current = true;
    const draft = restored?.value;
    // An add draft whose machine exists was saved (the page went before the draft was dropped): not taken back, and
    // its id is taken.
    const saved = mode === 'add' && draft !== undefined && (equipmentRows ?? []).some((row) => row.nodeid === draft.newId);
    if (saved) setNewId(newNodeId());
    if (restored && draft && !saved) {
      filledFrom.current = mode === 'edit' ? (draft.base ?? machine) : undefined;
      filledShifts.current = draft.baseShifts ?? undefined;
      setForm(draft.form);
      setShiftEditorRows(toEditorRows(draft.form.shifts));
      setStart(draft.start);
      setRestoredAt(restored.savedAt);
      return;
    }
    fill(machine);
  }, [loaded, mode, machine, restored, equipmentRows, fill]);

  const [photos, setPhotos] = useState<{ image?: PhotoInput; typenameplate?: PhotoInput }>({});
  // Chosen photos are not in the kept draft: leaving the page asks first while the form holds some.
  const holdsPhotos = photos.image !== undefined || photos.typenameplate !== undefined;
  useEffect(() => (holdsPhotos ? holdPageOpen() : undefined), [holdsPhotos]);
  const pickedImage = useObjectUrl(photos.image);
  const pickedNameplate = useObjectUrl(photos.typenameplate);
  const storedImage = useStoredFileUrl(typeof machine?.imagefilenodeid === 'string' ? machine.imagefilenodeid : null);
  const storedNameplate = useStoredFileUrl(typeof machine?.typenameplatefilenodeid === 'string' ? machine.typenameplatefilenodeid : null);
  const [serverUrls, setServerUrls] = useState<{ image: string | null; typenameplate: string | null }>({ image: null, typenameplate: null });
  useEffect(() => {
    // Photos already on the server need a signed URL, which only the server can make: best effort when online.
    if (mode !== 'edit' || !editId || !online) return undefined;
    const controller = new AbortController();
    api
      .get(`equipments/${editId}`, { schema: equipmentSchema, signal: controller.signal })
      .then((record) => setServerUrls({ image: record.image?.url ?? null, typenameplate: record.typenameplate?.url ?? null }))
      .catch(() => undefined);
    return () => controller.abort();
  }, [mode, editId, online]);

  const [busy, setBusy] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  // A missing value is an error only once its field was left or a save was tried: an empty form opened red.
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [saveTried, setSaveTried] = useState(false);
  const shows = (...fields: string[]) => saveTried || fields.some((field) => touched.has(field));
  const onFieldLeft = (event: FocusEvent<HTMLElement>) => {
    const field = event.target.closest('[data-field]')?.getAttribute('data-field');
    if (field && !touched.has(field)) setTouched(new Set(touched).add(field));
  };
  const [confirmDelete, setConfirmDelete] = useState(false);

  const set = <K extends keyof EquipmentFormState>(field: K, value: EquipmentFormState[K]) => setForm((current) => ({ ...current, [field]: value }));
  const setCatalog = (catalog: CatalogSelection) => set('catalog', catalog);

  const formWithShifts: EquipmentFormState = useMemo(() => ({ ...form, shifts: fromEditorRows(shiftEditorRows) }), [form, shiftEditorRows]);
  // Before the form is filled, what is stored stays as it is (null would drop it).
  const draft = useMemo(() => {
    if (!start) return restored?.value ?? null;
    const kept = equipmentDraftOf(formWithShifts, start, { newId: mode === 'add' ? newId : null, base: filledFrom.current ?? null, baseShifts: filledShifts.current ?? null });
    // The draft just taken back, unchanged, is not written again: rewritten on opening, it would never age.
    return kept && restored && JSON.stringify(kept) === JSON.stringify(restored.value) ? restored.value : kept;
  }, [formWithShifts, start, mode, newId, restored]);
  useKeepDraft(EQUIPMENT_DRAFT_KIND, usernodeid, draftKey, draft, restored !== null);
  const dropDraft = () => {
    if (usernodeid && draftKey) dropKeptDraft(EQUIPMENT_DRAFT_KIND, usernodeid, draftKey);
  };
  /** The taken-back draft thrown away: the form as it opens without one. */
  const discardRestored = () => {
    dropDraft();
    setRestoredAt(null);
    fill(mode === 'edit' ? machine : undefined);
  };
  const check = checkForm(formWithShifts, mode, lang, lookup);
  // "required" waits for the field to be touched; a conflict (a type of another brand) shows at once.
  const catalogError = (field: string) => check.catalogIssues.find((issue) => issue.field === field && (issue.code !== 'required' || shows(field)));
  const assignmentMissing = check.fieldIssues.includes('area') && shows('pool', 'site', 'area');
  const assignmentError = assignmentMissing ? t('equipment.errors.assignment') : undefined;

  // ------------------------------------------------------------ options
  const manufacturerOptions = visible(manufacturers).map((row) => ({ nodeid: row.nodeid, label: localized(row.name, lang) ?? '' }));
  const brandRows = visible(brands).map((row) => ({ nodeid: row.nodeid, name: row.name, manufacturernodeid: String(row.manufacturernodeid ?? '') }));
  const brandChoices = brandOptions(brandRows, form.catalog.legalentity, form.catalog.legalentityFromBrand).map((row) => ({ nodeid: row.nodeid, label: localized(row.name, lang) ?? '' }));
  const typeRows = visible(types).map((row) => ({ nodeid: row.nodeid, model: row.model, brandnodeid: String(row.brandnodeid ?? '') }));
  const typeChoices = equipmentTypeOptions(typeRows, form.catalog.brand).map((row) => ({ nodeid: row.nodeid, label: localized(row.model, lang) ?? '' }));
  const byLabel = (a: { label: string }, b: { label: string }) => compareNames(a.label, b.label, lang);
  const namesTaken = newNamesTaken(form.catalog, { legalentity: manufacturerOptions, brand: brandChoices, equipmenttype: typeChoices });
  const years = selectableYears();
  const siteAreas = visible(areas).filter((area) => area.sitenodeid === form.sitenodeid);
  const chosenArea = visible(areas).find((area) => area.nodeid === form.areanodeid);
  const areaShifts = chosenArea && structure ? shiftRowsOf(structure, areaShiftModelId(structure, { nodeid: chosenArea.nodeid, shiftmodelnodeid: typeof chosenArea.shiftmodelnodeid === 'string' ? chosenArea.shiftmodelnodeid : null })) : [];

  const nameOf = (rows: MirrorRow[] | undefined, id: string | null | undefined, field = 'name') => {
    const row = (rows ?? []).find((candidate) => candidate.nodeid === id);
    return row ? localized(row[field], lang) ?? '' : null;
  };
  const manufacturerName = form.catalog.legalentity?.isnew ? (form.catalog.legalentity.name ?? null) : nameOf(manufacturers, form.catalog.legalentity?.nodeid);
  const brandName = form.catalog.brand?.isnew ? (form.catalog.brand.name ?? null) : nameOf(brands, form.catalog.brand?.nodeid);
  const modelName = form.catalog.equipmenttype?.isnew ? (form.catalog.equipmenttype.model ?? null) : nameOf(types, form.catalog.equipmenttype?.nodeid, 'model');
  const imageUrl = pickedImage ?? storedImage ?? serverUrls.image;
  const nameplateUrl = pickedNameplate ?? storedNameplate ?? serverUrls.typenameplate;

  // One Equipment-ID, one machine, as the CSV import holds it: another machine of the organisation that has it is
  // named at the field. An edit that keeps a duplicate it was filled with is not held up by it.
  const typedId = matchKey(form.equipmentid);
  const idKept = mode === 'edit' && typeof filledFrom.current?.equipmentid === 'string' && matchKey(filledFrom.current.equipmentid) === typedId;
  const idOwner = typedId && !idKept ? (equipmentRows ?? []).find((row) => row.nodeid !== nodeid && !row[PENDING_DELETE] && typeof row.equipmentid === 'string' && matchKey(row.equipmentid) === typedId) : undefined;
  const blocked = !check.values || namesTaken.length > 0 || idOwner !== undefined;

  // Another device's (or tab's) change that reached the mirror since the form was filled: said per field, with its
  // value to take over, as the notification form does. Saving still sends only this form's changes (against
  // `filledFrom`), so a field left as it was keeps the other change; a field changed here too replaces it.
  const readRow = (row: MirrorRow) => formStateFromRow(row, { lang, lookup, areas: areas ?? [], shifts: [] });
  const now = mode === 'edit' && machine && filledFrom.current ? readRow(machine) : null;
  const elsewhere = now && filledFrom.current ? equipmentChangedElsewhere(readRow(filledFrom.current), now, formWithShifts, lang) : [];
  const takeOver = (field: EquipmentChangeableField) => {
    if (!now || !machine || !filledFrom.current) return;
    // Taken over counts as filled from it: its warning goes, and the save does not send it back.
    filledFrom.current = takeOverBase(filledFrom.current, machine, field);
    setForm((current) => takeOverField(current, now, field));
  };
  const changedLabel = (field: EquipmentChangeableField): string => {
    switch (field) {
      case 'catalog':
        return t('equipment.changedElsewhere.catalog');
      case 'manufacturerserialnumber':
        return t('equipment.fields.serialnumber');
      case 'equipmentclassnodeid':
        return t('equipment.fields.equipmentclass');
      case 'controller.manufacturer':
      case 'controller.type':
      case 'controller.softwareversion':
        return t(`equipment.${field}`);
      default:
        return t(`equipment.fields.${field}`);
    }
  };
  /** The other value as the form would show it: chosen records by name, numbers in the form's language. */
  const changedValue = (field: EquipmentChangeableField, other: EquipmentFormState): string => {
    switch (field) {
      case 'catalog':
        return brandAndModel(nameOf(brands, other.catalog.brand?.nodeid), nameOf(types, other.catalog.equipmenttype?.nodeid, 'model'));
      case 'equipmentclassnodeid':
        return nameOf(classes, other.equipmentclassnodeid) ?? '';
      case 'commissioningyear':
        return other.commissioningyear === null ? t('equipment.fields.commissioningDefault') : String(other.commissioningyear);
      case 'constructionyear':
        return other.constructionyear === null ? '' : String(other.constructionyear);
      case 'width':
        return other.dimensions[0];
      case 'height':
        return other.dimensions[1];
      case 'depth':
        return other.dimensions[2];
      case 'mediasupply':
        return other.mediasupply.filter((text) => text.trim() !== '').join(', ');
      case 'controller.manufacturer':
        return other.controller.manufacturer;
      case 'controller.type':
        return other.controller.type;
      case 'controller.softwareversion':
        return other.controller.softwareversion;
      case 'useareashiftmodel':
        return other.useareashiftmodel ? t('equipment.changedElsewhere.yes') : t('equipment.changedElsewhere.no');
      default:
        return other[field];
    }
  };

  // ------------------------------------------------------------ actions
  const submit = async () => {
    if (blocked || !check.values) {
      // The button only looks disabled (aria-disabled): pressing it says what is missing, next to each field.
      setSaveTried(true);
      return;
    }
    if (!context || busy) return;
    setBusy(true);
    setSaveError(null);
    try {
      if (mode === 'add') {
        await createEquipment(context, {
          nodeid,
          values: check.values,
          catalog: form.catalog,
          areanodeid: form.areanodeid,
          equipmentpoolnodeid: form.equipmentpoolnodeid,
          photos,
          lang,
        });
      } else if (machine) {
        await updateEquipment(context, machine, {
          ...(filledFrom.current ? { base: filledFrom.current } : {}),
          ...(filledShifts.current ? { baseShifts: filledShifts.current } : {}),
          values: check.values,
          catalog: form.catalog,
          photos,
          lang,
        });
      }
      dropDraft();
      void navigate(pathAfterSave(form));
    } catch (error) {
      setSaveError(isQuotaExceeded(error) ? t('sync.errors.quota') : t('equipment.errors.saveFailed'));
      setBusy(false);
    }
  };

  const { remove, deleting } = useDeleteEquipment((message) => {
    setSaveError(message);
    setConfirmDelete(false);
  });

  // ------------------------------------------------------------ render
  if (!loaded || (mode === 'edit' && editId && !machine && equipmentRows === undefined)) {
    return (
      <Stack p={{ base: '4', md: '6' }} gap="4" role="status" aria-busy="true" aria-label={t('equipment.loading')}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} h="40" borderRadius="l3" />
        ))}
      </Stack>
    );
  }
  if (mode === 'edit' && !machine) {
    return (
      <Stack p={{ base: '4', md: '6' }} gap="4" maxW="3xl">
        <Alert.Root status="warning" data-testid="equipment-not-found">
          <Alert.Indicator />
          <Alert.Title>{t('equipment.notFound')}</Alert.Title>
        </Alert.Root>
        <Box>
          <Button onClick={() => void navigate('/dashboard')}>{t('equipment.toDashboard')}</Button>
        </Box>
      </Stack>
    );
  }

  const disabled = busy || !canWrite;
  const textField = (field: 'name' | 'equipmentid' | 'inventoryid' | 'costcenter' | 'inspectionbooknumber' | 'manufacturerserialnumber', label: string, options: { required?: boolean; invalid?: boolean } = {}) => (
    <Field.Root required={options.required} invalid={options.invalid || check.tooLong[field] !== undefined || (field === 'equipmentid' && idOwner !== undefined)} disabled={disabled} data-field={field}>
      <Field.Label>
        {label}
        {options.required && <Field.RequiredIndicator />}
      </Field.Label>
      <Input data-testid={`equipment-${field}`} value={form[field]} onChange={(event) => set(field, event.target.value)} />
      {options.invalid && <Field.ErrorText>{t('equipment.errors.required')}</Field.ErrorText>}
      {check.tooLong[field] !== undefined && <Field.ErrorText data-testid={`equipment-${field}-error`}>{t('validation.tooLong', { max: check.tooLong[field] })}</Field.ErrorText>}
      {field === 'equipmentid' && idOwner && <Field.ErrorText data-testid="equipment-equipmentid-taken">{t('equipment.errors.equipmentIdTaken', { name: localized(idOwner.name, lang) ?? '' })}</Field.ErrorText>}
    </Field.Root>
  );
  const yearField = (field: 'constructionyear' | 'commissioningyear', label: string, required: boolean) => (
    <Field.Root required={required} invalid={(required && form[field] === null && shows(field)) || (field === 'commissioningyear' && check.fieldIssues.includes('commissioningyear'))} disabled={disabled} data-field={field}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      <NativeSelect.Root size="lg">
        <NativeSelect.Field data-testid={`equipment-${field}`} value={form[field] === null ? '' : String(form[field])} onChange={(event) => set(field, event.target.value ? Number(event.target.value) : null)}>
          <option value="">{required ? t('equipment.picker.choose') : t('equipment.fields.commissioningDefault')}</option>
          {years.map((year) => (
            <option key={year} value={year}>
              {year}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {required && form[field] === null && shows(field) && <Field.ErrorText>{t('equipment.errors.required')}</Field.ErrorText>}
      {field === 'commissioningyear' && check.fieldIssues.includes('commissioningyear') && <Field.ErrorText data-testid="equipment-commissioningyear-error">{t('equipment.errors.commissionedBeforeBuilt')}</Field.ErrorText>}
    </Field.Root>
  );
  const catalogIssueText = (field: 'legalentity' | 'brand' | 'equipmenttype') => {
    const issue = catalogError(field);
    if (issue) return t(`equipment.errors.catalog.${issue.code}`);
    return namesTaken.includes(field) ? t('equipment.errors.catalog.nameTaken') : undefined;
  };
  const submitLabel = busy ? t('equipment.submit.busy') : mode === 'add' ? t('equipment.submit.add') : t('equipment.submit.edit');

  return (
    <Box p={{ base: '4', md: '6' }} pb="28">
      {/* The preview and sticker stand beside the form only where the form keeps room for its fields (2xl); below
          that they follow it, so at 1280 px and in portrait the form has the whole width. */}
      {/* why minmax(0, …) and minW 0: a grid track of 1fr and a flex item grow to their content's min-content width,
          and the preview's and sticker's one-line machine name (truncated) has the whole name as that width — a
          100-character name pushed the form's fields off the screen. */}
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', '2xl': 'minmax(0, 1fr) 360px' }} gap="6" alignItems="start" maxW={{ base: '5xl', '2xl': '7xl' }}>
        <Stack gap="5" minW="0" as="form" onSubmit={(event) => (event.preventDefault(), void submit())} onBlur={onFieldLeft} data-testid="equipment-form" aria-label={t(mode === 'add' ? 'pages.createEquipment' : 'pages.editEquipment')}>
          {!canWrite && (
            <Alert.Root status="info">
              <Alert.Indicator />
              <Alert.Title>{t('equipment.readOnly')}</Alert.Title>
            </Alert.Root>
          )}
          {restoredAt !== null && (
            <Alert.Root status="info" data-testid="equipment-draft-restored">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{t('notificationForm.draftRestored', { date: formatDateTime(restoredAt) })}</Alert.Title>
              </Alert.Content>
              <Button variant="outline" size="lg" alignSelf="center" onClick={discardRestored} disabled={busy} data-testid="equipment-draft-discard">
                {t('notificationForm.draftDiscard')}
              </Button>
            </Alert.Root>
          )}
          {now && (
            <ChangedElsewhereAlert
              title={t('equipment.changedElsewhere.title')}
              hint={t('equipment.changedElsewhere.hint')}
              entries={elsewhere.map((field) => ({ field, label: changedLabel(field), value: changedValue(field, now) }))}
              takeOverLabel={t('equipment.changedElsewhere.takeOver')}
              onTakeOver={(field) => takeOver(field as EquipmentChangeableField)}
              testId="equipment-changed-elsewhere"
              fieldTestId="equipment-changed-field"
            />
          )}
          <Section title={t('equipment.sections.catalog')} testId="section-catalog">
            <SimpleGrid minChildWidth={FIELD_MIN_WIDTH} gap="4">
              <CatalogPicker
                required
                field="brand"
                showMissing={shows('brand')}
                label={t('equipment.fields.brand')}
                testId="equipment-brand"
                options={brandChoices.sort(byLabel)}
                value={form.catalog.brand}
                onChange={(choice: PickerChoice | null) => setCatalog(chooseBrand(form.catalog, choice, lookup))}
                invalid={Boolean(catalogError('brand')) || namesTaken.includes('brand')}
                errorText={catalogIssueText('brand')}
                disabled={disabled}
              />
              <CatalogPicker
                required
                field="equipmenttype"
                showMissing={shows('equipmenttype')}
                label={t('equipment.fields.type')}
                testId="equipment-type"
                options={typeChoices.sort(byLabel)}
                value={form.catalog.equipmenttype ? { ...form.catalog.equipmenttype, name: form.catalog.equipmenttype.model } : null}
                onChange={(choice) => setCatalog(chooseEquipmentType(form.catalog, choice ? { isnew: choice.isnew, nodeid: choice.nodeid, model: choice.name } : null))}
                invalid={Boolean(catalogError('equipmenttype')) || namesTaken.includes('equipmenttype')}
                errorText={catalogIssueText('equipmenttype')}
                disabled={disabled || !form.catalog.brand}
              />
              <CatalogPicker
                // Required only when no existing brand gives the manufacturer (§4).
                required={Boolean(form.catalog.brand?.isnew)}
                field="legalentity"
                showMissing={shows('legalentity')}
                label={t('equipment.fields.manufacturer')}
                testId="equipment-manufacturer"
                options={manufacturerOptions.sort(byLabel)}
                value={form.catalog.legalentity}
                onChange={(choice) => setCatalog(chooseManufacturer(form.catalog, choice, lookup))}
                invalid={Boolean(catalogError('legalentity')) || namesTaken.includes('legalentity')}
                errorText={catalogIssueText('legalentity')}
                // why disabled: an existing brand fixes its manufacturer (§4).
                disabled={disabled || Boolean(form.catalog.brand && !form.catalog.brand.isnew)}
              />
            </SimpleGrid>
            {!form.catalog.brand && <Text textStyle="sm" color="fg.muted">{t('equipment.picker.brandFirst')}</Text>}
          </Section>

          <Section title={t('equipment.sections.identity')} testId="section-identity">
            <SimpleGrid minChildWidth={FIELD_MIN_WIDTH} gap="4">
              {textField('name', t('equipment.fields.name'), { required: true, invalid: check.nameMissing && shows('name') })}
              {textField('equipmentid', t('equipment.fields.equipmentid'))}
              {textField('inventoryid', t('equipment.fields.inventoryid'))}
              {textField('costcenter', t('equipment.fields.costcenter'))}
              {yearField('commissioningyear', t('equipment.fields.commissioningyear'), false)}
              {textField('inspectionbooknumber', t('equipment.fields.inspectionbooknumber'))}
              {yearField('constructionyear', t('equipment.fields.constructionyear'), true)}
              {textField('manufacturerserialnumber', t('equipment.fields.serialnumber'))}
              <RecordSelect label={t('equipment.fields.equipmentclass')} testId="equipment-class" rows={visible(classes)} value={form.equipmentclassnodeid} onChange={(nodeid) => set('equipmentclassnodeid', nodeid)} disabled={disabled} />
            </SimpleGrid>
          </Section>

          <Section title={t('equipment.sections.photos')} testId="section-photos">
            <SimpleGrid minChildWidth={FIELD_MIN_WIDTH} gap="4">
              <PhotoField label={t('equipment.fields.typenameplate')} testId="photo-typenameplate" previewUrl={nameplateUrl} onPick={(photo) => setPhotos((current) => ({ ...current, typenameplate: photo }))} disabled={disabled} />
              <PhotoField label={t('equipment.fields.image')} testId="photo-image" previewUrl={imageUrl} onPick={(photo) => setPhotos((current) => ({ ...current, image: photo }))} disabled={disabled} />
            </SimpleGrid>
          </Section>

          <Section title={t('equipment.sections.technical')} testId="section-technical">
            <SimpleGrid minChildWidth={FIELD_MIN_WIDTH} gap="4">
              {(['width', 'height', 'depth'] as const).map((dimension, index) => {
                const error = check.dimensionErrors[index];
                return (
                  <Field.Root key={dimension} invalid={Boolean(error)} disabled={disabled}>
                    <Field.Label>{t(`equipment.fields.${dimension}`)}</Field.Label>
                    <Input
                      inputMode="decimal"
                      data-testid={`equipment-${dimension}`}
                      value={form.dimensions[index]}
                      onChange={(event) => set('dimensions', form.dimensions.map((text, i) => (i === index ? event.target.value : text)) as [string, string, string])}
                    />
                    {error && (
                      <Field.ErrorText data-testid={`equipment-${dimension}-error`}>
                        {check.dimensionUngrouped[index] ? t('equipment.errors.dimensionGrouped', { value: check.dimensionUngrouped[index] }) : t(`equipment.errors.${error}`)}
                      </Field.ErrorText>
                    )}
                  </Field.Root>
                );
              })}
            </SimpleGrid>
            <Field.Root invalid={check.electricalpowerInvalid || check.electricalpowerTooBig !== undefined} disabled={disabled} maxW={{ md: 'sm' }}>
              <Field.Label>{t('equipment.fields.electricalpower')}</Field.Label>
              <Input inputMode="decimal" data-testid="equipment-electricalpower" value={form.electricalpower} onChange={(event) => set('electricalpower', event.target.value)} />
              {check.electricalpowerInvalid && <Field.ErrorText>{t('equipment.errors.invalidNumberFormat')}</Field.ErrorText>}
              {check.electricalpowerTooBig !== undefined && <Field.ErrorText data-testid="equipment-electricalpower-error">{t('equipment.errors.tooBig', { max: check.electricalpowerTooBig })}</Field.ErrorText>}
            </Field.Root>
            <Stack gap="3" data-testid="media-connections">
              <Text fontWeight="medium">{t('equipment.fields.mediasupply')}</Text>
              {form.mediasupply.map((text, index) => (
                <Field.Root key={index} invalid={check.mediasupplyTooLong.includes(index)}>
                <HStack w="full" gap="2">
                  <Input
                    aria-label={t('equipment.media.row', { number: index + 1 })}
                    placeholder={t('equipment.media.placeholder')}
                    value={text}
                    disabled={disabled}
                    data-testid="media-row"
                    onChange={(event) => set('mediasupply', form.mediasupply.map((row, i) => (i === index ? event.target.value : row)))}
                  />
                  <IconButton variant="ghost" colorPalette="red" aria-label={t('equipment.media.remove', { number: index + 1 })} disabled={disabled} onClick={() => set('mediasupply', form.mediasupply.filter((_, i) => i !== index))}>
                    <Trash2 aria-hidden />
                  </IconButton>
                </HStack>
                {check.mediasupplyTooLong.includes(index) && <Field.ErrorText>{t('validation.tooLong', { max: MEDIA_SUPPLY_TEXT_MAX })}</Field.ErrorText>}
                </Field.Root>
              ))}
              <Box>
                <Button variant="outline" onClick={() => set('mediasupply', [...form.mediasupply, ''])} disabled={disabled} data-testid="media-add">
                  {/* why no Plus icon: the text itself starts with "+" (the spec's "+ Medienanschluss", like "+ Schicht") */}
                  {t('equipment.media.add')}
                </Button>
              </Box>
            </Stack>
          </Section>

          <Section title={t('equipment.sections.controller')} testId="section-controller">
            <SimpleGrid minChildWidth={FIELD_MIN_WIDTH} gap="4">
              {(['manufacturer', 'type', 'softwareversion'] as const).map((field) => (
                <Field.Root key={field} disabled={disabled} invalid={check.controllerTooLong.includes(field)}>
                  <Field.Label>{t(`equipment.controller.${field}`)}</Field.Label>
                  <Input data-testid={`controller-${field}`} value={form.controller[field]} onChange={(event) => set('controller', { ...form.controller, [field]: event.target.value })} />
                  {check.controllerTooLong.includes(field) && <Field.ErrorText>{t('validation.tooLong', { max: CONTROLLER_TEXT_MAX })}</Field.ErrorText>}
                </Field.Root>
              ))}
            </SimpleGrid>
          </Section>

          {mode === 'add' && (
            <Section title={t('equipment.sections.assignment')} testId="section-assignment">
              <SimpleGrid minChildWidth={FIELD_MIN_WIDTH} gap="4">
                <RecordSelect field="pool" label={t('equipment.fields.pool')} testId="equipment-pool" rows={visible(pools)} value={form.equipmentpoolnodeid} onChange={(nodeid) => set('equipmentpoolnodeid', nodeid)} errorText={assignmentError} disabled={disabled} />
                <RecordSelect field="site" label={t('equipment.fields.site')} testId="equipment-site" rows={visible(sites)} value={form.sitenodeid} onChange={(nodeid) => setForm((current) => ({ ...current, sitenodeid: nodeid, areanodeid: null }))} disabled={disabled} />
                <RecordSelect field="area" label={t('equipment.fields.area')} testId="equipment-area" rows={siteAreas} value={form.areanodeid} onChange={(nodeid) => set('areanodeid', nodeid)} errorText={assignmentError} disabled={disabled || !form.sitenodeid} />
              </SimpleGrid>
            </Section>
          )}

          <Section title={t('equipment.sections.costs')} testId="section-costs">
            <Field.Root invalid={check.hourlyrateInvalid || check.hourlyrateTooBig !== undefined} disabled={disabled} maxW={{ md: 'sm' }}>
              <Field.Label>{t('equipment.fields.hourlyrate')}</Field.Label>
              <Input inputMode="decimal" data-testid="equipment-hourlyrate" value={form.hourlyrate} onChange={(event) => set('hourlyrate', event.target.value)} />
              {check.hourlyrateInvalid && <Field.ErrorText>{t('equipment.errors.invalidNumberFormat')}</Field.ErrorText>}
              {check.hourlyrateTooBig !== undefined && <Field.ErrorText data-testid="equipment-hourlyrate-error">{t('equipment.errors.tooBig', { max: check.hourlyrateTooBig })}</Field.ErrorText>}
            </Field.Root>
          </Section>

          <Section title={t('equipment.sections.operatingTimes')} testId="section-operating-times">
            <Checkbox.Root checked={form.useareashiftmodel} onCheckedChange={(details) => set('useareashiftmodel', details.checked === true)} disabled={disabled} size="lg" data-testid="use-area-shifts">
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{t('equipment.fields.useareashiftmodel')}</Checkbox.Label>
            </Checkbox.Root>
            {form.useareashiftmodel ? (
              <Text color="fg.muted" data-testid="area-shifts-summary">
                {!chosenArea ? t('equipment.shifts.noArea') : t('equipment.shifts.fromArea', { count: areaShifts.length })}
              </Text>
            ) : (
              <ShiftEditor shifts={shiftEditorRows} onChange={setShiftEditorRows} disabled={disabled} />
            )}
          </Section>

          {saveError && (
            <Alert.Root status="error" data-testid="equipment-save-error">
              <Alert.Indicator />
              <Alert.Title>{saveError}</Alert.Title>
            </Alert.Root>
          )}
        </Stack>

        <Stack gap="5" minW="0" position={{ '2xl': 'sticky' }} top={{ '2xl': '20' }} direction={{ base: 'column', md: 'row', '2xl': 'column' }} align={{ md: 'start', '2xl': 'stretch' }}>
          <Card.Root variant="elevated" data-testid="equipment-preview" flex={{ md: '1', '2xl': 'none' }} minW="0">
            <Box h="40" bg="bg.muted" borderTopRadius="l3" overflow="hidden" display="flex" alignItems="center" justifyContent="center">
              {imageUrl ? <img src={imageUrl} alt={form.name} style={{ width: '100%', height: '100%', objectFit: 'cover' }} /> : <Text color="fg.muted">{t('equipment.photo.none')}</Text>}
            </Box>
            <Card.Body gap="1">
              <Text fontWeight="bold" textStyle="lg" truncate>
                {truncateText(form.name || t('equipment.preview.unnamed'), CARD_TITLE_MAX)}
              </Text>
              <Text color="fg.muted" truncate>
                {brandAndModel(brandName, modelName) || '–'}
              </Text>
              <Text textStyle="sm" truncate>
                {[form.equipmentid, form.inventoryid].filter(Boolean).join(' · ') || '–'}
              </Text>
            </Card.Body>
          </Card.Root>
          {/* why a share of the row: beside the preview (md–xl) the sticker's long name must not push the preview down to a sliver. */}
          <Box flex={{ md: '1', '2xl': 'none' }} minW="0">
            <ServiceSticker
              saved={mode === 'edit'}
              data={{ nodeid, name: form.name, equipmentid: form.equipmentid || null, manufacturer: manufacturerName, brand: brandName, model: modelName, serialnumber: form.manufacturerserialnumber || null }}
            />
          </Box>
        </Stack>
      </Grid>

      <Flex position="fixed" bottom="0" left={{ base: '0', md: '60' }} right="0" zIndex="docked" gap="3" p="3" bg="bg.panel" borderTopWidth="1px" justify="flex-end" flexWrap="wrap">
        {mode === 'edit' && canDelete && (
          <Button variant="outline" colorPalette="red" onClick={() => setConfirmDelete(true)} disabled={busy} data-testid="equipment-delete" mr="auto">
            <Trash2 aria-hidden /> {t('equipment.delete.button')}
          </Button>
        )}
        <Button
          variant="ghost"
          onClick={() => {
            dropDraft();
            void navigate(-1);
          }}
          disabled={busy}
        >
          {t('equipment.cancel')}
        </Button>
        {/* why aria-disabled for an incomplete form: it looks and reads as disabled (§5) but a tap still says
            what is missing, which a disabled button cannot. */}
        <Button colorPalette="brand" onClick={() => void submit()} disabled={disabled} aria-disabled={blocked || undefined} loading={busy} loadingText={t('equipment.submit.busy')} data-testid="equipment-submit">
          {submitLabel}
        </Button>
      </Flex>

      <ConfirmDeleteDialog
        open={confirmDelete}
        title={t('equipment.delete.title')}
        text={t('equipment.delete.text', { name: form.name })}
        cancelLabel={t('equipment.cancel')}
        confirmLabel={t('equipment.delete.confirm')}
        confirmTestId="equipment-delete-confirm"
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          if (!machine) return;
          dropDraft();
          void remove(machine.nodeid);
        }}
        busy={deleting}
      />
    </Box>
  );
}
