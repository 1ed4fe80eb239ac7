import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { prettyLogs } from '../../src/server/config';
import { DEMO_LOGINS } from '../../src/server/db/seed/demo-users';
import { bannerText, networkUrls } from '../../src/server/start-banner';

const card = (address: string, family: 'IPv4' | 'IPv6', internal = false): NetworkInterfaceInfo =>
  ({ address, family, internal, netmask: '', mac: '', cidr: null, ...(family === 'IPv6' ? { scopeid: 0 } : {}) }) as NetworkInterfaceInfo;
const interfaces = {
  lo: [card('127.0.0.1', 'IPv4', true), card('::1', 'IPv6', true)],
  eth0: [card('192.168.178.20', 'IPv4'), card('fe80::1', 'IPv6')],
  wlan0: [card('10.0.0.7', 'IPv4')],
};

describe('start banner', () => {
  it('lists the addresses a tablet on the same network uses when the server listens on every interface', () => {
    expect(networkUrls('0.0.0.0', 3000, interfaces)).toEqual(['http://192.168.178.20:3000', 'http://10.0.0.7:3000']);
    expect(networkUrls('192.168.178.20', 3000, interfaces)).toEqual(['http://192.168.178.20:3000']);
    expect(networkUrls('127.0.0.1', 3000, interfaces)).toEqual([]);
    expect(networkUrls('0.0.0.0', 3000, { lo: interfaces.lo })).toEqual([]);
  });

  it('is German throughout, the demo roles included', () => {
    const text = bannerText({
      version: '0.1.0',
      publicUrl: 'http://localhost:3000',
      host: '0.0.0.0',
      port: 3000,
      database: { kind: 'pglite', dir: '/srv/data/db' },
      files: { kind: 'local', dir: '/srv/data/files' },
      seeded: true,
      demoLogins: DEMO_LOGINS,
      interfaces,
    });
    expect(text).toContain('Anlagenbuch 0.1.0 läuft: http://localhost:3000');
    expect(text).toContain('Im Netzwerk (Tablets): http://192.168.178.20:3000  http://10.0.0.7:3000');
    expect(text).toContain('Datenbank: eingebettete PGlite-Datenbank in /srv/data/db (Demo-Anlage eben geladen)');
    expect(text).toContain('Dateien: Verzeichnis /srv/data/files');
    expect(text).toMatch(/^ {4}Administrator +admin@anlagenbuch\.demo +Demo!2026$/m);
    expect(text).toMatch(/^ {4}Techniker +techniker@anlagenbuch\.demo +Demo!2026$/m);
    expect(text).toMatch(/^ {4}Leser +leser@anlagenbuch\.demo +Demo!2026$/m);
    expect(text).not.toMatch(/technician|reader|embedded/);
  });

  it('says where e-mails go: the SMTP server by host, or the folder of .eml files', () => {
    const base = { version: '1.0.0', publicUrl: 'http://localhost:3000', host: '127.0.0.1', port: 3000, database: { kind: 'postgres' as const }, files: { kind: 'local' as const, dir: '/srv/data/files' }, seeded: false, demoLogins: [], interfaces };
    expect(bannerText({ ...base, mail: { kind: 'files', dir: '/srv/data/mail' } })).toContain('E-Mails: als .eml-Dateien in /srv/data/mail (SMTP_URL nicht gesetzt)');
    expect(bannerText({ ...base, mail: { kind: 'smtp', host: 'mail.werk.example:587' } })).toContain('E-Mails: SMTP-Server mail.werk.example:587 (SMTP_URL)');
  });

  it('says nothing of demo logins or the network when there are none', () => {
    const text = bannerText({ version: '1.0.0', publicUrl: 'https://wartung.example.com', host: '127.0.0.1', port: 3000, database: { kind: 'postgres' }, files: { kind: 's3', bucket: 'anlagenbuch-files', endpoint: 'https://minio.example.com' }, seeded: false, demoLogins: [], interfaces });
    expect(text).not.toContain('Demo-Zugänge');
    expect(text).not.toContain('Im Netzwerk');
    expect(text).toContain('Datenbank: PostgreSQL (DATABASE_URL)');
    expect(text).toContain('Dateien: S3-Bucket anlagenbuch-files auf https://minio.example.com');
  });
});

describe('log format', () => {
  it('is readable on a terminal and JSON otherwise, unless configured', () => {
    expect(prettyLogs('auto', true)).toBe(true);
    expect(prettyLogs('auto', false)).toBe(false);
    expect(prettyLogs('json', true)).toBe(false);
    expect(prettyLogs('pretty', false)).toBe(true);
  });
});
