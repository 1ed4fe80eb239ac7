import { describe, expect, it } from 'vitest';
import {
  buildYearOf,
  EMPTY_HISTORY_FILTER,
  filterHistory,
  groupHistoryByYear,
  HISTORY_FILTER_STATUSES,
  HISTORY_FILTER_TYPES,
  historyDateWindow,
  historyFilterErrors,
  isHistoryFiltered,
  matchesHistoryFilter,
  parseHistoryDate,
  type HistoryFilter,
} from '../../src/shared/domain/history';
import { NOTIFICATION_TYPES } from '../../src/shared/domain/notification';
import { HISTORY_FROM_AFTER_TO, historyQuerySchema } from '../../src/shared/api/history';
import {
  HISTORY_REPORT_TITLE,
  historyFilterSummary,
  historyReportFileName,
  historyReportHeader,
  historyReportRows,
  type HistoryReportLabels,
} from '../../src/client/features/machine/history-report';
import type { HistoryEntry } from '../../src/client/sync/machine-history';

// Dates on the timeline are the device's local days, so the fixtures are built in local time too.
const at = (year: number, month: number, day: number, hour = 10) => new Date(year, month - 1, day, hour).getTime();

function entry(nodeid: string, overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  return { nodeid, type: 0, status: 2, title: `Meldung ${nodeid}`, created: at(2025, 6, 1), closed: null, author: null, colorcode: null, pending: false, ...overrides };
}

const HISTORY: HistoryEntry[] = [
  entry('a', { type: 0, status: 2, created: at(2024, 3, 5) }),
  entry('b', { type: 8, status: 2, created: at(2025, 1, 1, 0) }),
  entry('c', { type: 8, status: 1, created: at(2025, 6, 15) }),
  entry('d', { type: 6, status: 0, created: at(2025, 12, 31, 23) }),
  entry('e', { type: 1, status: 0, created: at(2026, 2, 10) }),
  entry('f', { type: 3, status: 2, created: at(2026, 3, 5) }),
];

const ids = (entries: { nodeid: string }[]) => entries.map((e) => e.nodeid);
const filter = (overrides: Partial<HistoryFilter>): HistoryFilter => ({ ...EMPTY_HISTORY_FILTER, ...overrides });

describe('history filter values (§2.1)', () => {
  it('offers every type except 3, 4 and 5', () => {
    expect(HISTORY_FILTER_TYPES).toEqual([0, 1, 2, 6, 7, 8, 9, 10, 11, 12]);
    expect(NOTIFICATION_TYPES.filter((type) => !HISTORY_FILTER_TYPES.includes(type))).toEqual([3, 4, 5]);
  });

  it('offers the statuses 0, 1 and 2', () => {
    expect(HISTORY_FILTER_STATUSES).toEqual([0, 1, 2]);
  });
});

describe('a typed date (placeholder YYYY-MM-DD)', () => {
  it.each([
    ['', { kind: 'empty' }],
    ['   ', { kind: 'empty' }],
    ['2026-03-05', { kind: 'date', year: 2026, month: 3, day: 5 }],
    [' 2024-02-29 ', { kind: 'date', year: 2024, month: 2, day: 29 }],
    // As the app shows dates (a technician's walkthrough typed them so and was refused).
    ['05.03.2026', { kind: 'date', year: 2026, month: 3, day: 5 }],
    ['5.3.2026', { kind: 'date', year: 2026, month: 3, day: 5 }],
    ['29.02.2024', { kind: 'date', year: 2024, month: 2, day: 29 }],
  ])('%j is %j', (text, expected) => {
    expect(parseHistoryDate(text)).toEqual(expected);
  });

  it.each(['05.03.26', '05-03-2026', '2026-3-5', '2026/03/05', '20260305', 'gestern', '2026-03-05x', '0000-01-01', '01.01.1899'])('%j is not written as a day', (text) => {
    expect(parseHistoryDate(text)).toEqual({ kind: 'invalid', reason: 'format' });
  });

  // Written as a day, but the calendar has no such day: the field says so instead of asking for the format again.
  it.each(['2025-02-29', '2026-13-01', '2026-04-31', '2026-00-10', '31.02.2026', '29.02.2025', '32.01.2026', '1.13.2026'])('%j is no such day', (text) => {
    expect(parseHistoryDate(text)).toEqual({ kind: 'invalid', reason: 'noSuchDay' });
  });
});

