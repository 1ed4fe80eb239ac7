/**
 * The sync panel (drawer from the right): connection, last sync, errors in plain words, "Jetzt synchronisieren",
 * the unsent changes in order (one item per user action, however many requests it takes) and the changes the
 * server refused — each refused one can be sent again (all at once too) or, after a confirmation, discarded. One that
 * would only be refused again is not offered for sending: a stale status change opens its notification instead, a
 * change of a record deleted on the server says so; a report refused because its machine was deleted can be given
 * another machine (ReassignDialog). Its buttons are 44 px high, a gloved finger's target on a tablet. A change the server keeps failing on (a
 * server error, not an outage) blocks the ones behind it; the panel offers to set it aside among the refused ones.
 */
import { Alert, Badge, Box, Button, CloseButton, Drawer, Flex, Heading, HStack, Portal, Stack, Text } from '@chakra-ui/react';
import { ArrowRightLeft, CirclePause, ExternalLink, RotateCcw, Trash2, Wifi, WifiOff } from 'lucide-react';
import { Link as RouterLink } from 'react-router-dom';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';
import { ReassignDialog, type ReassignDialogProps } from './reassign-dialog';
import { StorageUsage } from './storage-usage';
import { formatDateTime } from '../lib/dates';
import { useOfflineReadiness } from '../lib/offline-readiness';
import { useSessionStore } from '../stores/session-store';
import { useSyncStatus, type SyncErrorKind } from '../stores/sync-store';
import { discardRefusedChange, isRecordGone, retryAllRefusedChanges, retryRefusedChange, setAsideStuckChange, syncNow } from '../sync/app-sync';
import type de from '../i18n/de.json';
import { useSyncLists, type Description, type SyncListItem } from '../sync/use-sync-lists';

type DescribeKey = keyof typeof de.sync.describe;

/** The text of a described entry: `sync.describe.<action>` with its values, unknown ones as a placeholder. */
export function useDescribe(): (description: Description) => string {
  const { t } = useTranslation();
  return (description) => {
    const unknown = t('sync.describe.unknownRecord');
    const values: Record<string, string | number> = { name: unknown };
    for (const [key, value] of Object.entries(description.params)) values[key] = value ?? unknown;
    if (description.status !== undefined) {
      const status = description.status;
      values.status = status === 0 || status === 1 || status === 2 ? t(`sync.status.${status}`) : String(status);
    }
    return t(`sync.describe.${description.action as DescribeKey}`, values);
  };
}

function ItemRow({ item, describe, children }: { item: SyncListItem; describe: (d: Description) => string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box as="li" listStyleType="none" borderWidth="1px" borderRadius="l2" px="3" py="2" bg="bg.panel">
      <Text fontWeight="medium">{describe(item.description)}</Text>
      <Text textStyle="sm" color="fg.muted">
        {t('sync.panel.savedAt', { time: formatDateTime(item.createdAt) })}
      </Text>
      {item.refusedStatus === undefined && item.attempts > 0 && item.lastError && item.lastError !== 'network' && item.stuckSeq === undefined && (
        // A server hiccup is retried by itself: said calmly, without counting failures. No connection is not worth
        // a line per change at all (the panel says it once).
        <Text textStyle="sm" color="fg.muted">
          {t('sync.panel.retrying')}
        </Text>
      )}
      {item.refusedStatus !== undefined && (
        <>
          <Text textStyle="sm" color="red.fg">
            {item.refusedCreate ? t('sync.panel.refused.createRefused', { what: describe(item.refusedCreate) }) : t(`sync.panel.refused.${item.refusedReason ?? 'other'}`)}
          </Text>
          {/* The server's own words (English, for support) as the detail. */}
          <Text textStyle="xs" color="fg.muted">
            {t('sync.panel.serverSaid', { message: item.refusedMessage ?? `HTTP ${item.refusedStatus}` })}
          </Text>
          {item.content && (
            // What the user typed, selectable: a change the server will never take can be copied before "Verwerfen".
            <Box as="dl" mt="1" px="2" py="1" bg="bg.muted" borderRadius="l1" textStyle="sm" userSelect="text" aria-label={t('sync.panel.content')} data-testid="refused-content">
              {item.content.map(({ field, text }) => (
                <Box key={field} display="flex" gap="1" flexWrap="wrap">
                  <Text as="dt" fontWeight="medium" flexShrink={0}>
                    {/* why the space: copied or read out, label and text stay two words */}
                    {t(`sync.panel.fields.${field}`)}:{' '}
                  </Text>
                  <Text as="dd" m="0" whiteSpace="pre-wrap" wordBreak="break-word" minW="0">
                    {text}
                  </Text>
                </Box>
              ))}
            </Box>
          )}
          {item.retryWith !== undefined && item.mayRetry && (
            <Text textStyle="sm" color="fg.muted">
              {t('sync.panel.retryWith', { count: item.retryWith })}
            </Text>
          )}
          {item.mayRetry === false && item.opens === undefined && (
            // Deleted on the server: the same request would be refused again, so the panel does not offer it.
            <Text textStyle="sm" color="fg.muted" data-testid="refused-cannot-retry">
              {item.reassign
                ? t('sync.panel.cannotRetryReassign')
                : item.refusedCreate && item.refusedCreateReassignable
                  ? t('sync.panel.cannotRetryGoesAlong', { what: describe(item.refusedCreate) })
                  : t('sync.panel.cannotRetry')}
            </Text>
          )}
        </>
      )}
      {children}
    </Box>
  );
}

