/**
 * Reserved place in the app bar for the sync status (unsynced changes, last sync, dead letters) that the offline
 * core (issue #3) fills. Renders nothing until then; the layout already leaves it its position.
 */
export function SyncStatusSlot() {
  return <span data-slot="sync-status" hidden />;
}
