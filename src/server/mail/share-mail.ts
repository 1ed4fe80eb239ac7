/**
 * The text of a shared notification's e-mail (spec part 1 §2.2 "Meldung teilen"): subject with the title, a plain
 * text and an HTML body (every value escaped) with type, status, machine, description, error code, who shared it,
 * the photos (attached, or named with the link when too large) and the link to the notification. Pure, so the
 * unit of what a recipient reads is tested without a mail server.
 */
import type { Language } from '../../shared/domain/language';

const TYPE_NAMES: Record<Language, readonly string[]> = {
  de: [
    'Ungeplanter Stillstand (technischer Defekt)', 'Auffälligkeit', 'Hinweis', 'Aufgabe', 'Interne Mitteilung', 'Herstellermitteilung', 'Geplante Wartung',
    'Reaktive Wartung', 'Reparatur', 'Verbesserung', 'Ungeplanter Stillstand (Verschleiß)', 'Ungeplanter Stillstand (Bedienfehler)', 'Störung ohne Stillstand',
  ],
  en: [
    'Unplanned downtime (technical defect)', 'Anomaly', 'Note', 'Task', 'Internal message', 'Manufacturer message', 'Planned maintenance',
    'Reactive maintenance', 'Repair', 'Improvement', 'Unplanned downtime (wear)', 'Unplanned downtime (operating error)', 'Malfunction without downtime',
  ],
};
const UNKNOWN_TYPE: Record<Language, string> = { de: 'Unbekannter Typ', en: 'Unknown type' };
const STATUS_NAMES: Record<Language, readonly string[]> = { de: ['Offen', 'In Bearbeitung', 'Erledigt'], en: ['Open', 'In progress', 'Closed'] };

interface Labels {
  subject: string;
  intro: (sharer: string) => string;
  type: string;
  status: string;
  machine: string;
  description: string;
  errorcode: string;
  created: string;
  photos: string;
  attached: string;
  tooLarge: string;
  open: string;
}

const LABELS: Record<Language, Labels> = {
  de: {
    subject: 'Meldung',
    intro: (sharer: string) => `${sharer} hat eine Meldung aus dem Anlagenbuch mit Ihnen geteilt.`,
    type: 'Meldungsart',
    status: 'Status',
    machine: 'Maschine',
    description: 'Beschreibung',
    errorcode: 'Fehlercode',
    created: 'Erstellt',
    photos: 'Fotos',
    attached: 'im Anhang',
    tooLarge: 'zu groß für den Anhang, in der Meldung ansehen',
    open: 'Meldung öffnen',
  },
  en: {
    subject: 'Notification',
    intro: (sharer: string) => `${sharer} shared a notification from Anlagenbuch with you.`,
    type: 'Type',
    status: 'Status',
    machine: 'Machine',
    description: 'Description',
    errorcode: 'Error code',
    created: 'Created',
    photos: 'Photos',
    attached: 'attached',
    tooLarge: 'too large to attach, see the notification',
    open: 'Open notification',
  },
};

export interface SharedPhoto {
  title: string;
  size: number | null;
  /** Sent as an attachment (false: too large, named with the notification's link). */
  attached: boolean;
}

export interface ShareMailInput {
  lang: Language;
  /** Without trailing slash (config.publicUrl). */
  publicUrl: string;
  notification: {
    nodeid: string;
    type: number;
    status: number;
    title: string;
    description: string | null;
    errorcode: string | null;
    created: Date;
  };
  machine: { name: string; equipmentid: string | null };
  sharer: { givenname: string; surname: string; email: string };
  photos: readonly SharedPhoto[];
}

export interface ShareMail {
  subject: string;
  text: string;
  html: string;
}

