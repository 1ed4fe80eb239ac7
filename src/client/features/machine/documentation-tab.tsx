/**
 * The documentation tab (spec part 1 §2.1 tab 2): one accordion per attachment category with its title, a counter
 * badge and the upload action; inside, a drag-and-drop zone and the category's documents. A PDF opens in the
 * viewer dialog (paging, download), other types download. Edit and delete by `equipment.attachment`. Everything
 * reads the local mirror and writes through the outbox, so it works offline.
 */
import { Accordion, Badge, Box, Button, chakra, Flex, HStack, IconButton, Skeleton, Stack, Text } from '@chakra-ui/react';
import { Download, Eye, FileSpreadsheet, FileText, FileType, Pencil, Trash2, Upload } from 'lucide-react';
import { useEffect, useId, useState, type ChangeEvent, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ATTACHMENT_CATEGORIES, type AttachmentCategory } from '../../../shared/domain/attachment';
import { sortDocumentationFiles, type RejectedFile } from '../../../shared/domain/documentation-upload';
import { deleteAttachment, updateAttachment } from '../../../shared/mutations/attachments';
import { attachFile } from '../../../shared/mutations/files';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { FormError } from '../../components/form-actions';
import { NotSyncedBadge } from '../../components/not-synced-badge';
import { PdfViewerDialog } from '../../components/pdf-viewer-dialog';
import { currentLanguage } from '../../lib/i18n';
import { useOnlineStatus } from '../../lib/use-online-status';
import { useMayRun } from '../../lib/use-permission';
import { downloadBlob } from '../../lib/download';
import type { MachineRecord } from '../../sync/machine-mirror';
import { useMachineDocuments, type MachineDocument } from '../../sync/machine-documents';
import { deleteDocument } from '../../sync/repositories/documents';
import { useWriteContext } from '../../sync/use-write-context';
import { DocumentEditDialog } from './document-edit-dialog';
import { documentBlob, downloadName, isPdf } from './document-files';
import { announceRejected, DOCUMENT_ACCEPT } from './document-rejections';
import { DocumentUploadDialog } from './document-upload-dialog';

/** "Truncation: attachment title in lists 80" (spec part 1 §9). */
const TITLE_MAX = 80;
const truncate = (value: string) => (value.length > TITLE_MAX ? `${value.slice(0, TITLE_MAX - 1)}…` : value);

