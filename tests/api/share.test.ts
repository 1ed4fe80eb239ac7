/**
 * "Meldung teilen" (part 1 §2.2, §5, §7): POST /notifications/share through its declaration, the mail it queues in
 * the outbox and the worker that sends it — to a real SMTP server (npm smtp-server on 127.0.0.1, a random port)
 * when SMTP_URL is set, and as a .eml file into DATA_DIR/mail when it is not. The messages are read back with the
 * tests' MIME reader, as a recipient's mail program would show them.
 */
import { readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_EMAIL_ERROR } from '../../src/shared/domain/share';
import type { ShareNotificationInput } from '../../src/shared/api/share';
import { mutationPath } from '../../src/shared/mutations/mutation';
import { shareNotification } from '../../src/shared/mutations/share';
import { notificationRowSchema } from '../../src/shared/rows/notifications';
import { attachments, mailOutbox } from '../../src/server/db/schema';
import { mailDir } from '../../src/server/mail/transport';
import { claimDueMails, MAIL_LEASE_MS, MAIL_MAX_ATTEMPTS } from '../../src/server/services/mail-outbox-service';
import { SHARE_ATTACHMENT_MAX_BYTES, shareMailAttachments } from '../../src/server/services/share-service';
import { insertFile, pngBytes } from '../factories/files';
import { insertRow } from '../factories/insert';
import { insertNotification } from '../factories/notifications';
import { insertEquipment } from '../factories/structure';
import type { TestTenant } from '../factories/tenant';
import { attachmentsOf, decodedHeader, parseMime, textOf, type MimePart } from '../support/mime';
import { allFlagsBut, userWithFlags } from './support/requests';
import { mutationHeaders, send, sentTwice } from './support/structure';
import { createOneTenantApp, createTwoTenantApp, type TestApp } from './support/test-app';

const URL_PATH = `/api/${mutationPath(shareNotification, {})}`;

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** An SMTP server on 127.0.0.1 that keeps what it receives; `refuse` makes it answer 550 to the message. */
async function startSink() {
  const received: Received[] = [];
  const state = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.refuse) return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { received, state, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A machine with a notification that has one small photo (bytes in storage) and one too large to attach. */
async function plant(t: TestApp, tenant: TestTenant, title = 'Spindel <b>läuft</b> heiß & laut') {
  const le = { legalentitynodeid: tenant.legalEntity.nodeid };
  const machine = await insertEquipment(t.database.db, { ...le, name: 'BAZ 01', equipmentid: 'M-0815' });
  const notification = await insertNotification(t.database.db, {
    ...le,
    equipmentnodeid: machine.nodeid,
    type: 0,
    status: 1,
    title,
    description: 'Temperatur über 80 °C <script>alert(1)</script>',
    errorcode: 'E-42',
    authornodeid: tenant.admin.nodeid,
  });
  const png = pngBytes(3, 3);
  const small = await insertFile(t.database.db, { ...le, mimetype: 'image/png', extension: 'png', status: 'complete', size: png.length });
  await t.app.fileStorage.put(small.storagekey, png, 'image/png');
  const large = await insertFile(t.database.db, { ...le, mimetype: 'image/jpeg', extension: 'jpg', status: 'complete', size: SHARE_ATTACHMENT_MAX_BYTES + 1 });
  for (const [file, name] of [[small, 'Spindel vorne'], [large, 'Übersicht']] as const) {
    await insertRow(t.database.db, attachments, { ...le, nodeid: uuidv4(), title: name, filenodeid: file.nodeid, isattachmentof: notification.nodeid, targetkind: 'notification' });
  }
  return { machine, notification, png };
}

const body = (nodeid: string, overrides: Partial<ShareNotificationInput> = {}): ShareNotificationInput => ({ nodeid, receiver: 'meister@werk.example', name: 'Spindel', ...overrides });
const outbox = (t: TestApp) => t.database.db.select().from(mailOutbox);

/** This machine's first LAN address (a network card's IPv4 that is not loopback), as a tablet on the LAN reaches it. */
const LAN_ADDRESS = Object.values(networkInterfaces())
  .flatMap((list) => list ?? [])
  .find((info) => info.family === 'IPv4' && !info.internal)?.address;

/**
 * Shares the notification to a recipient of its own with these request headers, sends the queued mail as a .eml
 * file (no SMTP_URL) and answers what the recipient reads: the text and HTML parts, and the link in the text.
 */
async function sharedMail(t: TestApp, authorization: string, nodeid: string, headers: Record<string, string>) {
  const receiver = `${uuidv4()}@werk.example`;
  const response = await send(t, authorization, 'POST', URL_PATH, body(nodeid, { receiver }), headers);
  expect(response.statusCode, response.body).toBe(200);
  await t.app.mailWorker.runOnce();
  const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, receiver));
  expect(row?.status).toBe('sent');
  const message = parseMime(await readFile(join(mailDir(t.config), `${row!.id}.eml`), 'utf8'));
  const text = textOf(message, 'text/plain')!;
  const html = textOf(message, 'text/html')!;
  const link = /Meldung öffnen: (\S+)/.exec(text)?.[1];
  return { text, html, link };
}