/** The head of the queue the server keeps failing on: what that means, and "Zurückstellen". */
function StuckActions({ seq }: { seq: number }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const setAside = async () => {
    setBusy(true);
    setFailed(false);
    try {
      await setAsideStuckChange(seq);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="2" mt="2" data-testid="stuck-change">
      <Text textStyle="sm" color="orange.fg">
        {t('sync.panel.stuck')}
      </Text>
      <Flex gap="2" wrap="wrap">
        <Button size="lg" variant="outline" colorPalette="orange" loading={busy} onClick={() => void setAside()}>
          <CirclePause size={16} aria-hidden />
          {t('sync.panel.setAside')}
        </Button>
      </Flex>
      {failed && (
        <Text textStyle="sm" color="red.fg" role="alert">
          {t('sync.panel.setAsideFailed')}
        </Text>
      )}
    </Stack>
  );
}

/** Errors the user has to do something about (log in again, free storage); the others resolve by themselves. */
const mustAct = (kind: SyncErrorKind): boolean => kind === 'session' || kind === 'quota' || kind === 'devices';

export function SyncPanel({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t, i18n } = useTranslation();
  const describe = useDescribe();
  const usernodeid = useSessionStore((s) => s.session?.usernodeid ?? null);
  const lists = useSyncLists(open ? usernodeid : null, i18n.language);
  const online = useSyncStatus((s) => s.online);
  const sending = useSyncStatus((s) => s.sending || s.pulling);
  const error = useSyncStatus((s) => s.error);
  // The change the server keeps failing on says what is wrong itself ("antwortet gerade nicht" would not be true).
  const stuck = useSyncStatus((s) => s.stuck);
  const lastSyncAt = useSyncStatus((s) => s.lastSyncAt);
  const others = useSyncStatus((s) => s.otherUsersPendingCount);
  const lost = useSyncStatus((s) => s.serverLostWrites);
  const preparingOffline = useOfflineReadiness() === 'preparing';
  const [confirm, setConfirm] = useState<SyncListItem | null>(null);
  // The refused change "Erneut senden" could not queue again (it changed meanwhile, the disk is full): said there.
  const [retryFailed, setRetryFailed] = useState<{ id: number | 'all'; gone: number } | null>(null);
  const [reassigning, setReassigning] = useState<ReassignDialogProps['item'] | null>(null);

  return (
    <>
      <Drawer.Root lazyMount unmountOnExit open={open} onOpenChange={(details) => onOpenChange(details.open)} placement="end" size="md">
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content>
              <Drawer.Header>
                <Drawer.Title>{t('sync.panel.title')}</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body>
                <Stack gap="4">
                  <HStack gap="2">
                    <Badge colorPalette={online ? 'green' : 'orange'} size="lg" gap="1.5">
                      {online ? <Wifi size={16} aria-hidden /> : <WifiOff size={16} aria-hidden />}
                      {online ? t('sync.panel.online') : t('sync.panel.offline')}
                    </Badge>
                  </HStack>
                  <Text>{lastSyncAt ? t('sync.lastSync', { time: formatDateTime(lastSyncAt) }) : t('sync.neverSynced')}</Text>
                  {preparingOffline && (
                    // The data may be here already, the app's own files not: offline, the device could not start it.
                    <Alert.Root status="warning" data-testid="sync-preparing-offline">
                      <Alert.Indicator />
                      <Alert.Content>
                        <Alert.Description>{t(online ? 'sync.panel.preparingOffline' : 'sync.panel.preparingOfflineWaiting')}</Alert.Description>
                      </Alert.Content>
                    </Alert.Root>
                  )}
                  {error && !(stuck && error.kind === 'server') && (
                    // Offline or a server hiccup is the expected state in a hall, not a failure: calm words, no
                    // retry clock. Red only for what the user must act on (logged out, storage full).
                    <Alert.Root status={mustAct(error.kind) ? 'error' : 'info'} data-testid="sync-error" data-severity={mustAct(error.kind) ? 'error' : 'info'}>
                      <Alert.Indicator />
                      <Alert.Content>
                        <Alert.Description>{t(`sync.errors.${error.kind}`)}</Alert.Description>
                      </Alert.Content>
                    </Alert.Root>
                  )}
                  {lost > 0 && (
                    <Alert.Root status="error">
                      <Alert.Indicator />
                      <Alert.Description>{t('sync.errors.serverLost', { count: lost })}</Alert.Description>
                    </Alert.Root>
                  )}
                  {/* Offline there is nobody to sync with: the engine starts by itself when the connection is back. */}
                  <Button size="lg" colorPalette="brand" onClick={() => void syncNow()} loading={sending} disabled={!usernodeid || !online}>
                    {t('sync.panel.syncNow')}
                  </Button>

                  <Heading as="h2" size="md">
                    {t('sync.panel.pendingTitle')} ({lists?.pending.length ?? 0})
                  </Heading>
                  {lists && lists.pending.length === 0 && <Text color="fg.muted">{t('sync.panel.pendingEmpty')}</Text>}
                  <Stack as="ol" gap="2" m="0" p="0">
                    {lists?.pending.map((item) => (
                      <ItemRow key={`p${item.id}`} item={item} describe={describe}>
                        {item.stuckSeq !== undefined && <StuckActions seq={item.stuckSeq} />}
                      </ItemRow>
                    ))}
                  </Stack>
                  {others > 0 && <Text textStyle="sm" color="fg.muted">{t('sync.panel.otherUsers', { count: others })}</Text>}

                  {lists && lists.refused.length > 0 && (
                    <>
                      <Heading as="h2" size="md" color="red.fg">
                        {t('sync.panel.deadTitle')} ({lists.refused.length})
                      </Heading>
                      <Text textStyle="sm">{t('sync.panel.deadHint')}</Text>
                      {lists.refused.filter((item) => item.mayRetry).length > 1 && usernodeid && (
                        <Flex>
                          <Button
                            size="lg"
                            variant="outline"
                            onClick={() => {
                              setRetryFailed(null);
                              retryAllRefusedChanges(usernodeid)
                                .then(({ failed, gone }) => failed > 0 && setRetryFailed({ id: 'all', gone }))
                                .catch(() => setRetryFailed({ id: 'all', gone: 0 }));
                            }}
                          >
                            <RotateCcw size={16} aria-hidden />
                            {t('sync.panel.retryAll')}
                          </Button>
                        </Flex>
                      )}
                      {retryFailed?.id === 'all' && (
                        <Text textStyle="sm" color="red.fg" role="alert">
                          {retryFailed.gone > 0 ? t('sync.panel.retryGone', { count: retryFailed.gone }) : t('sync.panel.retryFailed')}
                        </Text>
                      )}
                      <Stack as="ul" gap="2" m="0" p="0">
                        {lists.refused.map((item) => (
                          <ItemRow key={`d${item.id}`} item={item} describe={describe}>
                            <Flex gap="2" mt="2" wrap="wrap">
                              {item.reassign && (
                                <Button size="lg" colorPalette="brand" onClick={() => setReassigning({ ...item, reassign: item.reassign! })} data-testid="reassign-open">
                                  <ArrowRightLeft size={16} aria-hidden />
                                  {t('sync.panel.reassign')}
                                </Button>
                              )}
                              {item.opens !== undefined ? (
                                // Sending it again would meet the same refusal: the user decides anew where the record stands now.
                                <Button asChild size="lg" colorPalette="brand">
                                  <RouterLink to={item.opens} onClick={() => onOpenChange(false)}>
                                    <ExternalLink size={16} aria-hidden />
                                    {t('sync.panel.openNotification')}
                                  </RouterLink>
                                </Button>
                              ) : item.mayRetry ? (
                                <Button
                                  size="lg"
                                  variant="outline"
                                  onClick={() => {
                                    setRetryFailed(null);
                                    retryRefusedChange(item.id).catch((error: unknown) => setRetryFailed({ id: item.id, gone: isRecordGone(error) ? 1 : 0 }));
                                  }}
                                >
                                  <RotateCcw size={16} aria-hidden />
                                  {t('sync.panel.retry')}
                                </Button>
                              ) : null}
                              <Button size="lg" variant="outline" colorPalette="red" onClick={() => setConfirm(item)}>
                                <Trash2 size={16} aria-hidden />
                                {t('sync.panel.discard')}
                              </Button>
                            </Flex>
                            {retryFailed?.id === item.id && (
                              <Text textStyle="sm" color="red.fg" role="alert" mt="2">
                                {retryFailed.gone > 0 ? t('sync.panel.retryGone', { count: 1 }) : t('sync.panel.retryFailed')}
                              </Text>
                            )}
                          </ItemRow>
                        ))}
                      </Stack>
                    </>
                  )}
                  <StorageUsage />
                </Stack>
              </Drawer.Body>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="lg" aria-label={t('sync.panel.close')} />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>

      {reassigning && <ReassignDialog item={reassigning} title={typeof reassigning.description.params.title === 'string' ? reassigning.description.params.title : describe(reassigning.description)} onClose={() => setReassigning(null)} />}

      <ConfirmDeleteDialog
        open={confirm !== null}
        title={t('sync.panel.discardTitle')}
        text={confirm ? t('sync.panel.discardText', { description: describe(confirm.description) }) : ''}
        cancelLabel={t('sync.panel.cancel')}
        confirmLabel={t('sync.panel.discardConfirm')}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm) void discardRefusedChange(confirm.id);
          setConfirm(null);
        }}
      />
    </>
  );
}
