import { describe, expect, it } from 'vitest';
import { LocalDatabase } from '../../src/client/db/local-db';
import { readMachineDocuments } from '../../src/client/sync/machine-documents';
import { MutationInputError } from '../../src/shared/mutations/mutation';
import { deleteDocument, updateDocument, uploadDocuments } from '../../src/client/sync/repositories/documents';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const MACHINE = '0190f5a0-0000-7000-8000-0000000000bb';
const DOC = '0190f5a0-0000-7000-8000-0000000000d1';

/** A mirror with a machine, one synced document (with its file row) and a photo hung on the machine. */
async function mirror() {
  const db = new LocalDatabase(`machine-documents-${Math.random()}`);
  await db.mirror('equipment').put({ nodeid: MACHINE, name: 'BAZ 02' });
  await db.mirror('files').put({ nodeid: 'f1', mimetype: 'application/pdf', extension: 'pdf', size: 2048, status: 'complete' });
  await db.mirror('attachments').bulkPut([
    { nodeid: DOC, title: 'Wartungsplan', description: 'Intervalle', specifier: 'maintenance', filenodeid: 'f1', isattachmentof: MACHINE },
    { nodeid: 'p1', title: 'Foto', description: null, specifier: null, filenodeid: 'f2', isattachmentof: MACHINE },
  ]);
  return { db, context: { db, usernodeid: USER, now: () => 1_000 } };
}

describe('the documentation tab on the device', () => {
  it('groups a machine’s documents by category; an attachment without a category is no document', async () => {
    const { db } = await mirror();
    const documents = await readMachineDocuments(db, MACHINE, 'de');
    expect(Object.keys(documents)).toEqual(['operation', 'setup', 'maintenance', 'safety', 'internalinstructions']);
    expect(documents.maintenance).toEqual([
      { nodeid: DOC, title: 'Wartungsplan', description: 'Intervalle', category: 'maintenance', filenodeid: 'f1', mimetype: 'application/pdf', extension: 'pdf', size: 2048, pending: false, local: null },
    ]);
    expect(Object.values(documents).flat()).toHaveLength(1);
  });

  it('an upload of several files shows at once with its bytes, queued in one transaction under the extension’s own type', async () => {
    const { db, context } = await mirror();
    const pdf = new TextEncoder().encode('%PDF-1.4\n%%EOF\n').buffer;
    const csv = new TextEncoder().encode('Datum;Stand\n').buffer;
    const queued = await uploadDocuments(context, MACHINE, [
      { bytes: pdf, name: 'Betriebsanleitung.pdf', title: 'Betriebsanleitung', description: 'Kapitel 1', category: 'operation' },
      { bytes: csv, name: 'Zaehler.csv', title: 'Zählerliste', description: null, category: 'operation' },
    ]);
    expect(queued.map((entry) => entry.mimetype)).toEqual(['application/pdf', 'text/csv']);

    const documents = await readMachineDocuments(db, MACHINE, 'de');
    expect(documents.operation.map((d) => [d.title, d.pending, d.local?.mimetype, d.local?.bytes.byteLength])).toEqual([
      ['Betriebsanleitung', true, 'application/pdf', pdf.byteLength],
      ['Zählerliste', true, 'text/csv', csv.byteLength],
    ]);
    const outbox = await db.outbox.orderBy('seq').toArray();
    // A document's attachment is worded as one ("Dokument hochladen"), and it describes the whole upload: one change.
    expect(outbox.map((entry) => entry.action)).toEqual(['uploadFile', 'attachDocument', 'uploadFile', 'attachDocument']);
    expect(new Set(outbox.map((entry) => entry.userAction))).toEqual(new Set([outbox[1]!.mutationId]));
    expect(outbox[1]!.body).toMatchObject({ title: 'Betriebsanleitung', description: 'Kapitel 1', specifier: 'operation', isattachmentof: MACHINE });
    expect((outbox[2]!.body as { extensions: { mimetype: string }[] }).extensions[0]!.mimetype).toBe('text/csv');
    expect(await db.fileBytes.count()).toBe(2);
  });

  it('an edit moves the document to its new category at once; a delete hides it until the server’s tombstone', async () => {
    const { db, context } = await mirror();
    const before = { title: 'Wartungsplan', description: 'Intervalle', category: 'maintenance' } as const;
    // Only what changed is sent: a field another device wrote meanwhile, untouched here, is not overwritten.
    await updateDocument(context, DOC, before, before);
    expect(await db.outbox.count()).toBe(0);
    await updateDocument(context, DOC, before, { title: 'Wartungshandbuch', description: 'Intervalle', category: 'safety' });
    expect((await db.outbox.toArray())[0]!.body).toEqual({ lang: 'de', attachmentnodeid: DOC, title: 'Wartungshandbuch', specifier: 'safety' });
    let documents = await readMachineDocuments(db, MACHINE, 'de');
    expect(documents.maintenance).toEqual([]);
    expect(documents.safety.map((d) => [d.title, d.description, d.pending])).toEqual([['Wartungshandbuch', 'Intervalle', true]]);

    await deleteDocument(context, DOC);
    documents = await readMachineDocuments(db, MACHINE, 'de');
    expect(Object.values(documents).flat()).toEqual([]);
    const outbox = await db.outbox.orderBy('seq').toArray();
    expect(outbox.map((entry) => [entry.action, entry.method, entry.path])).toEqual([
      ['updateAttachment', 'PUT', `attachments/${DOC}`],
      ['deleteAttachment', 'DELETE', `attachments/${DOC}`],
    ]);
  });

  it('refuses an empty title before anything is queued', async () => {
    const { db, context } = await mirror();
    const refused = await updateDocument(context, DOC, { title: 'Wartungshandbuch', description: null, category: 'setup' }, { title: '  ', description: null, category: 'setup' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MutationInputError);
    expect((refused as MutationInputError).fieldErrors()).toEqual({ title: 'Required' });
    expect(await db.outbox.count()).toBe(0);
  });
});