/** `<public base>/notification-details?nodeid=…`: where the app opens the notification (§2.2). */
export function notificationLink(publicUrl: string, nodeid: string): string {
  return `${publicUrl}/notification-details?nodeid=${encodeURIComponent(nodeid)}`;
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** One line for a header: control characters (a line break would start a new header) become spaces. */
function oneLine(value: string): string {
  // eslint-disable-next-line no-control-regex -- why: exactly the control characters are what must go.
  return value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

function dateText(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  // why UTC: the server knows no plant time zone; the mail says so rather than guessing.
  const text = `${pad(date.getUTCDate())}.${pad(date.getUTCMonth() + 1)}.${date.getUTCFullYear()} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
  return text;
}

function sizeText(bytes: number | null): string {
  if (bytes === null) return '';
  return bytes >= 1024 * 1024 ? ` (${(bytes / (1024 * 1024)).toFixed(1)} MB)` : ` (${Math.max(1, Math.round(bytes / 1024))} KB)`;
}

export function buildShareMail(input: ShareMailInput): ShareMail {
  const { lang, notification: n } = input;
  // why a switch, not table[lang]: `lang` comes from a request; only the two known languages are ever read.
  const inLang = <T>(table: Record<Language, T>): T => (lang === 'en' ? table.en : table.de);
  const label = inLang(LABELS);
  const link = notificationLink(input.publicUrl, n.nodeid);
  const sharer = `${input.sharer.givenname} ${input.sharer.surname}`.trim() || input.sharer.email;
  const type = inLang(TYPE_NAMES)[n.type] ?? inLang(UNKNOWN_TYPE);
  const status = inLang(STATUS_NAMES)[n.status] ?? String(n.status);
  const machine = input.machine.equipmentid ? `${input.machine.name} (${input.machine.equipmentid})` : input.machine.name;
  const rows: [string, string][] = [
    [label.type, type],
    [label.status, status],
    [label.machine, machine],
    [label.created, dateText(n.created)],
    [label.errorcode, n.errorcode?.trim() ? n.errorcode : '---'],
  ];
  const description = n.description?.trim() ? n.description : '---';
  const photoLine = (photo: SharedPhoto) => `${photo.title}${sizeText(photo.size)}: ${photo.attached ? label.attached : `${label.tooLarge}: ${link}`}`;

  const text = [
    label.intro(sharer),
    '',
    n.title,
    '',
    ...rows.map(([key, value]) => `${key}: ${value}`),
    '',
    `${label.description}:`,
    description,
    ...(input.photos.length > 0 ? ['', `${label.photos}:`, ...input.photos.map((photo) => `- ${photoLine(photo)}`)] : []),
    '',
    `${label.open}: ${link}`,
    '',
  ].join('\n');

  const cell = 'padding:4px 12px 4px 0;vertical-align:top';
  const html = [
    '<!doctype html>',
    `<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(n.title)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#1a202c">',
    `<p>${escapeHtml(label.intro(sharer))}</p>`,
    `<h1 style="font-size:20px">${escapeHtml(n.title)}</h1>`,
    '<table style="border-collapse:collapse">',
    ...rows.map(([key, value]) => `<tr><th style="${cell};text-align:left">${escapeHtml(key)}</th><td style="${cell}">${escapeHtml(value)}</td></tr>`),
    '</table>',
    `<h2 style="font-size:16px">${escapeHtml(label.description)}</h2>`,
    `<p style="white-space:pre-wrap">${escapeHtml(description)}</p>`,
    ...(input.photos.length > 0
      ? [
          `<h2 style="font-size:16px">${escapeHtml(label.photos)}</h2>`,
          '<ul>',
          ...input.photos.map((photo) =>
            photo.attached
              ? `<li>${escapeHtml(`${photo.title}${sizeText(photo.size)}`)}: ${escapeHtml(label.attached)}</li>`
              : `<li>${escapeHtml(`${photo.title}${sizeText(photo.size)}`)}: <a href="${escapeHtml(link)}">${escapeHtml(label.tooLarge)}</a></li>`,
          ),
          '</ul>',
        ]
      : []),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(label.open)}</a></p>`,
    '</body></html>',
  ].join('\n');

  return { subject: oneLine(`${label.subject}: ${n.title}`), text, html };
}
