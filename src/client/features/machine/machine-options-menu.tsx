/**
 * The machine screen's options menu (spec part 1 §2.1): "Bearbeiten" opens the equipment form (/edit-machine),
 * "Löschen" asks first, deletes offline-first and goes to /dashboard. Each item shows only with its `equipment`
 * permission. "Offline verfügbar machen" (everyone: reading needs no permission) downloads all of the machine's
 * documents and photos and keeps them on the device (sync/offline-files.ts); once done the menu offers to fetch
 * what was added since and to stop keeping them.
 */
import { Button, IconButton, Menu, Portal, Progress, Stack, Text } from '@chakra-ui/react';
import { CloudDownload, CloudOff, EllipsisVertical, Pencil, RefreshCw, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { AppDialog } from '../../components/app-dialog';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog';
import { useMenuFocusReturn } from '../../components/use-menu-focus-return';
import { formatDate } from '../../lib/dates';
import { formatBytes } from '../../lib/format-bytes';
import { useOnlineStatus } from '../../lib/use-online-status';
import { usePermission } from '../../lib/use-permission';
import { isStorageFull, makeMachineOffline, NotEnoughSpaceError, releaseMachine, useOfflineMachine, type OfflineProgress, type OfflineResult } from '../../sync/offline-files';
import { useDeleteEquipment } from '../../sync/use-delete-equipment';

type OfflineRun =
  | { state: 'running'; progress: OfflineProgress | null }
  | { state: 'done'; result: OfflineResult }
  | { state: 'failed'; message: string };

/** The download's progress and its result ("12 Dateien offline verfügbar"). */
function OfflineDialog({ run, onCancel, onClose }: { run: OfflineRun; onCancel(): void; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const running = run.state === 'running';
  return (
    <AppDialog
      title={t('offlineFiles.dialog.title')}
      onClose={running ? onCancel : onClose}
      testId="offline-files-dialog"
      footer={
        running ? (
          <Button variant="outline" onClick={onCancel}>
            {t('offlineFiles.dialog.cancel')}
          </Button>
        ) : (
          <Button colorPalette="brand" onClick={onClose}>
            {t('offlineFiles.dialog.close')}
          </Button>
        )
      }
    >
      {run.state === 'running' && (
        <Stack gap="3" aria-live="polite">
          <Progress.Root value={run.progress && run.progress.total > 0 ? run.progress.done : null} max={Math.max(1, run.progress?.total ?? 1)} colorPalette="brand" size="lg">
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
          <Text>{run.progress ? t('offlineFiles.dialog.progress', { done: run.progress.done, total: run.progress.total }) : t('offlineFiles.dialog.preparing')}</Text>
        </Stack>
      )}
      {run.state === 'done' && (
        <Stack gap="2" role="status">
          <Text fontWeight="semibold" textStyle="lg" data-testid="offline-files-result">
            {run.result.total === 0
              ? t('offlineFiles.dialog.none')
              : run.result.failed === 0
                ? t('offlineFiles.dialog.result', { count: run.result.available })
                : t('offlineFiles.dialog.partial', { available: run.result.available, total: run.result.total })}
          </Text>
          {run.result.available > 0 && <Text color="fg.muted">{t('offlineFiles.dialog.size', { size: formatBytes(run.result.bytes, i18n.language) })}</Text>}
          {run.result.failed > 0 && <Text color="fg.error">{t('offlineFiles.dialog.failed', { count: run.result.failed })}</Text>}
        </Stack>
      )}
      {run.state === 'failed' && (
        <Text color="fg.error" role="alert" data-testid="offline-files-result">
          {run.message}
        </Text>
      )}
    </AppDialog>
  );
}

export function MachineOptionsMenu({ nodeid, name, onError }: { nodeid: string; name: string; onError(message: string): void }) {
  const { t, i18n } = useTranslation();
  const canEdit = usePermission('equipment', 'update');
  const canDelete = usePermission('equipment', 'delete');
  const online = useOnlineStatus();
  const offline = useOfflineMachine(nodeid);
  const [confirming, setConfirming] = useState(false);
  const [run, setRun] = useState<OfflineRun | null>(null);
  const controller = useRef<AbortController | null>(null);
  const focusReturn = useMenuFocusReturn();
  const { remove, deleting } = useDeleteEquipment((message) => {
    setConfirming(false);
    onError(message);
  });

  const startOffline = () => {
    if (!online) {
      setRun({ state: 'failed', message: t('offlineFiles.dialog.noConnection') });
      return;
    }
    const abort = new AbortController();
    controller.current = abort;
    setRun({ state: 'running', progress: null });
    makeMachineOffline(nodeid, { signal: abort.signal, onProgress: (progress) => !abort.signal.aborted && setRun({ state: 'running', progress }) })
      .then((result) => !abort.signal.aborted && setRun({ state: 'done', result }))
      .catch((error: unknown) => {
        if (abort.signal.aborted) return;
        const message =
          error instanceof NotEnoughSpaceError
            ? t('offlineFiles.dialog.noSpace', { needed: formatBytes(error.needed, i18n.language), free: formatBytes(error.free, i18n.language) })
            : isStorageFull(error)
              ? t('offlineFiles.dialog.quota')
              : t('offlineFiles.dialog.error');
        setRun({ state: 'failed', message });
      });
  };

  const item = { minH: '11', textStyle: 'md' } as const;
  return (
    <>
      <Menu.Root lazyMount unmountOnExit positioning={{ placement: 'bottom-end' }} onExitComplete={focusReturn.onExitComplete}>
        <Menu.Trigger asChild ref={focusReturn.triggerRef}>
          <IconButton variant="ghost" size="lg" aria-label={t('machine.options.label')} data-testid="machine-options">
            <EllipsisVertical aria-hidden />
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content ref={focusReturn.contentRef} minW="56">
              {canEdit && (
                <Menu.Item value="edit" asChild {...item}>
                  <RouterLink to={`/edit-machine?nodeid=${nodeid}`}>
                    <Pencil size={18} aria-hidden />
                    {t('machine.options.edit')}
                  </RouterLink>
                </Menu.Item>
              )}
              {offline ? (
                <>
                  <Menu.ItemGroup>
                    <Menu.ItemGroupLabel fontWeight="normal" color="fg.muted" textStyle="sm" data-testid="offline-since">
                      {t('offlineFiles.menu.since', { date: formatDate(offline.refreshedAt), count: offline.files })}
                    </Menu.ItemGroupLabel>
                    <Menu.Item value="offline-refresh" {...item} onSelect={startOffline}>
                      <RefreshCw size={18} aria-hidden />
                      {t('offlineFiles.menu.refresh')}
                    </Menu.Item>
                    <Menu.Item value="offline-release" {...item} onSelect={() => void releaseMachine(nodeid)}>
                      <CloudOff size={18} aria-hidden />
                      {t('offlineFiles.menu.release')}
                    </Menu.Item>
                  </Menu.ItemGroup>
                </>
              ) : (
                <Menu.Item value="offline" {...item} onSelect={startOffline} disabled={offline === undefined}>
                  <CloudDownload size={18} aria-hidden />
                  {t('offlineFiles.menu.makeOffline')}
                </Menu.Item>
              )}
              {canDelete && (
                <Menu.Item value="delete" {...item} color="fg.error" _hover={{ bg: 'bg.error', color: 'fg.error' }} onSelect={() => setConfirming(true)}>
                  <Trash2 size={18} aria-hidden />
                  {t('machine.options.delete')}
                </Menu.Item>
              )}
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      {run && (
        <OfflineDialog
          run={run}
          onCancel={() => {
            controller.current?.abort();
            setRun(null);
          }}
          onClose={() => setRun(null)}
        />
      )}
      <ConfirmDeleteDialog
        open={confirming}
        title={t('equipment.delete.title')}
        text={t('equipment.delete.text', { name })}
        busy={deleting}
        onConfirm={() => void remove(nodeid)}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
