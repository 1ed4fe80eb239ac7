/**
 * User text is always text: a machine and a fault report whose names are markup show those characters on every
 * screen that shows them (dashboard search, machine screen, open notifications, notification details, the sync
 * panel while the report waits offline) and run nothing; the CSV export writes the name as text, with a leading
 * formula neutralised for Excel. The suite's CSP watch (support/test.ts) would also fail the test if the markup
 * became an element whose handler the policy had to block.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { ApiClient, MachineListPage, MachinePage, SyncStatus } from './support/machine-pages';
import { apiLogin, takeOfflineReady } from './support/offline';
import { loginAs, navigateInApp } from './support/pages';
import { expect, test } from './support/test';

const MARKUP = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">';

/** Nothing ran and no element came out of the text. */
async function expectNothingRan(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expect(page.locator('img[src="x"], script:not([src])')).toHaveCount(0);
}

test('a machine and a fault report named like markup show as characters everywhere and run nothing', async ({ page, context, request }) => {
  test.setTimeout(300_000);
  const suffix = Date.now();
  // A name that is also a formula: Excel must get it as text.
  const machineName = `=1+1 ${MARKUP} ${suffix}`;
  const title = `${MARKUP} ${suffix}`;

  // The machine comes from another device (the API), into an area of the demo plant with a type of it.
  const admin = await apiLogin(request, 'admin');
  const rows = (await (await ApiClient.login(request, 'admin')).pullAll()).get('equipment') ?? [];
  const template = rows.find((row) => typeof row.areanodeid === 'string' && typeof row.equipmenttypenodeid === 'string');
  expect(template, 'a demo machine in an area').toBeTruthy();
  const create = await request.post('/api/equipments', {
    headers: { authorization: `Bearer ${admin.accesstoken}` },
    data: {
      lang: 'de',
      equipmentnodeid: randomUUID(),
      name: machineName,
      constructiondate: Date.UTC(2020, 0, 1),
      equipmenttypenodeid: template!.equipmenttypenodeid,
      isequipmentof: [template!.areanodeid],
    },
  });
  expect(create.status(), await create.text()).toBe(201);

  await loginAs(page, 'admin');
  await takeOfflineReady(page);
  const sync = new SyncStatus(page);
  await sync.waitUntilSynced(150_000);

  await test.step('dashboard search and the machine screen', async () => {
    const list = new MachineListPage(page);
    await list.search().fill(String(suffix));
    await expect(list.machineLink(machineName)).toBeVisible();
    await expectNothingRan(page);
    await list.open(machineName);
    await expect(new MachinePage(page).header()).toContainText(machineName);
    await expectNothingRan(page);
  });

  await test.step('offline: the report in the open notifications and in the sync panel', async () => {
    await context.setOffline(true);
    const machine = new MachinePage(page);
    await machine.reportFault({ title });
    await expect(machine.notification(title).getByRole('link', { name: title })).toBeVisible();
    await expectNothingRan(page);
    await sync.expectPending(1);
    await sync.button().click();
    const panel = page.getByRole('dialog', { name: 'Synchronisierung' });
    await expect(panel.getByText(`Meldung erfassen: ${machineName} – ${title}`, { exact: true })).toBeVisible();
    await expectNothingRan(page);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
  });

  await test.step('the notification details', async () => {
    await new MachinePage(page).notification(title).getByRole('link', { name: title }).click();
    await expect(page).toHaveURL(/\/notification-details\?nodeid=/);
    await expect(page.getByTestId('notification-header')).toContainText(title.slice(0, 40));
    await expect(page.getByTestId('notification-header')).toContainText(machineName);
    await expectNothingRan(page);
  });

  await test.step('back online, the CSV export writes the name as text and neutralises the formula', async () => {
    await context.setOffline(false);
    await sync.waitUntilSynced();
    await navigateInApp(page, '/export');
    await expect(page.getByTestId('csv-export')).toBeEnabled({ timeout: 60_000 });
    const download = page.waitForEvent('download');
    await page.getByTestId('csv-export').click();
    const text = readFileSync(await (await download).path(), 'utf8');
    const line = text.split('\r\n').find((row) => row.includes(String(suffix)));
    expect(line).toBeDefined();
    // Quoted because the name holds quotes; inside, it starts with Excel's text marker.
    expect(line).toContain(`"'=1+1 <script>window.__xss=1</script><img src=x onerror=""window.__xss=2""> ${suffix}"`);
    await expectNothingRan(page);
  });
});
