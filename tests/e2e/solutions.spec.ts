/**
 * Solutions (Maßnahmen) end to end (spec part 1 §2.2 measures list, §2.3, §7): without network a solution with a
 * photo is added to a notification of the demo plant; it survives a reload offline, and once online it reaches
 * the server exactly once — a second device (another browser context) sees it once. Then it is edited and deleted.
 *
 * The demo admin writes (the technician may create and update solutions but not delete them). The notification is
 * a closed one of the demo plant that already has a seeded solution, so the list shows both.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { loginAs, shotsDir, TABLET_LANDSCAPE, tabletScreenshots } from './support/pages';
import { ApiClient, SyncStatus, solidPng } from './support/machine-pages';
import { apiLogin, clientIdOf, readLocalDb, serverLastMutationId, takeOfflineReady, waitForEmptyOutbox } from './support/offline';

const SHOTS = shotsDir('solutions');

const screenshots = (page: Page, file: string) => tabletScreenshots(page, SHOTS, file);

const solutionItem = (page: Page, title: string) => page.getByTestId('solution-item').filter({ has: page.getByTestId('solution-title').getByText(title, { exact: true }) });

async function openMeasures(page: Page, notificationnodeid: string) {
  await page.goto(`/notification-details?nodeid=${notificationnodeid}`);
  await page.getByRole('tab', { name: 'Maßnahmen' }).click();
  await expect(page.getByTestId('measures-list')).toBeVisible({ timeout: 30_000 });
}

/** A notification of the demo plant (not planned maintenance) with a seeded solution. */
function demoNotificationWithSolution(feed: Map<string, Record<string, unknown>[]>): { nodeid: string; title: string } {
  const withSolution = new Set((feed.get('workflows') ?? []).map((row) => row.notificationnodeid));
  const notification = (feed.get('notifications') ?? []).find((row) => row.type !== 6 && withSolution.has(row.nodeid));
  if (!notification) throw new Error('the demo plant has no notification with a solution');
  return { nodeid: String(notification.nodeid), title: String(notification.title) };
}