describe('each filter alone acts only when set', () => {
  it('nothing set keeps everything, newest first', () => {
    expect(ids(filterHistory(HISTORY, EMPTY_HISTORY_FILTER))).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
    expect(isHistoryFiltered(EMPTY_HISTORY_FILTER)).toBe(false);
  });

  it.each([
    [0, ['a']],
    [8, ['c', 'b']],
    [6, ['d']],
    [9, []],
  ] as const)('type %i keeps %j', (type, expected) => {
    expect(ids(filterHistory(HISTORY, filter({ type })))).toEqual(expected);
  });

  it.each([
    [0, ['e', 'd']],
    [1, ['c']],
    [2, ['f', 'b', 'a']],
  ] as const)('status %i keeps %j', (status, expected) => {
    expect(ids(filterHistory(HISTORY, filter({ status })))).toEqual(expected);
  });

  it.each([
    ['from only: the start day counts whole', { from: '2025-12-31' }, ['f', 'e', 'd']],
    ['to only: the end day counts whole', { to: '2025-01-01' }, ['b', 'a']],
    ['both bounds inclusive', { from: '2025-01-01', to: '2025-12-31' }, ['d', 'c', 'b']],
    ['one day', { from: '2026-03-05', to: '2026-03-05' }, ['f']],
    ['a range without entries', { from: '2023-01-01', to: '2023-12-31' }, []],
  ])('date range, %s', (_label, dates, expected) => {
    expect(ids(filterHistory(HISTORY, filter(dates)))).toEqual(expected);
  });

  it('an entry without a date is kept until a date range is set', () => {
    const undated = [...HISTORY, entry('x', { created: null })];
    expect(ids(filterHistory(undated, EMPTY_HISTORY_FILTER))).toContain('x');
    expect(ids(filterHistory(undated, filter({ from: '2000-01-01' })))).not.toContain('x');
  });
});

describe('filters combined', () => {
  it.each([
    ['type and status', { type: 8, status: 2 }, ['b']],
    ['type and range', { type: 8, from: '2025-03-01' }, ['c']],
    ['status and range', { status: 0, to: '2025-12-31' }, ['d']],
    ['all three', { type: 1, status: 0, from: '2026-01-01', to: '2026-12-31' }, ['e']],
    ['all three, nothing matches', { type: 1, status: 2, from: '2026-01-01' }, []],
  ] as const)('%s', (_label, overrides, expected) => {
    expect(ids(filterHistory(HISTORY, filter(overrides as Partial<HistoryFilter>)))).toEqual(expected);
  });

  it('reset (the empty filter) restores the full list', () => {
    const narrowed = filterHistory(HISTORY, filter({ type: 8, status: 1, from: '2025-01-01' }));
    expect(narrowed).toHaveLength(1);
    expect(filterHistory(HISTORY, EMPTY_HISTORY_FILTER)).toHaveLength(HISTORY.length);
  });
});

describe('invalid date input', () => {
  it.each([
    ['a malformed from', { from: '05.03.25' }, { from: 'invalidDate' }],
    ['an impossible to', { to: '2025-02-30' }, { to: 'noSuchDate' }],
    ['both malformed', { from: 'x', to: 'y' }, { from: 'invalidDate', to: 'invalidDate' }],
    ['from after to', { from: '2026-01-02', to: '2026-01-01' }, { to: 'fromAfterTo' }],
    ['valid', { from: '2026-01-01', to: '2026-01-01' }, {}],
  ])('%s is reported at its field', (_label, dates, expected) => {
    expect(historyFilterErrors(filter(dates))).toEqual(expected);
  });

  it('an invalid bound does not act, the valid one still does', () => {
    expect(ids(filterHistory(HISTORY, filter({ from: '2025-13-01' })))).toEqual(ids(filterHistory(HISTORY, EMPTY_HISTORY_FILTER)));
    expect(ids(filterHistory(HISTORY, filter({ from: 'gestern', to: '2025-01-01' })))).toEqual(['b', 'a']);
    expect(isHistoryFiltered(filter({ from: 'gestern' }))).toBe(false);
  });

  it('a range whose start is after its end filters nothing (the field says why)', () => {
    const reversed = filter({ from: '2026-01-02', to: '2025-01-01' });
    expect(historyDateWindow(reversed)).toEqual({ from: null, until: null });
    expect(filterHistory(HISTORY, reversed)).toHaveLength(HISTORY.length);
  });

  it('other filters still act beside an invalid date', () => {
    expect(ids(filterHistory(HISTORY, filter({ status: 1, to: '31.12.2025' })))).toEqual(['c']);
  });
});

