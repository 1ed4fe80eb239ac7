import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../src/server/db/client';
import { costs, reports } from '../../src/server/db/schema';
import { insertTenantDefaults, type TenantDefaults } from '../../src/server/db/seed/tenant-defaults';
import { ensureUnits } from './notifications';
import { insertRow, type Overrides } from './insert';

// Builders and inserters for cost types, costs and reports (a report is a cost source); see structure.ts for the conventions.

/** The five standard cost types (the tenant defaults a new organisation starts with), at the tenant's version 1. */
export async function insertCostTypes(db: Db, legalentitynodeid: string): Promise<TenantDefaults['costTypeIds']> {
  await ensureUnits(db);
  // why the defaults: they are the rows a real organisation has; a hand-built type list could drift from them.
  const defaults = await insertTenantDefaults(db, { legalentitynodeid, newId: uuidv7, version: 1 });
  return defaults.costTypeIds;
}

export type CostInsert = typeof costs.$inferInsert;

/** An actual cost of 100 on the source given (exactly one of notification, report, task). */
export async function insertCost(db: Db, overrides: Overrides<CostInsert> & { costtypenodeid: string }) {
  return insertRow(db, costs, { nodeid: uuidv7(), value: 100, specifier: 'actualcost', ...overrides });
}

export type ReportInsert = typeof reports.$inferInsert;

export async function insertReport(db: Db, overrides: Overrides<ReportInsert> & { notificationnodeid: string }) {
  const now = new Date();
  return insertRow(db, reports, { nodeid: uuidv7(), executed: now, created: now, comment: 'Wartung durchgeführt', ...overrides });
}
