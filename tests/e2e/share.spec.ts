/**
 * "Meldung teilen" end to end (spec part 1 §2.2, §5, §7): on a notification's screen the technician shares it by
 * e-mail. A wrong address shows the §5 error state; a right one shows "E-Mail gesendet!" and the server writes the
 * mail as a .eml file into its DATA_DIR/mail (the e2e server has no SMTP_URL; its data directory is E2E_DATA_DIR).
 * Offline the share is queued, the toast says so, and the mail arrives once — after the network is back.
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { decodedHeader, parseMime, textOf } from '../support/mime';
import { apiLogin, demoMachine, takeOfflineReady } from './support/offline';
import { SyncStatus } from './support/machine-pages';
import { loginAs, shotsDir, TABLET_LANDSCAPE, tabletScreenshots } from './support/pages';
import { expect, test } from './support/test';

const SHOTS = shotsDir('share');
const MAIL_DIR = join(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data', 'mail');

const screenshots = (page: Page, file: string) => tabletScreenshots(page, SHOTS, file, { fullPage: false });

/** The mails in the server's mail folder sent to `receiver`, read as a mail program would. */
async function mailsTo(receiver: string) {
  const names = await readdir(MAIL_DIR).catch(() => [] as string[]);
  const messages = await Promise.all(names.filter((name) => name.endsWith('.eml')).map(async (name) => parseMime(await readFile(join(MAIL_DIR, name), 'utf8'))));
  return messages.filter((message) => decodedHeader(message, 'to') === receiver);
}

test('share by e-mail: the address is checked, the mail arrives in the mail folder, offline it is queued and sent once', async ({ page, context, request }) => {
  test.setTimeout(240_000);
  const title = `Hydraulikdruck schwankt ${Date.now()}`;
  const session = await apiLogin(request, 'technician');
  const machine = await demoMachine(request, session);
  const nodeid = randomUUID();
  const created = await request.post('/api/notifications', {
    headers: { authorization: `Bearer ${session.accesstoken}` },
    data: { lang: 'de', nodeid, type: 1, title, description: 'Druck fällt alle 10 min auf 120 bar <ab>', errorcode: 'H-17', equipmentnodeid: machine.nodeid },
  });
  expect(created.status(), await created.text()).toBe(201);

  await page.setViewportSize(TABLET_LANDSCAPE);
  await loginAs(page, 'technician');
  await takeOfflineReady(page);
  await new SyncStatus(page).waitUntilSynced();
  await page.goto(`/notification-details?nodeid=${nodeid}`);
  await expect(page.getByRole('heading', { name: title.slice(0, 40) })).toBeVisible();

  // §5: not an address → the field's error state with its text, nothing sent.
  await page.getByRole('button', { name: 'Meldung teilen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Meldung teilen' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(title)).toBeVisible();
  const field = dialog.getByLabel('E-Mail des Empfängers');
  await field.fill('meister-at-werk');
  await dialog.getByRole('button', { name: 'Senden' }).click();
  await expect(dialog.getByText('Bitte eine gültige E-Mail-Adresse eingeben')).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await screenshots(page, 'invalid');

  const receiver = `meister+${Date.now()}@werk.example`;
  await field.fill(receiver);
  await expect(dialog.getByText('Bitte eine gültige E-Mail-Adresse eingeben')).toBeHidden();
  await screenshots(page, 'valid');
  await dialog.getByRole('button', { name: 'Senden' }).click();
  await expect(page.getByText('E-Mail gesendet!')).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.screenshot({ path: `${SHOTS}/sent-1280x800.png` });
  // The toast hides after 4 s (§2.2).
  await expect(page.getByText('E-Mail gesendet!')).toBeHidden({ timeout: 8_000 });

  await expect.poll(async () => (await mailsTo(receiver)).length, { timeout: 30_000, message: 'the mail should be in the mail folder' }).toBe(1);
  const [mail] = await mailsTo(receiver);
  expect(decodedHeader(mail!, 'subject')).toBe(`Meldung: ${title}`);
  const text = textOf(mail!, 'text/plain')!;
  expect(text).toContain('Meldungsart: Auffälligkeit');
  expect(text).toContain(`Maschine: ${machine.name}`);
  expect(text).toContain('Fehlercode: H-17');
  expect(text).toContain(`/notification-details?nodeid=${nodeid}`);
  expect(textOf(mail!, 'text/html')).toContain('120 bar &lt;ab&gt;');

  // Offline: queued, said so, and sent exactly once when the network is back.
  const later = `schicht+${Date.now()}@werk.example`;
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Meldung teilen' }).click();
  await dialog.getByLabel('E-Mail des Empfängers').fill(later);
  await dialog.getByRole('button', { name: 'Senden' }).click();
  await expect(page.getByText('Die E-Mail wird gesendet, sobald das Gerät wieder online ist.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await new SyncStatus(page).expectPending(1);
  expect(await mailsTo(later)).toHaveLength(0);

  await context.setOffline(false);
  await new SyncStatus(page).waitUntilSynced();
  await expect.poll(async () => (await mailsTo(later)).length, { timeout: 30_000, message: 'the queued mail should arrive after reconnecting' }).toBe(1);
  await page.waitForTimeout(2_000);
  expect(await mailsTo(later)).toHaveLength(1);
});