describe('share by e-mail to an SMTP server (SMTP_URL)', () => {
  let sink: Awaited<ReturnType<typeof startSink>>;
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;
  let adminB: string;
  let fixture: Awaited<ReturnType<typeof plant>>;

  beforeAll(async () => {
    sink = await startSink();
    ({ t, a, adminA, adminB } = await createTwoTenantApp({ SMTP_URL: `smtp://127.0.0.1:${sink.port}`, MAIL_FROM: 'Anlagenbuch <noreply@werk.example>', PUBLIC_URL: 'https://wartung.werk.example' }));
    fixture = await plant(t, a);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('registers the route of the declaration', () => {
    expect(t.app.hasRoute({ method: 'POST', url: '/api/notifications/share' })).toBe(true);
  });

  it('sends the summary, the link and the small photo to the recipient; the large one is named with the link', async () => {
    const response = await send(t, adminA, 'POST', URL_PATH, body(fixture.notification.nodeid));
    expect(response.statusCode, response.body).toBe(200);
    expect(notificationRowSchema.parse(response.json()).nodeid).toBe(fixture.notification.nodeid);
    await t.app.mailWorker.runOnce();

    expect(sink.received).toHaveLength(1);
    const mail = sink.received[0]!;
    expect(mail.to).toEqual(['meister@werk.example']);
    expect(mail.from).toBe('noreply@werk.example');
    const message: MimePart = parseMime(mail.raw);
    expect(decodedHeader(message, 'subject')).toBe('Meldung: Spindel <b>läuft</b> heiß & laut');
    const link = `https://wartung.werk.example/notification-details?nodeid=${fixture.notification.nodeid}`;
    const text = textOf(message, 'text/plain')!;
    expect(text).toContain('Ungeplanter Stillstand (technischer Defekt)');
    expect(text).toContain('Status: In Bearbeitung');
    expect(text).toContain('Maschine: BAZ 01 (M-0815)');
    expect(text).toContain('Fehlercode: E-42');
    expect(text).toContain(`${a.admin.givenname} ${a.admin.surname} hat eine Meldung`);
    expect(text).toContain(`Meldung öffnen: ${link}`);
    expect(text).toMatch(/Übersicht \(5\.0 MB\): zu groß für den Anhang, in der Meldung ansehen: https:\/\/wartung/);
    const html = textOf(message, 'text/html')!;
    expect(html).toContain('Spindel &lt;b&gt;läuft&lt;/b&gt; heiß &amp; laut');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain(`<a href="${link}">`);
    const files = attachmentsOf(message);
    expect(files.map((file) => [file.filename, file.contentType])).toEqual([['Spindel vorne.png', 'image/png']]);
    expect(files[0]!.content.equals(fixture.png)).toBe(true);

    const [row] = await outbox(t);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lasterror: null, recipient: 'meister@werk.example' });
  });

  it('sends exactly the photos its text lists, as they were when shared: a photo added before the (retried) send is not attached', async () => {
    const later = await plant(t, a, 'Später ergänzt');
    const receiver = `${uuidv4()}@werk.example`;
    expect((await send(t, adminA, 'POST', URL_PATH, body(later.notification.nodeid, { receiver }))).statusCode).toBe(200);
    const [queued] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, receiver));
    expect(queued!.attachments).toHaveLength(1);
    // Hours of SMTP retries later, a colleague adds a photo that would fit.
    const le = { legalentitynodeid: a.legalEntity.nodeid };
    const added = await insertFile(t.database.db, { ...le, mimetype: 'image/png', extension: 'png', status: 'complete', size: later.png.length });
    await t.app.fileStorage.put(added.storagekey, later.png, 'image/png');
    await insertRow(t.database.db, attachments, { ...le, nodeid: uuidv4(), title: 'Nachgereicht', filenodeid: added.nodeid, isattachmentof: later.notification.nodeid, targetkind: 'notification' });
    // What the worker attaches at a (later) attempt: the recorded photo only, as the text (written at share time) says.
    const sent = await shareMailAttachments(t.app.serviceContext, t.app.fileStorage, queued!);
    expect(sent.map((file) => file.filename)).toEqual(['Spindel vorne.png']);
    expect(queued!.textbody).not.toContain('Nachgereicht');
  });

  it('a sharer who may not open the notification\'s attachments sends its text without the photos', async () => {
    const noPhotos = await userWithFlags(t, a.legalEntity.nodeid, 'equipment.attachment', allFlagsBut('read'));
    const receiver = `${uuidv4()}@werk.example`;
    const response = await send(t, noPhotos.authorization, 'POST', URL_PATH, body(fixture.notification.nodeid, { receiver }));
    expect(response.statusCode, response.body).toBe(200);
    await t.app.mailWorker.runOnce();
    const mail = sink.received.find((received) => received.to.includes(receiver));
    expect(mail).toBeDefined();
    const message = parseMime(mail!.raw);
    expect(textOf(message, 'text/plain')).toContain('Fehlercode: E-42');
    expect(attachmentsOf(message)).toEqual([]);
    for (const part of [textOf(message, 'text/plain')!, textOf(message, 'text/html')!]) {
      expect(part).not.toContain('Spindel vorne');
      expect(part).not.toContain('Übersicht');
    }
  });

  it('takes the language of the request for the mail', async () => {
    sink.received.length = 0;
    expect((await send(t, adminA, 'POST', URL_PATH, body(fixture.notification.nodeid, { lang: 'en' }))).statusCode).toBe(200);
    await t.app.mailWorker.runOnce();
    const message = parseMime(sink.received[0]!.raw);
    expect(decodedHeader(message, 'subject')).toBe('Notification: Spindel <b>läuft</b> heiß & laut');
    expect(textOf(message, 'text/plain')).toContain('Machine: BAZ 01 (M-0815)');
  });

  it('links to PUBLIC_URL whatever Host, X-Forwarded-Host or -Proto the request carries', async () => {
    const link = `https://wartung.werk.example/notification-details?nodeid=${fixture.notification.nodeid}`;
    const cases: Record<string, string>[] = [{ host: 'evil.example' }, { host: 'localhost:3000' }, { host: 'localhost:3000', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' }];
    for (const headers of cases) {
      sink.received.length = 0;
      expect((await send(t, adminA, 'POST', URL_PATH, body(fixture.notification.nodeid), headers)).statusCode).toBe(200);
      await t.app.mailWorker.runOnce();
      const message = parseMime(sink.received[0]!.raw);
      const text = textOf(message, 'text/plain')!;
      const html = textOf(message, 'text/html')!;
      expect(text, headers.host).toContain(`Meldung öffnen: ${link}`);
      expect(html).toContain(`<a href="${link}">`);
      expect(`${text}${html}`).not.toMatch(/evil|localhost/);
    }
  });

  it('refuses a recipient without @ or . with the §5 text, and queues nothing', async () => {
    const before = (await outbox(t)).length;
    for (const receiver of ['', 'meister', 'meister@werk', 'meister.werk.example', 'a@b.example, c@d.example', 'a@b.example\r\nBcc: x@y.example']) {
      const response = await send(t, adminA, 'POST', URL_PATH, body(fixture.notification.nodeid, { receiver }));
      expect(response.statusCode, receiver).toBe(400);
      expect(response.json().message).toContain(SHARE_EMAIL_ERROR);
    }
    expect(await outbox(t)).toHaveLength(before);
  });

  it('needs the notification read permission (403), and is a 404 for an unknown or another tenant\'s notification', async () => {
    const before = (await outbox(t)).length;
    const noRead = await userWithFlags(t, a.legalEntity.nodeid, 'notification', allFlagsBut('read'));
    expect((await send(t, noRead.authorization, 'POST', URL_PATH, body(fixture.notification.nodeid))).statusCode).toBe(403);
    expect((await send(t, adminA, 'POST', URL_PATH, body(uuidv4()))).statusCode).toBe(404);
    const crossTenant = await send(t, adminB, 'POST', URL_PATH, body(fixture.notification.nodeid));
    expect(crossTenant.statusCode).toBe(404);
    expect(crossTenant.body).not.toContain('Spindel');
    expect(await outbox(t)).toHaveLength(before);
  });

  it('queues one mail for a share sent twice under one mutation id (the replay answers the stored result)', async () => {
    const before = (await outbox(t)).length;
    sink.received.length = 0;
    await sentTwice(t, adminA, 'POST', URL_PATH, body(fixture.notification.nodeid, { receiver: 'einmal@werk.example' }), { status: 200 });
    await t.app.mailWorker.runOnce();
    expect(await outbox(t)).toHaveLength(before + 1);
    expect(sink.received.filter((mail) => mail.to.includes('einmal@werk.example'))).toHaveLength(1);
  });

  it('keeps a mail the server refused for a later attempt, with the error and a backoff', async () => {
    sink.state.refuse = true;
    try {
      const response = await send(t, adminA, 'POST', URL_PATH, body(fixture.notification.nodeid, { receiver: 'spaeter@werk.example' }));
      expect(response.statusCode).toBe(200);
      await t.app.mailWorker.runOnce();
      const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'spaeter@werk.example'));
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row!.lasterror).toMatch(/mailbox unavailable/);
      expect(row!.nextattemptat.getTime()).toBeGreaterThan(Date.now() + 10_000);
      expect(row!.nextattemptat.getTime()).toBeLessThan(Date.now() + MAIL_LEASE_MS);
      // Due again: the next run sends it.
      sink.state.refuse = false;
      await t.database.db.update(mailOutbox).set({ nextattemptat: new Date(Date.now() - 1000) }).where(eq(mailOutbox.id, row!.id));
      await t.app.mailWorker.runOnce();
      const [after] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, row!.id));
      expect(after).toMatchObject({ status: 'sent', attempts: 2 });

      // A mail refused on its last attempt is given up: failed, with the error, never claimed again.
      sink.state.refuse = true;
      expect((await send(t, adminA, 'POST', URL_PATH, body(fixture.notification.nodeid, { receiver: 'nie@werk.example' }))).statusCode).toBe(200);
      await t.app.mailWorker.runOnce();
      const [last] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'nie@werk.example'));
      await t.database.db.update(mailOutbox).set({ attempts: MAIL_MAX_ATTEMPTS - 1, nextattemptat: new Date(Date.now() - 1000) }).where(eq(mailOutbox.id, last!.id));
      await t.app.mailWorker.runOnce();
      const [givenUp] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, last!.id));
      expect(givenUp).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS });
      expect(givenUp!.lasterror).toMatch(/mailbox unavailable/);
    } finally {
      sink.state.refuse = false;
    }
  });
});

