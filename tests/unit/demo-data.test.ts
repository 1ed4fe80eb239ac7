import { describe, expect, it } from 'vitest';
import { buildDemoData } from '../../src/server/db/seed/build-demo';
import { EXAMPLE_MACHINE } from '../../src/server/db/seed/demo/build-notifications';

// The demo is generated relative to `now`; its invariants must hold whatever day the server starts on.
const CLOCKS = ['2026-03-15T10:00:00Z', '2026-12-31T23:59:00Z', '2027-02-28T05:00:00Z', '2026-07-01T12:30:00Z', '2026-11-30T06:10:00Z'].map((iso) => new Date(iso));

describe.each(CLOCKS.map((now) => [now.toISOString(), now] as const))('demo data built at %s', (_label, now) => {
  const data = buildDemoData(now, 'hash');
  const { tables } = data;

  it('keeps every event in the past and in order', () => {
    for (const n of tables.notifications) {
      const created = n.created.getTime();
      expect(created, n.title).toBeLessThanOrEqual(now.getTime());
      if (n.progressstarted) expect(n.progressstarted.getTime(), n.title).toBeGreaterThanOrEqual(created);
      if (n.closed) {
        expect(n.status).toBe(2);
        expect(n.closed.getTime(), n.title).toBeGreaterThanOrEqual(n.progressstarted!.getTime());
        expect(n.closed.getTime()).toBeLessThanOrEqual(now.getTime());
      } else {
        expect(n.status).not.toBe(2);
      }
    }
    for (const report of tables.reports) {
      expect(report.created.getTime()).toBeGreaterThanOrEqual(report.executed.getTime());
      expect(report.created.getTime()).toBeLessThanOrEqual(now.getTime());
    }
    for (const reading of tables.counterReadings) expect(reading.takenat.getTime()).toBeLessThanOrEqual(now.getTime());
  });

  it('has readings that never go down', () => {
    const byCounter = new Map<string, { takenat: Date; value: number }[]>();
    for (const r of tables.counterReadings) byCounter.set(r.counternodeid, [...(byCounter.get(r.counternodeid) ?? []), { takenat: r.takenat, value: r.value }]);
    for (const readings of byCounter.values()) {
      const sorted = [...readings].sort((a, b) => a.takenat.getTime() - b.takenat.getTime());
      sorted.forEach((r, i) => i > 0 && expect(r.value).toBeGreaterThanOrEqual(sorted[i - 1]!.value));
    }
  });

  it('covers every usable type and every status', () => {
    expect(new Set(tables.notifications.map((n) => n.type)).size).toBe(11);
    expect(new Set(tables.notifications.map((n) => n.status))).toEqual(new Set([0, 1, 2]));
  });

  it('the example machine has an open fault, not only planned maintenance (on 2026-11-30 at 06:10 UTC it had none)', () => {
    const machine = tables.equipment.find((row) => row.name === EXAMPLE_MACHINE)!;
    const open = tables.notifications.filter((n) => n.equipmentnodeid === machine.nodeid && n.status !== 2 && n.type !== 6);
    expect(open.length).toBeGreaterThan(0);
  });

  it('references only rows it created', () => {
    const ids = new Set([...tables.notifications, ...tables.reports, ...tables.maintenanceTasks].map((r) => r.nodeid));
    for (const cost of tables.costs) {
      const source = cost.notificationnodeid ?? cost.reportnodeid ?? cost.maintenancetasknodeid;
      expect(ids.has(source!)).toBe(true);
    }
    const fileIds = new Set(tables.files.map((f) => f.nodeid));
    for (const attachment of tables.attachments) expect(fileIds.has(attachment.filenodeid)).toBe(true);
    expect(data.blobs).toHaveLength(tables.files.length);
  });
});
