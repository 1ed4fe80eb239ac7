/**
 * The machine memo (part 1 §2.1 overview tab, §5, §7) offline-first: saved on the device without network, still
 * there after a reload, on the server exactly once after coming back online; read-only for a user without the
 * equipment update permission; a sync arriving while the user types never takes the typing away.
 *
 * The demo technician has equipment read-only (he may not change a machine), so the writing user is the admin.
 */
import type { Page } from '@playwright/test';
import { expect, expectNoCspViolations, test, watchCsp } from './support/test';
import { loginAs, smallTouchTargets, TABLET_LANDSCAPE, TABLET_PORTRAIT } from './support/pages';
import { ApiClient, MachineListPage, SyncStatus } from './support/machine-pages';
import { apiLogin, clientIdOf, serverLastMutationId, takeOfflineReady, waitForEmptyOutbox } from './support/offline';

const MACHINE = 'BAZ 03 5-Achs-Zentrum';
const SEEDED_MEMO = 'Rundtisch: nach Crash immer Referenzfahrt und Messzyklus 3D-Taster ausführen.';
const QUEUED = 'Notiz auf diesem Gerät gespeichert – wird gesendet, sobald eine Verbindung besteht.';
const TOO_LONG = 'Die Notiz darf höchstens 5.000 Zeichen lang sein.';

class MemoCard {
  constructor(private readonly page: Page) {}

  readonly card = () => this.page.getByRole('region', { name: 'Notiz' });
  readonly text = () => this.card().getByRole('textbox', { name: 'Notiz zur Maschine' });
  readonly save = () => this.card().getByRole('button', { name: 'Speichern' });
  readonly readOnlyText = () => this.card().getByTestId('memo-text');
}

const idFrom = (url: string) => new URL(url).searchParams.get('nodeid')!;

/** The machine's memo in the device's mirror, read raw (not through the app). */
function mirrorMemo(page: Page, nodeid: string): Promise<unknown> {
  return page.evaluate(
    (id) =>
      new Promise<unknown>((resolve, reject) => {
        const open = indexedDB.open('anlagenbuch-data');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const request = db.transaction('equipment').objectStore('equipment').get(id);
          request.onsuccess = () => {
            db.close();
            resolve((request.result as { memo?: unknown } | undefined)?.memo);
          };
          request.onerror = () => reject(request.error);
        };
      }),
    nodeid,
  );
}

/** The memo as the server stores it, changed by another device (a plain API call as the admin). */
async function memoFromAnotherDevice(page: Page, nodeid: string, memo: string) {
  const session = await apiLogin(page.request, 'admin');
  const response = await page.request.put(`/api/equipments/${nodeid}`, { headers: { authorization: `Bearer ${session.accesstoken}` }, data: { lang: 'de', equipmentnodeid: nodeid, memo } });
  expect(response.status()).toBe(200);
}

async function screenshots(page: Page, file: string, outputPath: (name: string) => string) {
  for (const [name, viewport] of [['landscape', TABLET_LANDSCAPE], ['portrait', TABLET_PORTRAIT]] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: outputPath(`${file}-${name}.png`), fullPage: true });
    expect(await smallTouchTargets(page), `${file} ${name}`).toEqual([]);
  }
  await page.setViewportSize(TABLET_LANDSCAPE);
}