describe('mail outbox claims', () => {
  let t: TestApp;
  let a: TestTenant;

  beforeAll(async () => {
    ({ t, a } = await createOneTenantApp());
  });
  afterAll(() => t?.close());

  it('two workers claiming at once never get the same mail, and a claimed mail is not due again within the lease', async () => {
    // Due only in an hour, so the app's own worker (real time) leaves them to this test's claims.
    const at = Date.now() + 60 * 60 * 1000;
    for (let i = 0; i < 5; i++) {
      await t.database.db.insert(mailOutbox).values({ id: uuidv4(), legalentitynodeid: a.legalEntity.nodeid, recipient: `m${i}@werk.example`, subject: 's', textbody: 't', nextattemptat: new Date(at) });
    }
    const claim = (nowMs: number, limit = 20) => claimDueMails(t.app.serviceContext, { nowMs, limit });
    expect(await claim(at - 1000)).toEqual([]);
    const [first, second] = await Promise.all([claim(at, 3), claim(at, 3)]);
    const ids = [...first!, ...second!].map((mail) => mail.id);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    expect([...first!, ...second!].every((mail) => mail.attempts === 1)).toBe(true);
    expect(await claim(at + 1000)).toEqual([]);
    expect(await claim(at + MAIL_LEASE_MS + 1000)).toHaveLength(5);
  });
});

