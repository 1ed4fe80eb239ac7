/**
 * What `npm start` prints for the person who started it: where the app is (also the addresses a tablet on the
 * same network uses), the database, and the demo logins — in German, as the app is.
 */
import type { NetworkInterfaceInfo } from 'node:os';
import type { DemoRole } from './db/seed/demo-users';

/** The demo roles as the app names them (the banner is German; the role ids are not words for people). */
const ROLE_NAMES: Record<DemoRole, string> = { admin: 'Administrator', technician: 'Techniker', reader: 'Leser' };

export interface BannerInput {
  version: string;
  publicUrl: string;
  host: string;
  port: number;
  database: { kind: 'postgres' } | { kind: 'pglite'; dir: string };
  /** Where uploaded files are stored. */
  files: { kind: 's3'; bucket: string; endpoint: string | undefined } | { kind: 'local'; dir: string };
  /** Where e-mails go (shares): an SMTP server (its host only, the URL may hold a password) or a folder of .eml files. */
  mail?: { kind: 'smtp'; host: string } | { kind: 'files'; dir: string };
  /** The demo plant was loaded at this start. */
  seeded: boolean;
  demoLogins: readonly { role: DemoRole; email: string; password: string }[];
  /** os.networkInterfaces(), passed in so the text can be tested. */
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>;
}

const ALL_INTERFACES = new Set(['0.0.0.0', '::', '']);
const LOOPBACK = /^(127\.|::1$|localhost$)/;

/**
 * The URLs other devices reach the server at: on every interface (HOST 0.0.0.0), each IPv4 address of the
 * machine's network cards; on one address, that one; on loopback none (only this computer reaches it).
 */
export function networkUrls(host: string, port: number, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): string[] {
  if (LOOPBACK.test(host)) return [];
  if (!ALL_INTERFACES.has(host)) return [`http://${host.includes(':') ? `[${host}]` : host}:${port}`];
  const addresses = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((info) => info.family === 'IPv4' && !info.internal)
    .map((info) => info.address);
  return [...new Set(addresses)].map((address) => `http://${address}:${port}`);
}

export function bannerText(input: BannerInput): string {
  const lan = networkUrls(input.host, input.port, input.interfaces).filter((url) => url !== input.publicUrl);
  const database = input.database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `eingebettete PGlite-Datenbank in ${input.database.dir}`;
  const lines = ['', `Anlagenbuch ${input.version} läuft: ${input.publicUrl}`];
  if (lan.length > 0) lines.push(`  Im Netzwerk (Tablets): ${lan.join('  ')}`);
  const files = input.files.kind === 's3' ? `S3-Bucket ${input.files.bucket}${input.files.endpoint ? ` auf ${input.files.endpoint}` : ''}` : `Verzeichnis ${input.files.dir}`;
  lines.push(`  API-Dokumentation: ${input.publicUrl}/api/docs`, `  Datenbank: ${database}${input.seeded ? ' (Demo-Anlage eben geladen)' : ''}`, `  Dateien: ${files}`);
  if (input.mail) lines.push(`  E-Mails: ${input.mail.kind === 'smtp' ? `SMTP-Server ${input.mail.host} (SMTP_URL)` : `als .eml-Dateien in ${input.mail.dir} (SMTP_URL nicht gesetzt)`}`);
  if (input.demoLogins.length > 0) {
    const width = Math.max(...input.demoLogins.map((login) => ROLE_NAMES[login.role].length)) + 2;
    const emailWidth = Math.max(...input.demoLogins.map((login) => login.email.length)) + 2;
    lines.push('  Demo-Zugänge:');
    for (const login of input.demoLogins) lines.push(`    ${ROLE_NAMES[login.role].padEnd(width)}${login.email.padEnd(emailWidth)}${login.password}`);
  }
  lines.push('  Beenden mit Strg+C', '');
  return lines.join('\n');
}