test('offline: the memo is saved on the device, survives a reload and reaches the server exactly once; a technician reads it', async ({ page, context, request, browser }, testInfo) => {
  test.setTimeout(300_000);
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'admin');
  await takeOfflineReady(page);
  const sync = new SyncStatus(page);
  await sync.waitUntilSynced();

  await context.setOffline(true);
  await new MachineListPage(page).open(MACHINE);
  const machineId = idFrom(page.url());
  const memo = new MemoCard(page);
  await expect(memo.text()).toHaveValue(SEEDED_MEMO);
  // §5: nothing to save while the memo is unchanged (blanks around it do not count) or empty.
  await expect(memo.save()).toBeDisabled();
  await memo.text().fill(`  ${SEEDED_MEMO}\n`);
  await expect(memo.save()).toBeDisabled();
  await memo.text().fill('   ');
  await expect(memo.save()).toBeDisabled();

  // A memo the server would refuse is refused on the device, with the field's message, and nothing is queued.
  await memo.text().fill('x'.repeat(5001));
  await memo.save().click();
  await expect(memo.card().getByText(TOO_LONG)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('memo-too-long-landscape.png') });
  await sync.expectPending(0);

  const text = `Spannmittel-Satz 3 liegt jetzt im Schrank neben BAZ 04.\nRundtisch nach Crash: Referenzfahrt, dann Messzyklus (${Date.now()}).`;
  await memo.text().fill(text);
  await expect(memo.card().getByText(TOO_LONG)).toHaveCount(0);
  await memo.save().click();
  await expect(memo.card().getByTestId('memo-saved')).toHaveText(QUEUED);
  await expect(memo.save()).toBeDisabled();
  await expect(memo.card().getByTestId('not-synced')).toBeVisible();
  await sync.expectPending(1);
  await screenshots(page, 'memo-saved-offline', (name) => testInfo.outputPath(name));

  // Reload with no network: the service worker serves the app, the mirror still has the memo.
  await page.reload();
  await expect(memo.text()).toHaveValue(text);
  await expect(memo.save()).toBeDisabled();
  await sync.expectPending(1);

  await context.setOffline(false);
  await sync.waitUntilSynced();
  await expect(memo.card().getByTestId('not-synced')).toHaveCount(0);
  await expect(memo.text()).toHaveValue(text);

  // What the server has, seen through the API as a separate client: the memo, from one write of this device.
  const admin = await ApiClient.login(request, 'admin');
  expect(await admin.get<{ memo: string | null }>(`equipments/${machineId}?lang=de`)).toMatchObject({ memo: text });
  const feed = await admin.pullAll();
  expect((feed.get('equipment') ?? []).filter((row) => row.nodeid === machineId)).toMatchObject([{ memo: text }]);
  const snapshot = await waitForEmptyOutbox(page);
  const session = await apiLogin(request, 'admin');
  expect(snapshot.deadLetters).toEqual([]);
  expect(await serverLastMutationId(request, 'admin', clientIdOf(snapshot, session.usernodeid))).toBe(1);

  // Without the equipment update permission: the text, no text area, no save.
  const technician = await browser.newPage({ viewport: TABLET_LANDSCAPE });
  const technicianCsp = await watchCsp(technician.context());
  await loginAs(technician, 'technician');
  await new SyncStatus(technician).waitUntilSynced();
  await new MachineListPage(technician).open(MACHINE);
  const readOnly = new MemoCard(technician);
  await expect(readOnly.readOnlyText()).toHaveText(text);
  await expect(readOnly.card().getByRole('textbox')).toHaveCount(0);
  await expect(readOnly.card().getByRole('button')).toHaveCount(0);
  await screenshots(technician, 'memo-read-only', (name) => testInfo.outputPath(name));
  await technician.close();
  expectNoCspViolations(technicianCsp);
});

test('a sync while the user types keeps the typing; without typing the memo follows the server', async ({ page, context }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'admin');
  const sync = new SyncStatus(page);
  await sync.waitUntilSynced();
  await new MachineListPage(page).open('BAZ 05 Horizontal-BAZ');
  const machineId = idFrom(page.url());
  const memo = new MemoCard(page);
  // The app pulls when the network comes back (one of its sync triggers).
  const pullNow = async () => {
    await context.setOffline(true);
    await context.setOffline(false);
  };

  const first = `Beladung über ROB 01, Greifer B verwenden (${Date.now()}).`;
  await memoFromAnotherDevice(page, machineId, first);
  await pullNow();
  await expect(memo.text()).toHaveValue(first);

  const typing = 'Halbfertiger Hinweis, noch nicht gespeichert';
  await memo.text().fill(typing);
  const second = `Beladung nur noch von Hand (${Date.now()}).`;
  await memoFromAnotherDevice(page, machineId, second);
  await pullNow();
  await expect.poll(() => mirrorMemo(page, machineId)).toBe(second);
  await expect(memo.text()).toHaveValue(typing);
  await expect(memo.save()).toBeEnabled();

  await memo.save().click();
  await expect(memo.save()).toBeDisabled();
  await sync.waitUntilSynced();
  await expect.poll(() => mirrorMemo(page, machineId)).toBe(typing);
  const admin = await ApiClient.login(page.request, 'admin');
  expect(await admin.get<{ memo: string | null }>(`equipments/${machineId}?lang=de`)).toMatchObject({ memo: typing });
});