describe('share by e-mail without SMTP_URL: .eml files in DATA_DIR/mail', () => {
  let t: TestApp;
  let a: TestTenant;
  let adminA: string;

  beforeAll(async () => {
    ({ t, a, adminA } = await createOneTenantApp({ SHARE_RATE_PER_HOUR: '3' }));
  });
  afterAll(() => t?.close());

  it('writes the message as <outbox id>.eml, its link at the address the device reached the server at', async () => {
    const { notification } = await plant(t, a, 'Kühlmittel leckt');
    // An address of this machine's network card: the server only takes a Host that is one of its own names.
    const host = `${LAN_ADDRESS ?? '127.0.0.1'}:${t.config.port}`;
    const response = await send(t, adminA, 'POST', URL_PATH, body(notification.nodeid), { host });
    expect(response.statusCode, response.body).toBe(200);
    await t.app.mailWorker.runOnce();
    const [row] = await outbox(t);
    expect(row?.status).toBe('sent');
    expect(await readdir(mailDir(t.config))).toEqual([`${row!.id}.eml`]);
    const message = parseMime(await readFile(join(mailDir(t.config), `${row!.id}.eml`), 'utf8'));
    expect(decodedHeader(message, 'to')).toBe('meister@werk.example');
    expect(decodedHeader(message, 'subject')).toBe('Meldung: Kühlmittel leckt');
    expect(textOf(message, 'text/plain')).toContain(`http://${host}/notification-details?nodeid=${notification.nodeid}`);
    expect(attachmentsOf(message).map((file) => file.filename)).toEqual(['Spindel vorne.png']);
  });

  it('limits shares per user and hour (429 with Retry-After); a resend of the refused share is not stored as refused', async () => {
    const { notification } = await plant(t, a);
    // One share already went out above; SHARE_RATE_PER_HOUR is 3.
    for (let i = 0; i < 2; i++) expect((await send(t, adminA, 'POST', URL_PATH, body(notification.nodeid))).statusCode).toBe(200);
    const headers = mutationHeaders(uuidv4(), 1);
    const refused = await send(t, adminA, 'POST', URL_PATH, body(notification.nodeid), headers);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/Too many shares: at most 3 e-mails per hour, retry in \d+ seconds/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(await outbox(t)).toHaveLength(3);
    // The mutation log keeps a 429 out of its record: the same id is tried again later, not answered 429 forever.
    const again = await send(t, adminA, 'POST', URL_PATH, body(notification.nodeid), headers);
    expect(again.statusCode).toBe(429);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    // Another user has a budget of their own.
    const other = await userWithFlags(t, a.legalEntity.nodeid, 'notification', [false, true, false, false]);
    expect((await send(t, other.authorization, 'POST', URL_PATH, body(notification.nodeid))).statusCode).toBe(200);
  });
});

