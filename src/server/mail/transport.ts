/**
 * Where the server's e-mails go: an SMTP server when SMTP_URL is set (nodemailer), otherwise `.eml` files in
 * DATA_DIR/mail — the embedded default, so a plant without a mail server still sees what would have been sent
 * (the start banner says which). A file is written under a temporary name and renamed, so a reader never sees half
 * a message; its name is the outbox row's id, so sending one row again overwrites the same file.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface OutgoingMail {
  /** The outbox row's id: the file name, and the Message-ID's local part (a resend keeps its identity). */
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attachments: readonly MailAttachment[];
}

export interface MailTransport {
  readonly kind: 'smtp' | 'files';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** The folder of the file transport. */
export function mailDir(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'mail');
}

function message(from: string, mail: OutgoingMail): nodemailer.SendMailOptions {
  const domain = /@([^>\s]+)/.exec(from)?.[1] ?? 'localhost';
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    messageId: `<${mail.id}@${domain}>`,
    attachments: mail.attachments.map((attachment) => ({ filename: attachment.filename, content: attachment.content, contentType: attachment.contentType })),
  };
}

export function createMailTransport(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>): MailTransport {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      kind: 'smtp',
      send: async (mail) => {
        await transport.sendMail(message(config.mailFrom, mail));
      },
      close: () => transport.close(),
    };
  }
  const dir = mailDir(config);
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'files',
    send: async (mail) => {
      const info = await transport.sendMail(message(config.mailFrom, mail));
      await mkdir(dir, { recursive: true });
      const target = join(dir, `${mail.id}.eml`);
      const partial = `${target}.part`;
      await writeFile(partial, info.message as Buffer);
      await rename(partial, target);
    },
    close: () => transport.close(),
  };
}
