import { buildBilling } from './demo/build-billing';
import { buildDocumentation } from './demo/build-documentation';
import { buildHistory } from './demo/build-history';
import { buildMaintenance, buildRecentTasks } from './demo/build-maintenance';
import { buildExampleFault, buildNotifications } from './demo/build-notifications';
import { buildOrganisation } from './demo/build-organisation';
import { buildStructure } from './demo/build-structure';
import { type DemoBlob, DemoContext, type DemoTables } from './demo/context';

export interface DemoData {
  tenantId: string;
  tables: DemoTables;
  blobs: DemoBlob[];
}

/**
 * The whole demo plant as rows and file bytes, computed without touching a database: the same `now` always
 * gives the same plant. `passwordHash` is the hash of the demo password, made once by the caller (argon2 is
 * slow by design and salts randomly, so it stays out of the deterministic part).
 */
export function buildDemoData(now: Date, passwordHash: string): DemoData {
  const ctx = new DemoContext(now);
  const organisation = buildOrganisation(ctx, passwordHash);
  const structure = buildStructure(ctx, organisation);
  const maintenance = buildMaintenance(ctx, organisation, structure);
  buildNotifications(ctx, organisation, structure, maintenance);
  buildDocumentation(ctx, organisation, structure);
  buildBilling(ctx, organisation);
  // Last, in the order they were added: each takes ids after everything before it, so adding one left the rest
  // of the plant as it was.
  buildHistory(ctx, organisation, structure);
  buildRecentTasks(ctx, structure);
  buildExampleFault(ctx, organisation, structure);
  return { tenantId: ctx.tenantId, tables: ctx.tables, blobs: ctx.blobs };
}