describe('the link in a shared mail points at this server under a name it knows it has, never at the caller\'s Host', () => {
  let t: TestApp;
  let proxied: TestApp;
  let adminA: string;
  let proxiedAdmin: string;
  let nodeid: string;
  let proxiedNodeid: string;
  let port: number;
  /** Where a link goes when the request's host is not one of the server's names (HOST is 0.0.0.0 in the tests). */
  let fallback: string;

  beforeAll(async () => {
    let a: TestTenant;
    ({ t, a, adminA } = await createOneTenantApp());
    nodeid = (await plant(t, a)).notification.nodeid;
    let b: TestTenant;
    ({ t: proxied, a: b, adminA: proxiedAdmin } = await createOneTenantApp({ TRUST_PROXY: 'true' }));
    proxiedNodeid = (await plant(proxied, b)).notification.nodeid;
    port = t.config.port;
    fallback = LAN_ADDRESS ? `http://${LAN_ADDRESS}:${port}` : `http://${hostname().toLowerCase()}:${port}`;
  });
  afterAll(async () => {
    await t?.close();
    await proxied?.close();
  });

  it.each([
    ['a foreign host', 'evil.example'],
    ['a foreign host with the server\'s port', 'evil.example:3000'],
    ['a foreign host in capitals', 'EVIL.EXAMPLE:3000'],
    ['a name that only starts like localhost', 'localhost.evil.example:3000'],
    ['a name that only starts like a loopback address', '127.0.0.1.evil.example'],
    ['a foreign address', '203.0.113.66:3000'],
    ['an IPv4 address in brackets', '[127.0.0.1]:3000'],
    ['a host with user info', 'localhost:3000@evil.example'],
  ])('a share with %s as Host (%s) mails the link at a known name', async (_case, host) => {
    const mail = await sharedMail(t, adminA, nodeid, { host });
    expect(mail.link).toBe(`${fallback}/notification-details?nodeid=${nodeid}`);
    for (const part of [mail.text, mail.html]) {
      expect(part.toLowerCase()).not.toContain('evil');
      expect(part).not.toContain('203.0.113.66');
    }
    expect(mail.html).toContain(`<a href="${mail.link}">`);
  });

  it('a share over localhost or a loopback address on another port gets the known name too (the port is the server\'s)', async () => {
    const mail = await sharedMail(t, adminA, nodeid, { host: `localhost:${port + 1}` });
    expect(mail.link).toBe(`${fallback}/notification-details?nodeid=${nodeid}`);
  });

  it.each([
    ['localhost', () => `localhost:${port}`, () => `http://localhost:${port}`],
    ['localhost in capitals', () => `LocalHost:${port}`, () => `http://localhost:${port}`],
    ['localhost without a port', () => 'localhost', () => 'http://localhost'],
    ['127.0.0.1', () => `127.0.0.1:${port}`, () => `http://127.0.0.1:${port}`],
    ['::1', () => `[::1]:${port}`, () => `http://[::1]:${port}`],
    ['this machine\'s host name', () => `${hostname().toUpperCase()}:${port}`, () => `http://${hostname().toLowerCase()}:${port}`],
  ])('a share over %s keeps the address the device reached the server at', async (_case, host, base) => {
    const mail = await sharedMail(t, adminA, nodeid, { host: host() });
    expect(mail.link).toBe(`${base()}/notification-details?nodeid=${nodeid}`);
    expect(mail.html).toContain(`<a href="${mail.link}">`);
  });

  it('ignores X-Forwarded-Host and -Proto without TRUST_PROXY', async () => {
    const mail = await sharedMail(t, adminA, nodeid, { host: `localhost:${port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
    expect(mail.link).toBe(`http://localhost:${port}/notification-details?nodeid=${nodeid}`);
  });

  it('with TRUST_PROXY, holds X-Forwarded-Host to the same rule as Host, and takes only http or https from X-Forwarded-Proto', async () => {
    const foreign = await sharedMail(proxied, proxiedAdmin, proxiedNodeid, { host: `localhost:${port}`, 'x-forwarded-host': 'evil.example' });
    expect(foreign.link).toBe(`${fallback}/notification-details?nodeid=${proxiedNodeid}`);
    expect(`${foreign.text}${foreign.html}`).not.toContain('evil');

    const own = await sharedMail(proxied, proxiedAdmin, proxiedNodeid, { host: 'evil.example', 'x-forwarded-host': `127.0.0.1:${port}`, 'x-forwarded-proto': 'https' });
    expect(own.link).toBe(`https://127.0.0.1:${port}/notification-details?nodeid=${proxiedNodeid}`);

    const scheme = await sharedMail(proxied, proxiedAdmin, proxiedNodeid, { host: `localhost:${port}`, 'x-forwarded-proto': 'https://evil.example/#' });
    expect(scheme.link).toBe(`http://localhost:${port}/notification-details?nodeid=${proxiedNodeid}`);
    expect(`${scheme.text}${scheme.html}`).not.toContain('evil');
  });
});