function formatSize(bytes: number | null, language: string): string | null {
  if (bytes === null) return null;
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${kb.toLocaleString(language, { maximumFractionDigits: 0 })} KB`;
  return `${(kb / 1024).toLocaleString(language, { maximumFractionDigits: 1 })} MB`;
}

function DocumentIcon({ document }: { document: MachineDocument }) {
  if (isPdf(document)) return <FileType size={22} aria-hidden />;
  if (/excel|spreadsheet|csv/.test(document.mimetype ?? '')) return <FileSpreadsheet size={22} aria-hidden />;
  return <FileText size={22} aria-hidden />;
}

/** Drop files here, or tap to choose them: what the upload dialog then shows. */
function DropZone({ onFiles }: { onFiles(files: File[]): void }) {
  const { t } = useTranslation();
  const id = useId();
  const [active, setActive] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setActive(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(files);
  };
  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (files.length > 0) onFiles(files);
  };
  return (
    <Box
      position="relative"
      onDragOver={(event) => {
        event.preventDefault();
        setActive(true);
      }}
      onDragLeave={() => setActive(false)}
      onDrop={onDrop}
      borderWidth="2px"
      borderStyle="dashed"
      borderColor={active ? 'brand.solid' : 'border'}
      bg={active ? 'brand.subtle' : 'bg.subtle'}
      borderRadius="l3"
      px="4"
      py="3"
      textAlign="center"
      _focusWithin={{ outline: '2px solid', outlineColor: 'brand.solid', outlineOffset: '2px' }}
      data-testid="document-dropzone"
    >
      <Flex align="center" justify="center" gap="3" color="fg.muted" wrap="wrap">
        <Upload size={20} aria-hidden />
        <chakra.label htmlFor={id} fontWeight="medium" color="fg" cursor="pointer">
          {t('machineDocs.drop.text')}
        </chakra.label>
        <Text textStyle="sm">({t('machineDocs.upload.allowed')})</Text>
      </Flex>
      <chakra.input id={id} type="file" multiple accept={DOCUMENT_ACCEPT} onChange={onPick} position="absolute" inset="0" w="full" h="full" opacity={0} cursor="pointer" data-testid="document-dropzone-input" />
    </Box>
  );
}

interface DocumentRowProps {
  document: MachineDocument;
  language: string;
  canEdit: boolean;
  canDelete: boolean;
  onOpen(): void;
  onEdit(): void;
  onDelete(): void;
}

function DocumentRow({ document, language, canEdit, canDelete, onOpen, onEdit, onDelete }: DocumentRowProps) {
  const { t } = useTranslation();
  const meta = [document.extension?.toUpperCase() ?? null, formatSize(document.size, language)].filter(Boolean).join(' · ');
  return (
    <Flex as="li" align="center" gap="3" py="2" px="2" borderBottomWidth="1px" _last={{ borderBottomWidth: 0 }} data-testid="document-row" data-title={document.title}>
      <Box color="fg.muted" flexShrink={0}>
        <DocumentIcon document={document} />
      </Box>
      <Stack gap="0" minW="0" flex="1">
        <chakra.button type="button" onClick={onOpen} textAlign="start" fontWeight="medium" color="brand.fg" _hover={{ textDecoration: 'underline' }} minH="11" title={document.title} data-testid="document-open">
          {truncate(document.title)}
        </chakra.button>
        {document.description && (
          <Text textStyle="sm" color="fg.muted" lineClamp={2}>
            {document.description}
          </Text>
        )}
        <HStack gap="2">
          {meta && (
            <Text textStyle="xs" color="fg.subtle">
              {meta}
            </Text>
          )}
          {document.pending && <NotSyncedBadge />}
        </HStack>
      </Stack>
      <HStack gap="1" flexShrink={0}>
        <IconButton aria-label={t(isPdf(document) ? 'machineDocs.actions.open' : 'machineDocs.actions.download', { title: document.title })} variant="ghost" size="lg" onClick={onOpen}>
          {isPdf(document) ? <Eye /> : <Download />}
        </IconButton>
        {canEdit && (
          <IconButton aria-label={t('machineDocs.actions.edit', { title: document.title })} variant="ghost" size="lg" onClick={onEdit} data-testid="document-edit">
            <Pencil />
          </IconButton>
        )}
        {canDelete && (
          <IconButton aria-label={t('machineDocs.actions.delete', { title: document.title })} variant="ghost" size="lg" colorPalette="red" onClick={onDelete} data-testid="document-delete">
            <Trash2 />
          </IconButton>
        )}
      </HStack>
    </Flex>
  );
}

/** The open document's bytes, for the viewer: undefined while fetched, null when the device cannot get them. */
function useDocumentBytes(document: MachineDocument | null): ArrayBuffer | null | undefined {
  const online = useOnlineStatus();
  const [state, setState] = useState<{ nodeid: string; bytes: ArrayBuffer | null } | null>(null);
  const nodeid = document?.nodeid ?? null;
  useEffect(() => {
    if (!document) return undefined;
    const controller = new AbortController();
    void documentBlob(document, online, controller.signal)
      .then((blob) => (blob ? blob.arrayBuffer() : null))
      .catch(() => null)
      .then((bytes) => !controller.signal.aborted && setState({ nodeid: document.nodeid, bytes }));
    return () => controller.abort();
    // The document's identity decides; a live re-read of the same row must not fetch again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nodeid, online]);
  return state && state.nodeid === nodeid ? state.bytes : undefined;
}

export function DocumentationTab({ machine }: { machine: MachineRecord }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const online = useOnlineStatus();
  const context = useWriteContext();
  const documents = useMachineDocuments(machine.nodeid, language);
  const canUpload = useMayRun(attachFile);
  const canEdit = useMayRun(updateAttachment);
  const canDelete = useMayRun(deleteAttachment);
  const [upload, setUpload] = useState<{ accepted: File[]; rejected: RejectedFile<File>[]; category: AttachmentCategory | null } | null>(null);
  const [viewing, setViewing] = useState<MachineDocument | null>(null);
  const [editing, setEditing] = useState<MachineDocument | null>(null);
  const [deleting, setDeleting] = useState<MachineDocument | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The open categories: at first those with documents; a category a document was just uploaded to opens.
  const [openItems, setOpenItems] = useState<string[] | null>(null);
  const viewerBytes = useDocumentBytes(viewing);

  const chooseFiles = (files: File[], category: AttachmentCategory | null) => {
    const sorted = sortDocumentationFiles(files);
    announceRejected(sorted.rejected, t);
    setUpload({ ...sorted, category });
  };

  const open = async (document: MachineDocument) => {
    setError(null);
    if (isPdf(document)) {
      setViewing(document);
      return;
    }
    const blob = await documentBlob(document, online).catch(() => null);
    if (blob) downloadBlob(blob, downloadName(document));
    else setError(online ? t('machineDocs.errors.download') : t('machineDocs.errors.offlineUnavailable'));
  };

  const download = () => {
    if (viewing && viewerBytes) downloadBlob(new Blob([viewerBytes], { type: 'application/pdf' }), downloadName(viewing));
  };

  const confirmDelete = async () => {
    if (!deleting || !context) return;
    try {
      await deleteDocument(context, deleting.nodeid);
      setDeleting(null);
    } catch {
      setDeleting(null);
      setError(t('machineDocs.errors.delete'));
    }
  };

  if (!documents) {
    return (
      <Stack gap="3" role="status" aria-busy="true" aria-label={t('machineDocs.loading')}>
        {ATTACHMENT_CATEGORIES.map((category) => (
          <Skeleton key={category} h="14" />
        ))}
      </Stack>
    );
  }

  const expanded = openItems ?? ATTACHMENT_CATEGORIES.filter((category) => documents[category].length > 0);
  const uploaded = (category: AttachmentCategory) => {
    setUpload(null);
    setOpenItems(expanded.includes(category) ? expanded : [...expanded, category]);
  };
  const total = ATTACHMENT_CATEGORIES.reduce((sum, category) => sum + documents[category].length, 0);
  return (
    <Stack gap="4" data-testid="documentation-tab">
      <FormError error={error} />
      {total === 0 && (
        <Text color="fg.muted" data-testid="documents-empty">
          {t('machineDocs.empty')}
        </Text>
      )}
      <Accordion.Root multiple value={expanded} onValueChange={(details) => setOpenItems(details.value)} variant="enclosed" size="lg">
        {ATTACHMENT_CATEGORIES.map((category) => {
          const list = documents[category];
          return (
            <Accordion.Item key={category} value={category} data-testid={`documents-${category}`}>
              <Flex align="center" gap="2" pe="3">
                <Accordion.ItemTrigger flex="1" minH="14">
                  <HStack flex="1" gap="3">
                    <Text fontWeight="semibold">{t(`machineDocs.category.${category}`)}</Text>
                    <Badge colorPalette={list.length > 0 ? 'brand' : 'gray'} variant="subtle" data-testid="documents-count" aria-label={t('machineDocs.count', { count: list.length })}>
                      {list.length}
                    </Badge>
                  </HStack>
                  <Accordion.ItemIndicator />
                </Accordion.ItemTrigger>
                {canUpload && (
                  <Button variant="outline" size="md" minH="11" minW="11" onClick={() => setUpload({ accepted: [], rejected: [], category })} data-testid="documents-upload">
                    <Upload aria-hidden />
                    <Box as="span" display={{ base: 'none', sm: 'inline' }}>
                      {t('machineDocs.uploadButton')}
                    </Box>
                  </Button>
                )}
              </Flex>
              <Accordion.ItemContent>
                <Accordion.ItemBody>
                  <Stack gap="3">
                    {list.length === 0 ? (
                      <Text color="fg.muted" textStyle="sm">
                        {t('machineDocs.categoryEmpty')}
                      </Text>
                    ) : (
                      <chakra.ul listStyleType="none" m="0" p="0">
                        {list.map((document) => (
                          <DocumentRow
                            key={document.nodeid}
                            document={document}
                            language={language}
                            canEdit={canEdit}
                            canDelete={canDelete}
                            onOpen={() => void open(document)}
                            onEdit={() => setEditing(document)}
                            onDelete={() => setDeleting(document)}
                          />
                        ))}
                      </chakra.ul>
                    )}
                    {canUpload && <DropZone onFiles={(files) => chooseFiles(files, category)} />}
                  </Stack>
                </Accordion.ItemBody>
              </Accordion.ItemContent>
            </Accordion.Item>
          );
        })}
      </Accordion.Root>

      {upload && <DocumentUploadDialog equipmentnodeid={machine.nodeid} initial={upload} category={upload.category} onClose={() => setUpload(null)} onSaved={uploaded} />}
      {editing && <DocumentEditDialog document={editing} onClose={() => setEditing(null)} />}
      {viewing && (
        <PdfViewerDialog
          title={viewing.title}
          bytes={viewerBytes}
          unavailableText={online ? t('machineDocs.errors.download') : t('machineDocs.errors.offlineUnavailable')}
          onDownload={download}
          onClose={() => setViewing(null)}
        />
      )}
      <ConfirmDeleteDialog
        open={deleting !== null}
        title={t('machineDocs.delete.title')}
        text={t('machineDocs.delete.text', { topic: deleting?.title ?? '' })}
        cancelLabel={t('machineDocs.delete.cancel')}
        confirmLabel={t('machineDocs.delete.confirm')}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
