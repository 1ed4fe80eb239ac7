/**
 * What the user can do with a write the server refused (sync panel): send it again, or discard it after a
 * confirmation. Retrying puts it at the END of the queue with a NEW mutation id (the old id is used up on the
 * server, which stored the refusal) and applies its change to the mirror again — one transaction.
 */
import type { LocalDatabase } from '../db/local-db';
import { enqueueMutation, filesStillNeeded } from './outbox';

export async function retryDeadLetter(db: LocalDatabase, id: number): Promise<void> {
  const letter = await db.deadLetters.get(id);
  if (!letter) return;
  await enqueueMutation(
    { db, usernodeid: letter.usernodeid },
    {
      action: letter.action,
      method: letter.method,
      path: letter.path,
      body: letter.body,
      kind: letter.kind,
      nodeid: letter.nodeid,
      values: letter.values,
      creates: letter.creates,
      dependsOn: letter.dependsOn,
      ...(letter.upload ? { upload: letter.upload } : {}),
    },
    {
      inTransaction: async () => {
        if (!(await db.deadLetters.get(id))) throw new Error('dead letter already handled');
        await db.deadLetters.delete(id);
      },
      extraTables: [db.deadLetters],
    },
  );
}

/** Deletes a refused write for good, and its stored file bytes when nothing else needs them. */
export async function discardDeadLetter(db: LocalDatabase, id: number): Promise<void> {
  await db.transaction('rw', [db.deadLetters, db.outbox, db.fileBytes], async () => {
    const letter = await db.deadLetters.get(id);
    if (!letter) return;
    await db.deadLetters.delete(id);
    const queued = await filesStillNeeded(db, letter.dependsOn);
    for (const fileid of letter.dependsOn) {
      if (queued.has(fileid) || (await db.deadLetters.filter((other) => other.dependsOn.includes(fileid)).count()) > 0) continue;
      await db.fileBytes.delete(fileid);
    }
  });
}
