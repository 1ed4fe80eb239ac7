/**
 * /export: the equipment as a CSV file for Excel (from the local mirror, so also offline), the import of such a
 * file with a dry run that shows every row's outcome and errors before anything is written, and the sticker
 * sheet (several machines' service stickers on A4).
 */
import { Alert, Badge, Box, Button, Card, Checkbox, Heading, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { Download, FileUp, Printer } from 'lucide-react';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { localized } from '../../../shared/domain/text';
import { CsvSyntaxError, decodeCsv, looksBinary, parseCsvTable, serializeCsv } from '../../lib/csv';
import { holdPageOpen } from '../../lib/hold-page-open';
import { currentLanguage, i18n as appI18n } from '../../lib/i18n';
import { withToggled } from '../../lib/sets';
import { usePermission } from '../../lib/use-permission';
import { useStickerBaseUrl } from '../../lib/use-sticker-base';
import { PENDING_DELETE } from '../../sync/mirror-fields';
import { writeTogether } from '../../sync/outbox';
import { createEquipment, updateEquipment } from '../../sync/repositories/equipment';
import { useMirrorRows } from '../../sync/use-mirror';
import { isQuotaExceeded, useWriteContext } from '../../sync/use-write-context';
import { catalogForExecution, equipmentCsvRows, planEquipmentImport, rowsToWrite, type CsvHeaderNames, type CsvMirror, type EquipmentCsvColumn, type ImportPlan, type RowError } from './equipment-csv';
import { checkForm, mirrorCatalogLookup } from './equipment-form-model';
import { useStickerLabels } from '../../lib/use-sticker-labels';
import { downloadBlob } from '../../lib/download';
import type { StickerData } from '../../lib/sticker-pdf';

function useCsvMirror(): CsvMirror | undefined {
  const equipment = useMirrorRows('equipment');
  const manufacturers = useMirrorRows('manufacturers');
  const brands = useMirrorRows('brands');
  const equipmenttypes = useMirrorRows('equipmenttypes');
  const equipmentclasses = useMirrorRows('equipmentclasses');
  const sites = useMirrorRows('sites');
  const areas = useMirrorRows('areas');
  const equipmentpools = useMirrorRows('equipmentpools');
  return useMemo(() => {
    const all = [equipment, manufacturers, brands, equipmenttypes, equipmentclasses, sites, areas, equipmentpools];
    if (all.some((rows) => rows === undefined)) return undefined;
    const live = (rows: typeof equipment) => (rows ?? []).filter((row) => !row[PENDING_DELETE]);
    return {
      equipment: live(equipment),
      manufacturers: live(manufacturers),
      brands: live(brands),
      equipmenttypes: live(equipmenttypes),
      equipmentclasses: live(equipmentclasses),
      sites: live(sites),
      areas: live(areas),
      equipmentpools: live(equipmentpools),
    };
  }, [equipment, manufacturers, brands, equipmenttypes, equipmentclasses, sites, areas, equipmentpools]);
}

/** One task of the screen (export, import, sticker sheet): its title, what it does, and its controls. */
function ExportCard({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <Card.Root variant="outline">
      <Card.Body gap="4">
        <Heading as="h2" size="lg">
          {title}
        </Heading>
        <Text color="fg.muted">{intro}</Text>
        {children}
      </Card.Body>
    </Card.Root>
  );
}

export function ExportScreen() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const mirror = useCsvMirror();
  const context = useWriteContext();
  const canCreate = usePermission('equipment', 'create');
  const canUpdate = usePermission('equipment', 'update');
  const fileInput = useRef<HTMLInputElement>(null);
  const [plan, setPlan] = useState<ImportPlan | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [imported, setImported] = useState<number | null>(null);

  const header = (column: EquipmentCsvColumn) => t(`csv.columns.${column}`);
  const headerNames: CsvHeaderNames = (column) => ({ de: appI18n.getFixedT('de')(`csv.columns.${column}`), en: appI18n.getFixedT('en')(`csv.columns.${column}`) });

  const exportCsv = () => {
    if (!mirror) return;
    const text = serializeCsv(equipmentCsvRows(mirror, lang, header));
    downloadBlob(new Blob([text], { type: 'text/csv;charset=utf-8' }), `${t('csv.fileName')}.csv`);
  };

  const readFile = async (file: File | undefined) => {
    if (!file || !mirror) return;
    setFileError(null);
    setImported(null);
    setPlan(null);
    try {
      const bytes = await file.arrayBuffer();
      // A photo or a workbook chosen by mistake: one message, not its bytes as "unknown columns" and an error per line.
      if (looksBinary(bytes)) return setFileError(t('csv.notCsv', { file: file.name }));
      const { rows, rowNumbers } = parseCsvTable(decodeCsv(bytes));
      if (rows.length === 0) return setFileError(t('csv.empty'));
      const next = planEquipmentImport(rows, mirror, lang, headerNames, Date.now(), rowNumbers);
      if (next.columns.length === 0) return setFileError(t('csv.noColumns', { file: file.name, example: header('name') }));
      if (rows.length < 2) return setFileError(t('csv.empty'));
      setPlan(next);
    } catch (error) {
      setFileError(error instanceof CsvSyntaxError ? t('csv.syntax', { line: error.line }) : t('csv.unreadable'));
    } finally {
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const runImport = async () => {
    if (!plan || !context || !mirror) return;
    setImporting(true);
    // Closing the tab now would throw the whole import away (it commits at the end): the browser asks first.
    const release = holdPageOpen();
    const lookup = mirrorCatalogLookup(mirror.brands, mirror.equipmenttypes);
    const created = new Set<string>();
    let count = 0;
    try {
      // All or nothing: while a row has an error, nothing is written (docs/decisions.md, CSV import); and the rows
      // are written in one transaction — a tab closed or a disk full halfway leaves none of them, and the device
      // commits once (one machine per transaction took ~170 ms a row).
      await writeTogether(context, async () => {
        for (const row of rowsToWrite(plan)) {
          if (row.action === 'update' && !canUpdate) continue;
          if (row.action === 'create' && !canCreate) continue;
          const values = checkForm(row.state, row.action === 'create' ? 'add' : 'edit', lang, lookup).values;
          if (!values) continue;
          const catalog = catalogForExecution(row.state.catalog, created);
          if (row.action === 'create') {
            await createEquipment(context, { nodeid: row.nodeid, values, catalog, areanodeid: row.state.areanodeid, equipmentpoolnodeid: row.state.equipmentpoolnodeid, photos: {}, lang });
          } else {
            await updateEquipment(context, row.machine, { values, catalog, photos: {}, lang });
          }
          count += 1;
        }
      });
      setPlan(null);
      setImported(count);
    } catch (error) {
      setFileError(isQuotaExceeded(error) ? t('sync.errors.quota') : t('csv.importFailed'));
    } finally {
      release();
      setImporting(false);
    }
  };

  const counts = plan ? { create: 0, update: 0, unchanged: 0, error: 0, ...Object.fromEntries(['create', 'update', 'unchanged', 'error'].map((action) => [action, plan.rows.filter((row) => row.action === action).length])) } : null;
  const writable = counts ? counts.create + counts.update : 0;
  const blocked = (counts?.error ?? 0) > 0;
  const errorText = (error: RowError) =>
    t(`csv.errors.${error.code}`, {
      value: error.value ?? '',
      max: error.max ?? 0,
      name: error.name ?? '',
      lines: (error.lines ?? []).join(', '),
      column: error.column ? t(`csv.columns.${error.column as EquipmentCsvColumn}`, { defaultValue: error.column }) : '',
    });

  return (
    <Stack gap="6" p={{ base: '4', md: '6' }} maxW="6xl">
      <ExportCard title={t('csv.exportTitle')} intro={t('csv.exportText', { count: mirror?.equipment.length ?? 0 })}>
        <Box>
          <Button colorPalette="brand" onClick={exportCsv} disabled={!mirror} data-testid="csv-export">
            <Download aria-hidden /> {t('csv.export')}
          </Button>
        </Box>
      </ExportCard>

      <ExportCard title={t('csv.importTitle')} intro={t('csv.importText')}>
        <Box>
          <Button variant="outline" onClick={() => fileInput.current?.click()} disabled={!mirror || !canCreate || importing}>
            <FileUp aria-hidden /> {t('csv.chooseFile')}
          </Button>
          <Input ref={fileInput} type="file" accept=".csv,text/csv" hidden data-testid="csv-import-input" onChange={(event) => void readFile(event.target.files?.[0])} />
        </Box>
        {!canCreate && (
          <Text color="fg.muted" data-testid="csv-import-not-allowed">
            {t('csv.notAllowed')}
          </Text>
        )}
        {fileError && (
          <Alert.Root status="error" data-testid="csv-file-error">
            <Alert.Indicator />
            <Alert.Title>{fileError}</Alert.Title>
          </Alert.Root>
        )}
        {imported !== null && (
          <Alert.Root status="success" data-testid="csv-imported">
            <Alert.Indicator />
            <Alert.Title>{t('csv.imported', { count: imported })}</Alert.Title>
          </Alert.Root>
        )}
        {plan && counts && (
          <Stack gap="3" data-testid="csv-preview">
            <HStack gap="2" flexWrap="wrap">
              <Badge colorPalette="green" size="lg">{t('csv.counts.create', { count: counts.create })}</Badge>
              <Badge colorPalette="blue" size="lg">{t('csv.counts.update', { count: counts.update })}</Badge>
              <Badge colorPalette="gray" size="lg">{t('csv.counts.unchanged', { count: counts.unchanged })}</Badge>
              {/* Red only when there is something to fix: "0 Zeilen mit Fehlern" in red read as an alarm. */}
              <Badge colorPalette={counts.error > 0 ? 'red' : 'gray'} size="lg" data-testid="csv-error-count" data-errors={counts.error}>
                {t('csv.counts.error', { count: counts.error })}
              </Badge>
            </HStack>
            {plan.unknownHeaders.length > 0 && <Text color="orange.fg">{t('csv.unknownHeaders', { headers: plan.unknownHeaders.join(', ') })}</Text>}
            {plan.missingHeaders.length > 0 && <Text color="orange.fg">{t('csv.missingHeaders', { headers: plan.missingHeaders.map(header).join(', ') })}</Text>}
            <Box overflowX="auto" borderWidth="1px" borderRadius="l2">
              <Table.Root size="sm">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>{t('csv.line')}</Table.ColumnHeader>
                    <Table.ColumnHeader>{t('csv.columns.name')}</Table.ColumnHeader>
                    <Table.ColumnHeader>{t('csv.outcome')}</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {plan.rows.map((row) => (
                    <Table.Row key={row.line} data-testid="csv-row" data-action={row.action}>
                      <Table.Cell>{row.line}</Table.Cell>
                      <Table.Cell>{row.name || '–'}</Table.Cell>
                      <Table.Cell>
                        {row.action === 'error' ? (
                          <Stack gap="0.5" color="fg.error">
                            {row.errors.map((error, index) => (
                              <Text key={index} textStyle="sm">
                                {errorText(error)}
                              </Text>
                            ))}
                          </Stack>
                        ) : (
                          <HStack gap="2" flexWrap="wrap">
                            <Badge colorPalette={row.action === 'create' ? 'green' : row.action === 'update' ? 'blue' : 'gray'}>{t(`csv.actions.${row.action}`)}</Badge>
                            {row.action === 'update' && (
                              <Text textStyle="sm" data-testid="csv-row-changes">
                                {row.changes.map(header).join(', ')}
                              </Text>
                            )}
                          </HStack>
                        )}
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Box>
            <HStack gap="3" justify="flex-end" flexWrap="wrap">
              <Button variant="ghost" onClick={() => setPlan(null)} disabled={importing}>
                {t('equipment.cancel')}
              </Button>
              <Button
                colorPalette="brand"
                onClick={() => void runImport()}
                disabled={writable === 0 || blocked}
                loading={importing}
                aria-describedby={blocked ? 'csv-import-blocked' : undefined}
                data-testid="csv-run-import"
              >
                {t('csv.run', { count: writable })}
              </Button>
            </HStack>
            {blocked && (
              <Text id="csv-import-blocked" textStyle="sm" color="fg.error" data-testid="csv-import-blocked">
                {t('csv.errorsBlockImport', { count: counts.error })}
              </Text>
            )}
          </Stack>
        )}
      </ExportCard>

      {mirror && <StickerSheetCard mirror={mirror} />}
    </Stack>
  );
}

function StickerSheetCard({ mirror }: { mirror: CsvMirror }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const baseUrl = useStickerBaseUrl();
  const labels = useStickerLabels();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const machines = useMemo(() => [...mirror.equipment].sort((a, b) => (localized(a.name, lang) ?? '').localeCompare(localized(b.name, lang) ?? '', lang)), [mirror.equipment, lang]);
  const stickerOf = (row: (typeof machines)[number]): StickerData => {
    const type = mirror.equipmenttypes.find((candidate) => candidate.nodeid === row.equipmenttypenodeid);
    const brand = mirror.brands.find((candidate) => candidate.nodeid === type?.brandnodeid);
    const manufacturer = mirror.manufacturers.find((candidate) => candidate.nodeid === brand?.manufacturernodeid);
    return {
      nodeid: row.nodeid,
      name: localized(row.name, lang) ?? '',
      equipmentid: typeof row.equipmentid === 'string' ? row.equipmentid : null,
      manufacturer: manufacturer ? localized(manufacturer.name, lang) ?? '' : null,
      brand: brand ? localized(brand.name, lang) ?? '' : null,
      model: type ? localized(type.model, lang) ?? '' : null,
      serialnumber: typeof row.manufacturerserialnumber === 'string' ? row.manufacturerserialnumber : null,
    };
  };
  const toggle = (nodeid: string, on: boolean) => setSelected((current) => withToggled(current, nodeid, on));
  const print = async () => {
    setBusy(true);
    try {
      const list = machines.filter((row) => selected.has(row.nodeid)).map(stickerOf);
      const { stickerSheetPdf } = await import('../../lib/sticker-pdf'); // with the PDF writer, on the tap (docs/decisions.md § Chunks)
      downloadBlob(await stickerSheetPdf(list, baseUrl, labels, t('sticker.sheet.title')), `${t('sticker.sheet.fileName')}.pdf`);
    } finally {
      setBusy(false);
    }
  };
  const allSelected = machines.length > 0 && selected.size === machines.length;
  return (
    <ExportCard title={t('sticker.sheet.title')} intro={t('sticker.sheet.select')}>
      <Checkbox.Root checked={allSelected} onCheckedChange={(details) => setSelected(details.checked === true ? new Set(machines.map((row) => row.nodeid)) : new Set())} size="lg">
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>{t('sticker.sheet.selectAll')}</Checkbox.Label>
      </Checkbox.Root>
      <Box maxH="80" overflowY="auto" borderWidth="1px" borderRadius="l2" p="2" data-testid="sticker-sheet-list">
        {machines.map((row) => (
          <Checkbox.Root key={row.nodeid} checked={selected.has(row.nodeid)} onCheckedChange={(details) => toggle(row.nodeid, details.checked === true)} size="lg" minH="11" w="full" px="2">
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>
              {localized(row.name, lang)}
              {typeof row.equipmentid === 'string' && row.equipmentid ? ` · ${row.equipmentid}` : ''}
            </Checkbox.Label>
          </Checkbox.Root>
        ))}
      </Box>
      <Box>
        <Button colorPalette="brand" onClick={() => void print()} disabled={selected.size === 0} loading={busy} data-testid="sticker-sheet-print">
          <Printer aria-hidden /> {selected.size === 0 ? t('sticker.sheet.none') : t('sticker.sheet.print', { count: selected.size })}
        </Button>
      </Box>
    </ExportCard>
  );
}

