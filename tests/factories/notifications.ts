import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../src/server/db/client';
import { counterReadings, counterTypes, counters, notifications, units } from '../../src/server/db/schema';
import { UNIT_IDS, UNIT_ROWS } from '../../src/server/db/seed/reference-data';
import { insertEquipment, nextSequence } from './structure';
import { insertRow, parentOf, type Overrides } from './insert';

// Builders and inserters for notifications and counters; see structure.ts for the conventions.

export type NotificationInsert = typeof notifications.$inferInsert;

/** An open anomaly (type 1, status 0) created now, unless overridden. */
export function buildNotification(overrides: Overrides<NotificationInsert> & { equipmentnodeid: string }): NotificationInsert {
  return { nodeid: uuidv7(), type: 1, status: 0, title: `Meldung ${nextSequence()}`, description: 'Auffälligkeit an der Maschine', created: new Date(), ...overrides };
}

/** Creates a machine first when `equipmentnodeid` is not given. */
export async function insertNotification(db: Db, overrides: Overrides<NotificationInsert>) {
  const equipmentnodeid = await parentOf(db, overrides.equipmentnodeid, overrides, insertEquipment);
  return insertRow(db, notifications, buildNotification({ ...overrides, equipmentnodeid }));
}

/** Units are global reference data; counter types need them. Inserting twice changes nothing. */
export async function ensureUnits(db: Db): Promise<void> {
  await db.insert(units).values(UNIT_ROWS).onConflictDoNothing();
}

export type CounterTypeInsert = typeof counterTypes.$inferInsert;

export function buildCounterType(overrides: Overrides<CounterTypeInsert>): CounterTypeInsert {
  return { nodeid: uuidv7(), name: `Zählerart ${nextSequence()}`, unitnodeid: UNIT_IDS.hour, ...overrides };
}

export async function insertCounterType(db: Db, overrides: Overrides<CounterTypeInsert>) {
  await ensureUnits(db);
  return insertRow(db, counterTypes, buildCounterType(overrides));
}

export type CounterInsert = typeof counters.$inferInsert;

export function buildCounter(overrides: Overrides<CounterInsert> & { equipmentnodeid: string; countertypenodeid: string }): CounterInsert {
  return { nodeid: uuidv7(), name: `Betriebsstunden ${nextSequence()}`, ...overrides };
}

/** Creates the machine and the counter type first when they are not given. */
export async function insertCounter(db: Db, overrides: Overrides<CounterInsert>) {
  const equipmentnodeid = await parentOf(db, overrides.equipmentnodeid, overrides, insertEquipment);
  const countertypenodeid = await parentOf(db, overrides.countertypenodeid, overrides, insertCounterType);
  return insertRow(db, counters, buildCounter({ ...overrides, equipmentnodeid, countertypenodeid }));
}

export type CounterReadingInsert = typeof counterReadings.$inferInsert;

export function buildCounterReading(overrides: Overrides<CounterReadingInsert> & { counternodeid: string }): CounterReadingInsert {
  return { nodeid: uuidv7(), value: 100, takenat: new Date(), ...overrides };
}

export async function insertCounterReading(db: Db, overrides: Overrides<CounterReadingInsert> & { counternodeid: string }) {
  return insertRow(db, counterReadings, buildCounterReading(overrides));
}