describe('timeline', () => {
  it('groups by local year, newest year first, entries newest first', () => {
    const groups = groupHistoryByYear(filterHistory(HISTORY, EMPTY_HISTORY_FILTER));
    expect(groups.map((g) => [g.year, ids(g.entries)])).toEqual([
      [2026, ['f', 'e']],
      [2025, ['d', 'c', 'b']],
      [2024, ['a']],
    ]);
  });

  it('entries without a date form the last group', () => {
    const groups = groupHistoryByYear(filterHistory([...HISTORY, entry('x', { created: null })], EMPTY_HISTORY_FILTER));
    expect(groups.at(-1)).toEqual({ year: null, entries: [expect.objectContaining({ nodeid: 'x' })] });
  });

  it('the same date keeps one stable order', () => {
    const same = [entry('q', { created: at(2025, 1, 1) }), entry('p', { created: at(2025, 1, 1) })];
    expect(ids(filterHistory(same, EMPTY_HISTORY_FILTER))).toEqual(['p', 'q']);
    expect(matchesHistoryFilter(same[0]!, filter({ type: 0 }))).toBe(true);
  });

  it.each([
    [Date.UTC(2014, 0, 1), 2014],
    [Date.UTC(1998, 0, 1), 1998],
    [null, null],
    ['2014', null],
  ])('build year of constructiondate %j is %j', (value, year) => {
    expect(buildYearOf(value)).toBe(year);
  });
});

