/**
 * Sends the mail outbox (services/mail-outbox-service.ts): every MAIL_POLL_MS, at start (mails left from before a
 * restart), and at once when a producer kicks it after its commit. Each run claims due mails (safe with several
 * instances), sends them one by one through the configured transport and records sent, or the error with the next
 * attempt after a doubling backoff (`failed` after MAIL_MAX_ATTEMPTS). Runs of one process never overlap; close
 * waits for the running one, then closes the transport.
 */
import type { FastifyInstance } from 'fastify';
import { claimDueMails, markMailFailed, markMailSent } from '../services/mail-outbox-service';
import { shareMailAttachments } from '../services/share-service';
import { runPeriodically } from '../jobs/periodic';
import { createMailTransport, type MailTransport } from './transport';

export const MAIL_POLL_MS = 15_000;

export interface MailWorker {
  readonly transport: MailTransport;
  /** One run after any running one; resolves with the number of mails sent. */
  runOnce(): Promise<number>;
  /** A run soon, without waiting (after a commit that queued mail). */
  kick(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The mail outbox's sender (mail/worker.ts). */
    mailWorker: MailWorker;
  }
}


export function scheduleMailWorker(app: FastifyInstance): void {
  const transport = createMailTransport(app.config);
  let chain: Promise<number> = Promise.resolve(0);
  let closing = false;

  const work = async (): Promise<number> => {
    if (closing) return 0;
    const claimed = await claimDueMails(app.serviceContext);
    let sent = 0;
    for (const mail of claimed) {
      try {
        const attachments = await shareMailAttachments(app.serviceContext, app.fileStorage, mail);
        await transport.send({ id: mail.id, to: mail.recipient, subject: mail.subject, text: mail.textbody, html: mail.htmlbody, attachments });
        await markMailSent(app.serviceContext, mail.id);
        sent += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const outcome = await markMailFailed(app.serviceContext, mail, message);
        app.log.warn({ mail: mail.id, attempts: mail.attempts, outcome, err: error }, outcome === 'failed' ? 'mail given up' : 'mail not sent, will retry');
      }
    }
    return sent;
  };

  const runOnce = (): Promise<number> => {
    chain = chain.catch(() => 0).then(work);
    return chain;
  };

  app.decorate('mailWorker', {
    transport,
    runOnce,
    kick: () => {
      runOnce().catch((error: unknown) => app.log.error({ err: error }, 'mail sending failed'));
    },
  } satisfies MailWorker);

  runPeriodically(app, { intervalMs: MAIL_POLL_MS, atStart: true, failed: 'mail sending failed', work: async () => void (await runOnce()) });
  app.addHook('onClose', async () => {
    closing = true;
    await chain.catch(() => 0);
    transport.close();
  });
}