test('offline: add a solution with a photo; after a reload offline it is there, online it syncs exactly once; edit and delete', async ({ page, context, request, browser }) => {
  test.setTimeout(360_000);
  await page.setViewportSize(TABLET_LANDSCAPE);
  // A fresh login per look: the e2e server's access tokens live only E2E_ACCESS_TOKEN_TTL seconds.
  const serverFeed = async () => (await ApiClient.login(request, 'admin')).pullAll();
  const notification = await demoNotificationWithSolution(await serverFeed());
  await loginAs(page, 'admin');
  await takeOfflineReady(page);
  const sync = new SyncStatus(page);
  await sync.waitUntilSynced();
  await openMeasures(page, notification.nodeid);
  await expect(page.getByTestId('solution-item').first()).toBeVisible();

  await context.setOffline(true);
  const title = `Hydraulikschlauch getauscht (${Date.now()})`;
  await page.getByTestId('solution-add').click();
  await expect(page).toHaveURL(new RegExp(`/create-workflow-step\\?notificationnodeid=${notification.nodeid}`));
  await expect(page.getByRole('heading', { name: 'Maßnahme hinzufügen', level: 1 })).toBeVisible();
  await expect(page.getByTestId('solution-form-save')).toBeDisabled();
  await page.getByTestId('solution-file-input').setInputFiles([
    { name: 'Schlauch.png', mimeType: 'image/png', buffer: solidPng(64, [200, 80, 40]) },
    { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
  ]);
  await expect(page.getByTestId('solution-rejected-files')).toContainText('setup.exe (.exe)');
  await expect(page.getByTestId('solution-new-files')).toContainText('Schlauch.png');
  await page.getByTestId('solution-title-input').fill(title);
  await page.getByTestId('solution-description-input').fill('Schlauch an der Spannvorrichtung ersetzt.\nDichtheit bei 180 bar geprüft.');
  await expect(page.getByTestId('solution-description-input')).toHaveAttribute('rows', '5');
  await screenshots(page, 'form-add');
  await page.getByTestId('solution-form-save').click();

  // Back on the notification's details, the solution is there at once, not yet synchronised.
  await expect(page).toHaveURL(new RegExp(`/notification-details\\?nodeid=${notification.nodeid}&tab=measures$`));
  // It comes back on the measures, where the new one is.
  await expect(page.getByRole('tab', { name: 'Maßnahmen' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Maßnahmen' }).click();
  const added = solutionItem(page, title);
  await expect(added.getByTestId('not-synced').first()).toBeVisible();
  await expect(added.getByTestId('solution-description')).toContainText('Dichtheit bei 180 bar geprüft.');
  await expect(added.getByTestId('solution-meta')).toContainText(/\d{2}\.\d{2}\.\d{4} \d{2}:\d{2} · dokumentiert von /);
  await expect(added.getByTestId('solution-photo')).toBeVisible();

  // Reload without network: the service worker serves the app, the mirror keeps everything.
  await page.reload();
  await page.getByRole('tab', { name: 'Maßnahmen' }).click({ timeout: 30_000 });
  await expect(solutionItem(page, title)).toHaveCount(1);
  await expect(solutionItem(page, title).getByTestId('solution-description')).toContainText('Schlauch an der Spannvorrichtung ersetzt.');
  await solutionItem(page, title).getByTestId('solution-photo').click();
  await expect(page.getByTestId('image-viewer')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('image-viewer')).toHaveCount(0);

  await context.setOffline(false);
  await sync.waitUntilSynced();
  await expect(solutionItem(page, title).getByTestId('not-synced')).toHaveCount(0, { timeout: 30_000 });
  await screenshots(page, 'list');

  // The server, seen as another client: the solution once, its step with the description, the photo on the step.
  const feed = await serverFeed();
  const workflows = (feed.get('workflows') ?? []).filter((row) => row.title === title);
  expect(workflows).toMatchObject([{ notificationnodeid: notification.nodeid }]);
  const steps = (feed.get('workflowsteps') ?? []).filter((row) => row.workflownodeid === workflows[0]!.nodeid);
  expect(steps).toMatchObject([{ title, description: 'Schlauch an der Spannvorrichtung ersetzt.\nDichtheit bei 180 bar geprüft.' }]);
  expect((feed.get('attachments') ?? []).filter((row) => row.isattachmentof === steps[0]!.nodeid)).toMatchObject([{ title: 'Schlauch', targetkind: 'workflowstep' }]);
  const snapshot = await waitForEmptyOutbox(page);
  expect(snapshot.deadLetters).toEqual([]);
  const session = await apiLogin(request, 'admin');
  // create, file registration, attachment: three writes, each once.
  expect(await serverLastMutationId(request, 'admin', clientIdOf(snapshot, session.usernodeid))).toBe(3);

  // A second device sees it exactly once.
  const other = await browser.newContext({ viewport: TABLET_LANDSCAPE });
  const otherPage = await other.newPage();
  await loginAs(otherPage, 'admin');
  await new SyncStatus(otherPage).waitUntilSynced();
  await openMeasures(otherPage, notification.nodeid);
  await expect(solutionItem(otherPage, title)).toHaveCount(1);
  await expect(solutionItem(otherPage, title).getByTestId('solution-attachment')).toHaveCount(1);

  // Edit: title and description; the form is opened from the list, a reload keeps it (query parameters).
  await solutionItem(page, title).getByTestId('solution-edit').click();
  await expect(page).toHaveURL(/\/edit-workflow-step\?workflownodeid=.+&notificationnodeid=.+/);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Maßnahme bearbeiten', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('solution-title-input')).toHaveValue(title);
  await expect(page.getByTestId('solution-form-attachments')).toContainText('Schlauch');
  await expect(page.getByTestId('solution-form-save')).toBeDisabled();
  // "Abbrechen" leaves without saving what was typed (the form had no way out but the back link at its top).
  await page.getByTestId('solution-title-input').fill(`${title} – verworfen`);
  await page.getByRole('link', { name: 'Abbrechen' }).click();
  await expect(page).toHaveURL(new RegExp(`/notification-details\\?nodeid=${notification.nodeid}`));
  await page.getByRole('tab', { name: 'Maßnahmen' }).click();
  await expect(solutionItem(page, title)).toHaveCount(1);
  await expect(solutionItem(page, `${title} – verworfen`)).toHaveCount(0);
  await solutionItem(page, title).getByTestId('solution-edit').click();
  await expect(page.getByTestId('solution-title-input')).toHaveValue(title);
  const edited = `${title} – geprüft`;
  await page.getByTestId('solution-title-input').fill(edited);
  await page.getByTestId('solution-description-input').fill('Schlauch ersetzt, Rücklauf ebenfalls geprüft.');
  await screenshots(page, 'form-edit');
  await page.getByTestId('solution-form-save').click();
  await expect(page).toHaveURL(new RegExp(`/notification-details\\?nodeid=${notification.nodeid}`));
  await page.getByRole('tab', { name: 'Maßnahmen' }).click();
  await expect(solutionItem(page, edited).getByTestId('solution-description')).toHaveText('Schlauch ersetzt, Rücklauf ebenfalls geprüft.');
  await sync.waitUntilSynced();
  await expect(solutionItem(page, edited).getByTestId('not-synced')).toHaveCount(0, { timeout: 30_000 });
  // After the pull the step row (not the device's stand-in) shows the new description.
  await expect(solutionItem(page, edited).getByTestId('solution-description')).toHaveText('Schlauch ersetzt, Rücklauf ebenfalls geprüft.');

  // Delete: asks first, returns to the details, gone here and on the server with its step and photo.
  await solutionItem(page, edited).getByTestId('solution-edit').click();
  await page.getByTestId('solution-form-delete').click();
  await expect(page.getByRole('alertdialog')).toContainText(`Maßnahme „${edited}“ mit ihren Anhängen endgültig löschen?`);
  await page.getByTestId('solution-confirm-delete').click();
  await expect(page).toHaveURL(new RegExp(`/notification-details\\?nodeid=${notification.nodeid}`));
  await page.getByRole('tab', { name: 'Maßnahmen' }).click();
  await expect(solutionItem(page, edited)).toHaveCount(0);
  await sync.waitUntilSynced();
  const after = await serverFeed();
  expect((after.get('workflows') ?? []).filter((row) => row.nodeid === workflows[0]!.nodeid)).toEqual([]);
  expect((after.get('workflowsteps') ?? []).filter((row) => row.nodeid === steps[0]!.nodeid)).toEqual([]);
  expect((await waitForEmptyOutbox(page)).deadLetters).toEqual([]);

  // The other device drops it after its pull.
  await otherPage.reload();
  await otherPage.getByRole('tab', { name: 'Maßnahmen' }).click({ timeout: 30_000 });
  await new SyncStatus(otherPage).waitUntilSynced();
  await expect(solutionItem(otherPage, edited)).toHaveCount(0, { timeout: 30_000 });
  await expect(solutionItem(otherPage, title)).toHaveCount(0);
  await other.close();
});

test('a typed solution survives a reload offline; an edit taken back sends only what was changed; cancel throws it away', async ({ page, context, request }) => {
  test.setTimeout(300_000);
  await page.setViewportSize(TABLET_LANDSCAPE);
  const serverFeed = async () => (await ApiClient.login(request, 'technician')).pullAll();
  const notification = demoNotificationWithSolution(await serverFeed());
  await loginAs(page, 'technician');
  await takeOfflineReady(page);
  const sync = new SyncStatus(page);
  await sync.waitUntilSynced();
  await openMeasures(page, notification.nodeid);
  const seeded = page.getByTestId('solution-item').first();
  const seededTitle = (await seeded.getByTestId('solution-title').innerText()).trim();

  // A new solution typed without network, then the page is reloaded (a killed tab, a stray pull-to-refresh).
  await context.setOffline(true);
  await page.getByTestId('solution-add').click();
  await page.getByTestId('solution-title-input').fill('Dichtung getauscht');
  await page.getByTestId('solution-description-input').fill('1. Anlage stillgesetzt\n2. Dichtsatz getauscht\n3. Probelauf dicht');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Maßnahme hinzufügen', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('solution-title-input')).toHaveValue('Dichtung getauscht');
  await expect(page.getByTestId('solution-description-input')).toHaveValue('1. Anlage stillgesetzt\n2. Dichtsatz getauscht\n3. Probelauf dicht');
  await expect(page.getByTestId('solution-draft-restored')).toContainText(/Nicht gespeicherte Eingaben vom \d{2}\.\d{2}\.\d{4} \d{2}:\d{2} wiederhergestellt\./);
  await screenshots(page, 'form-draft-restored');
  // "Abbrechen" is the user throwing it away: the form opens empty again.
  await page.getByRole('link', { name: 'Abbrechen' }).click();
  await page.getByRole('tab', { name: 'Maßnahmen' }).click();
  await page.getByTestId('solution-add').click();
  await expect(page.getByTestId('solution-title-input')).toHaveValue('');
  await expect(page.getByTestId('solution-draft-restored')).toHaveCount(0);
  await page.getByRole('link', { name: 'Abbrechen' }).click();

  // An edit of the description only, reloaded: the draft comes back with the title as it was, and the save sends the
  // description alone.
  await page.getByRole('tab', { name: 'Maßnahmen' }).click();
  await solutionItem(page, seededTitle).getByTestId('solution-edit').click();
  await page.getByTestId('solution-description-input').fill('Nachgeprüft: dicht.');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Maßnahme bearbeiten', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('solution-description-input')).toHaveValue('Nachgeprüft: dicht.');
  await expect(page.getByTestId('solution-title-input')).toHaveValue(seededTitle);
  await page.getByTestId('solution-form-save').click();
  await expect(page).toHaveURL(new RegExp(`/notification-details\\?nodeid=${notification.nodeid}`));
  const queued = (await readLocalDb(page))!.outbox.filter((entry) => entry.action === 'updateWorkflow');
  expect(queued.map((entry) => entry.body)).toEqual([expect.objectContaining({ description: 'Nachgeprüft: dicht.' })]);
  expect(queued[0]!.body).not.toHaveProperty('title_workflow');
  await context.setOffline(false);
  await sync.waitUntilSynced();
  const snapshot = await waitForEmptyOutbox(page);
  expect(snapshot.deadLetters).toEqual([]);
  const steps = ((await serverFeed()).get('workflowsteps') ?? []).filter((row) => row.description === 'Nachgeprüft: dicht.');
  expect(steps).toMatchObject([{ title: seededTitle }]);
  // Saved: the edit form opens from the solution again, not from the draft.
  await page.getByRole('tab', { name: 'Maßnahmen' }).click();
  await solutionItem(page, seededTitle).getByTestId('solution-edit').click();
  await expect(page.getByTestId('solution-draft-restored')).toHaveCount(0);
});