describe('Equipment Report model', () => {
  const labels: HistoryReportLabels = {
    type: (type) => ({ 0: 'Ungeplanter Stillstand (technischer Defekt)', 6: 'Geplante Wartung', 8: 'Reparatur' } as Record<number, string>)[type as number] ?? 'Unbekannter Typ',
    status: (status) => ['Offen', 'In Bearbeitung', 'Erledigt'][status] ?? 'Offen',
    fields: { name: 'Maschine', brand: 'Marke', model: 'Modell', site: 'Werk', areaOrPool: 'Bereich / Pool', equipmentid: 'Equipment ID', inventoryid: 'Inventar ID', buildYear: 'Baujahr' },
    filter: { type: 'Art', status: 'Status', period: 'Zeitraum', from: 'ab', until: 'bis', none: 'keine – alle Meldungen' },
  };

  it('has one row per entry: date, type, title, status, closed on (closed ones only), reported by', () => {
    const rows = historyReportRows(
      [
        entry('a', { type: 8, status: 2, title: 'Hydraulikschlauch getauscht – Öl übergelaufen', created: at(2025, 3, 5), closed: at(2025, 3, 7), author: 'Jonas Weber' }),
        entry('b', { type: 6, status: 1, title: 'Wartung Spindel', created: at(2026, 1, 9), closed: null }),
        entry('c', { type: 42, status: 0, title: '', created: null }),
      ],
      labels,
    );
    expect(rows).toEqual([
      ['05.03.2025', 'Reparatur', 'Hydraulikschlauch getauscht – Öl übergelaufen', 'Erledigt', '07.03.2025', 'Jonas Weber'],
      ['09.01.2026', 'Geplante Wartung', 'Wartung Spindel', 'In Bearbeitung', '–', '–'],
      ['–', 'Unbekannter Typ', '–', 'Offen', '–', '–'],
    ]);
  });

  it('keeps the order it is given (the tab’s filtered order)', () => {
    const rows = historyReportRows(filterHistory(HISTORY, filter({ type: 8 })), labels);
    expect(rows.map((row) => row[0])).toEqual(['15.06.2025', '01.01.2025']);
  });

  it('says the active filters in words, or that none act', () => {
    expect(historyFilterSummary(EMPTY_HISTORY_FILTER, labels)).toBe('keine – alle Meldungen');
    expect(historyFilterSummary(filter({ type: 8, status: 2, from: '2025-01-01', to: '2025-12-31' }), labels)).toBe('Art: Reparatur · Status: Erledigt · Zeitraum: 01.01.2025 – 31.12.2025');
    expect(historyFilterSummary(filter({ from: '2025-01-01' }), labels)).toBe('Zeitraum: ab 01.01.2025');
    expect(historyFilterSummary(filter({ to: '2025-12-31' }), labels)).toBe('Zeitraum: bis 31.12.2025');
    expect(historyFilterSummary(filter({ from: '1.1.25' }), labels)).toBe('keine – alle Meldungen');
  });

  it('has the machine header with area and pool, a dash for what is missing', () => {
    const header = historyReportHeader(
      { name: 'BAZ 02 Fräszentrum', brand: 'DMG MORI', model: 'DMU 50', site: 'Werk Stuttgart', area: 'Halle 1', pool: 'Fräsen', equipmentid: 'STR-BAZ-02', inventoryid: null, buildYear: 2014 },
      labels,
    );
    expect(header).toEqual([
      ['Maschine', 'BAZ 02 Fräszentrum'],
      ['Marke', 'DMG MORI'],
      ['Modell', 'DMU 50'],
      ['Werk', 'Werk Stuttgart'],
      ['Bereich / Pool', 'Halle 1 / Fräsen'],
      ['Equipment ID', 'STR-BAZ-02'],
      ['Inventar ID', '–'],
      ['Baujahr', '2014'],
    ]);
  });

  it('is named Equipment Report with the machine and the date', () => {
    expect(HISTORY_REPORT_TITLE).toBe('Equipment Report');
    expect(historyReportFileName('BAZ 02 Fräszentrum', at(2026, 11, 24))).toBe('Equipment Report BAZ 02 Fräszentrum 24.11.2026.pdf');
    expect(historyReportFileName('Presse 3/4: "alt"', at(2026, 1, 2))).toBe('Equipment Report Presse 3 4 alt 02.01.2026.pdf');
  });
});

describe('the history query (GET /api/equipments/{id}/history)', () => {
  const issues = (query: Record<string, string>) => {
    const result = historyQuerySchema.safeParse({ lang: 'de', ...query });
    return result.success ? [] : result.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
  };

  it.each([
    ['both as YYYY-MM-DD', { from: '2026-01-01', to: '2025-01-01' }],
    ['one day apart', { from: '2025-01-02', to: '2025-01-01' }],
    ['as the app shows dates', { from: '02.01.2025', to: '01.01.2025' }],
    ['in the two spellings', { from: '2025-01-02', to: '01.01.2025' }],
  ])('refuses a start after the end (%s) at to, where the tab shows fromAfterTo', (_label, query) => {
    expect(historyFilterErrors(filter(query)).to).toBe('fromAfterTo');
    expect(issues(query)).toEqual([{ field: 'to', message: HISTORY_FROM_AFTER_TO }]);
  });

  it.each([
    ['the same day', { from: '2025-01-01', to: '01.01.2025' }],
    ['start before end', { from: '2024-12-31', to: '2025-01-01' }],
    ['only a start', { from: '2026-01-01' }],
    ['only an end', { to: '2025-01-01' }],
    ['no dates', {}],
  ])('takes %s', (_label, query) => {
    expect(issues(query)).toEqual([]);
  });

  it('an invalid date is refused at its own field, not as a reversed range', () => {
    expect(issues({ from: '2025-02-30', to: '2025-01-01' })).toEqual([{ field: 'from', message: 'Must be a date YYYY-MM-DD or DD.MM.YYYY' }]);
  });
});
