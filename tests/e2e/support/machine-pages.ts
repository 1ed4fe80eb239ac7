/** Page models of the machine list, machine screen, fault report, notification header and counters (offline loop). */
import { randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { DEMO_PASSWORD, DEMO_USERS, type DemoRole } from '../../../src/server/db/seed/demo-users';

export class SyncStatus {
  constructor(private readonly page: Page) {}

  /** The app bar's sync button; `data-pending` / `data-refused` carry the counts. */
  readonly button = () => this.page.locator('[data-slot="sync-status"] button').first();

  /** The first pull brings the whole demo plant; on a busy shared machine that can take more than a minute. */
  async waitUntilSynced(timeout = 120_000) {
    await expect(this.button()).toHaveAttribute('data-pending', '0', { timeout });
    await expect(this.button()).toHaveAttribute('data-refused', '0');
    // The short text shows in every layout, and it is what a screen reader hears.
    await expect(this.button().getByTestId('sync-headline')).toHaveText('Synchronisiert', { timeout });
  }

  /** `count` things the user did are not sent yet (a report with its photo is one), in numbers and in words. */
  async expectPending(count: number) {
    await expect(this.button()).toHaveAttribute('data-pending', String(count));
    if (count > 0) await expect(this.button().getByTestId('sync-headline')).toHaveText(count === 1 ? '1 Änderung nicht gesendet' : `${count} Änderungen nicht gesendet`);
  }

  /** The sync panel lists the same user actions, and being offline is said calmly, not as failed attempts. */
  async expectPanelCalmlyOffline(count: number) {
    await this.button().click();
    const panel = this.page.getByRole('dialog', { name: 'Synchronisierung' });
    await expect(panel.getByRole('heading', { name: `Nicht gesendete Änderungen (${count})` })).toBeVisible();
    await expect(panel.getByRole('listitem')).toHaveCount(count);
    await expect(panel.getByText(/Fehlversuch|Nächster Versuch/)).toHaveCount(0);
    await expect(panel.locator('[data-testid="sync-error"][data-severity="error"]')).toHaveCount(0);
    await panel.getByRole('button', { name: 'Schließen' }).click();
    await expect(panel).toBeHidden();
  }
}

export class MachineListPage {
  constructor(private readonly page: Page) {}

  readonly list = () => this.page.getByTestId('machine-list');
  readonly search = () => this.page.getByRole('searchbox', { name: 'Maschine suchen' });
  machineLink(name: string) {
    return this.list().getByRole('link', { name, exact: true });
  }

  async open(name: string) {
    await this.search().fill(name);
    await this.machineLink(name).first().click();
    await expect(this.page).toHaveURL(/\/machine-overview\?nodeid=/);
    await expect(this.page.getByRole('heading', { name, level: 2 })).toBeVisible();
  }
}

export interface FaultReport {
  type?: string;
  title: string;
  description?: string;
  photo?: { name: string; mimeType: string; buffer: Buffer };
}

export class MachinePage {
  constructor(private readonly page: Page) {}

  readonly header = () => this.page.getByTestId('machine-header');
  readonly overviewTab = () => this.page.getByRole('tab', { name: 'Übersicht' });
  readonly countersTab = () => this.page.getByRole('tab', { name: 'Zähler' });
  readonly newNotification = () => this.page.getByRole('button', { name: 'Neue Meldung' });
  readonly openNotifications = () => this.page.getByTestId('open-notification');
  readonly dialog = () => this.page.getByRole('dialog');

  notification(title: string): Locator {
    return this.openNotifications().filter({ hasText: title });
  }

  async openFaultDialog() {
    await this.newNotification().click();
    await expect(this.dialog().getByRole('heading', { name: 'Meldung erfassen' })).toBeVisible();
  }

  async fillFaultReport(report: FaultReport) {
    const dialog = this.dialog();
    if (report.type) await dialog.getByLabel('Meldungsart').selectOption({ label: report.type });
    await dialog.getByRole('textbox', { name: 'Titel' }).fill(report.title);
    if (report.description) await dialog.getByRole('textbox', { name: 'Beschreibung' }).fill(report.description);
    if (report.photo) {
      await dialog.getByLabel('Foto aufnehmen').setInputFiles(report.photo);
      await expect(dialog.getByRole('img', { name: 'Vorschau des Fotos' })).toBeVisible();
    }
  }

  async saveFaultReport() {
    await this.dialog().getByRole('button', { name: 'Meldung speichern' }).click();
    await expect(this.dialog()).toBeHidden();
  }

  async reportFault(report: FaultReport) {
    await this.openFaultDialog();
    await this.fillFaultReport(report);
    await this.saveFaultReport();
    await expect(this.notification(report.title)).toBeVisible();
  }

  counterRow(name: string): Locator {
    return this.page.getByTestId('counter-row').filter({ hasText: name });
  }

  async recordReading(counter: string, typed: string) {
    await this.countersTab().click();
    await this.counterRow(counter).getByRole('button', { name: `Zählerstand erfassen: ${counter}` }).click();
    const input = this.dialog().getByRole('textbox', { name: 'Zählerstand' });
    await input.fill(typed);
    return input;
  }
}

export class NotificationPage {
  constructor(private readonly page: Page) {}

  readonly header = () => this.page.getByTestId('notification-header');
  readonly status = () => this.page.getByRole('combobox', { name: 'Status' });

  async setStatus(label: 'Offen' | 'In Bearbeitung' | 'Erledigt') {
    await this.status().selectOption({ label });
    await expect(this.status()).toHaveValue({ Offen: '0', 'In Bearbeitung': '1', Erledigt: '2' }[label]);
  }
}

/** A real, decodable PNG of `size`×`size` pixels in one colour (so the thumbnail shows something). */
export function solidPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

/** Another user looking at the server directly (not through the app): what really arrived. */
export class ApiClient {
  private constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  static async login(request: APIRequestContext, role: DemoRole): Promise<ApiClient> {
    const response = await request.post('/api/auth/login', { data: { email: DEMO_USERS[role].email, password: DEMO_PASSWORD } });
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { accesstoken: string };
    return new ApiClient(request, body.accesstoken);
  }

  private headers(extra: Record<string, string> = {}) {
    return { authorization: `Bearer ${this.token}`, ...extra };
  }

  async get<T>(path: string, headers: Record<string, string> = {}): Promise<T> {
    const response = await this.request.get(`/api/${path}`, { headers: this.headers(headers) });
    expect(response.status(), `GET /api/${path}`).toBe(200);
    return (await response.json()) as T;
  }

  async bytes(url: string): Promise<{ status: number; body: Buffer; type: string | undefined }> {
    const response = await this.request.get(url);
    return { status: response.status(), body: await response.body(), type: response.headers()['content-type'] };
  }

  async send<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, data: unknown, headers: Record<string, string> = {}): Promise<T> {
    const response = await this.request.fetch(`/api/${path}`, { method, headers: this.headers(headers), data });
    expect(response.ok(), `${method} /api/${path}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  }

  /** A document on a machine as the desk adds it: the two-step file upload, then the attachment in a category. */
  async addDocument(machine: string, title: string, bytes: Buffer): Promise<{ nodeid: string; filenodeid: string }> {
    const [registered] = await this.send<{ nodeid: string; fileid: string; url: string; fileversion: number }[]>('POST', 'files', {
      count: 1,
      extensions: [{ nodeid: randomUUID(), extension: 'pdf', size: bytes.length }],
    });
    const put = await this.request.put(registered!.url, { headers: { 'content-type': 'application/octet-stream' }, data: bytes });
    expect(put.status(), 'upload of the document').toBe(200);
    const nodeid = randomUUID();
    await this.send('POST', 'attachments', {
      lang: 'de',
      nodeid,
      title,
      description: null,
      specifier: 'maintenance',
      isattachmentof: machine,
      file: { fileid: registered!.fileid, fileversion: registered!.fileversion },
    });
    return { nodeid, filenodeid: registered!.nodeid };
  }

  /** Every row in the change feed by kind (a fresh client pulling from 0). */
  async pullAll(): Promise<Map<string, Record<string, unknown>[]>> {
    const headers = this.headers({ 'X-Client-Id': randomUUID() });
    const rows = new Map<string, Record<string, unknown>[]>();
    let cursor = 0;
    for (;;) {
      const response = await this.request.get(`/api/sync/pull?cursor=${cursor}&limit=5000`, { headers });
      expect(response.status()).toBe(200);
      const page = (await response.json()) as { cursor: number; hasMore: boolean; changes: { kind: string; deleted?: boolean; data?: Record<string, unknown> }[] };
      for (const change of page.changes) {
        if (change.deleted || !change.data) continue;
        const list = rows.get(change.kind) ?? [];
        list.push(change.data);
        rows.set(change.kind, list);
      }
      if (!page.hasMore) return rows;
      cursor = page.cursor;
    }
  }
}
