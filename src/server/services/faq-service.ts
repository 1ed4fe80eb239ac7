import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { CreateFaq, UpdateFaq } from '../../shared/api/faqs';
import { createFaq as createMutation, updateFaq as updateMutation } from '../../shared/mutations/faqs';
import type { FaqRow } from '../../shared/rows/solutions';
import type { Tx } from '../db/client';
import { equipment, equipmentTypes, faqs } from '../db/schema';
import { badRequest, notFound } from '../http-errors';
import { nextVersionCte } from './change-feed';
import { deleteWithOwned } from './ownership';
import { writeChangedFields } from './record-history';
import { applyContext, toColumnValues, toRowShape } from './rows';
import { writeTransaction, type Actor, type ServiceContext } from './service-context';
import { assertBodyIdMatches, existingForCreate, lockOwnRow, lockParent, ofTenant } from './structure-common';

/**
 * FAQs (spec part 1 §2.3, §3, §7), the writes of the declarations in src/shared/mutations/faqs.ts. Every write
 * is scoped to the caller's tenant (another tenant's FAQ, machine or type is a 404), takes the tenant's next
 * change version, so the rows reach other devices through the pull, and answers the FAQ's row.
 */

const KIND = 'faqs';
const NOT_FOUND = 'FAQ not found';

/** The FAQ's owner, a machine (`internalfaq`) or an equipment type (`equipmenttypefaq`) of the caller's tenant. */
async function assertOwnerOfTenant(tx: Tx, actor: Actor, input: CreateFaq): Promise<void> {
  const table = input.specifier === 'internalfaq' ? equipment : equipmentTypes;
  if (!(await lockParent(tx, table, actor, input.isfaqof))) throw notFound(input.specifier === 'internalfaq' ? 'isfaqof: Equipment not found' : 'isfaqof: Equipment type not found');
}

/**
 * createFaq: the row the declaration computes, with the caller as author. The same create sent again under a
 * new mutation id answers the row it made; an id used by another record answers 409, a deleted FAQ's id 410.
 */
export async function createFaq(ctx: ServiceContext, actor: Actor, input: CreateFaq): Promise<FaqRow> {
  if (input.usernodeid !== undefined && input.usernodeid !== actor.usernodeid) {
    throw badRequest('Invalid body: usernodeid: Must be your own user id', [{ field: 'usernodeid', message: 'Must be your own user id' }]);
  }
  const nodeid = input.nodeid ?? uuidv7();
  return writeTransaction(ctx, 'faq.create', async (tx) => {
    await assertOwnerOfTenant(tx, actor, input);
    const fields = createMutation.apply!(undefined, { params: {}, body: { ...input, nodeid } }, applyContext(actor));
    const [found] = await tx.select().from(faqs).where(eq(faqs.nodeid, nodeid));
    const same = await existingForCreate(tx, actor, KIND, nodeid, found, (row) =>
      row.question === fields.question && row.answer === fields.answer && row.equipmentnodeid === fields.equipmentnodeid && row.equipmenttypenodeid === fields.equipmenttypenodeid,
    );
    if (same) return toRowShape(same) as FaqRow;
    // why the version taken in the insert and the answer from its returning: from the version to the commit every
    // other writer of the tenant waits (docs/decisions.md "Write: the version late").
    const next = nextVersionCte(tx, actor.legalentitynodeid);
    const [row] = await tx
      .with(next.cte)
      .insert(faqs)
      .values({
        ...(toColumnValues(faqs, fields) as Omit<typeof faqs.$inferInsert, 'nodeid' | 'legalentitynodeid' | 'version'>),
        nodeid,
        legalentitynodeid: actor.legalentitynodeid,
        version: next.version,
      })
      .returning();
    return toRowShape(row!) as FaqRow;
  });
}

/** updateFaq: question and answer, only the fields sent; what it overwrites goes to the record history. */
export async function updateFaq(ctx: ServiceContext, actor: Actor, nodeid: string, input: UpdateFaq): Promise<FaqRow> {
  assertBodyIdMatches('questionanswernodeid', input.questionanswernodeid, nodeid);
  return writeTransaction(ctx, 'faq.update', async (tx) => {
    const current = await lockOwnRow(tx, faqs, actor, nodeid, () => notFound(NOT_FOUND), 'change');
    const change = updateMutation.apply!(toRowShape(current), { params: { id: nodeid }, body: input }, applyContext(actor));
    const patch = toColumnValues(faqs, change) as Partial<typeof faqs.$inferSelect>;
    const written = await writeChangedFields(tx, actor, { table: faqs, kind: KIND, nodeid, current, patch, where: ofTenant(faqs, actor, nodeid) });
    return toRowShape(written ?? current) as FaqRow;
  });
}

/** deleteFaq: the FAQ and its attachments (ownership.ts), each with a tombstone for the pull. */
export async function deleteFaq(ctx: ServiceContext, actor: Actor, nodeid: string): Promise<{ nodeid: string; version: number }> {
  return writeTransaction(ctx, 'faq.delete', async (tx) => {
    await lockOwnRow(tx, faqs, actor, nodeid, () => notFound(NOT_FOUND), 'delete');
    const { version } = await deleteWithOwned(tx, actor.legalentitynodeid, KIND, [nodeid], 'next');
    return { nodeid, version };
  });
}
