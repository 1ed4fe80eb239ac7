import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from './support/memory-storage';
import { DRAFT_MAX_AGE_MS, pruneKeptDrafts } from '../../src/client/stores/kept-drafts';
import { dropStoredNotificationDraft, readStoredNotificationDraft, storeNotificationDraft, type NotificationDraftValues } from '../../src/client/stores/notification-draft-store';

const USER = '0190f5a0-0000-7000-8000-0000000000aa';
const OTHER = '0190f5a0-0000-7000-8000-0000000000bb';
const values: NotificationDraftValues = {
  type: 0,
  title: 'Spindel läuft unrund',
  description: 'Geräusch ab 8000 U/min',
  errorcode: '',
  equipmentnodeid: '0190f5a0-0000-7000-8000-000000000001',
  date: '01.12.2026',
  time: '08:00',
  dueDate: '',
  files: [{ key: 'a', file: new File(['x'], 'foto.jpg') }],
};

describe('the notification draft kept on the device', () => {
  let storage: MemoryStorage;
  beforeEach(() => {
    storage = new MemoryStorage();
    (globalThis as { localStorage?: unknown }).localStorage = storage;
  });
  afterEach(() => {
    delete (globalThis as { localStorage?: unknown }).localStorage;
  });

  it('comes back for the same form and user only, text without the files, with how many there were', () => {
    storeNotificationDraft('add:m1', USER, values, null, 1_000);
    const { files: _files, ...text } = values;
    expect(readStoredNotificationDraft('add:m1', USER, 2_000)).toEqual({ values: text, filledFrom: null, savedAt: 1_000, files: 1 });
    expect(readStoredNotificationDraft('add:m1', OTHER, 2_000)).toBeNull();
    expect(readStoredNotificationDraft('add:m2', USER, 2_000)).toBeNull();
    dropStoredNotificationDraft('add:m1', USER);
    expect(readStoredNotificationDraft('add:m1', USER, 2_000)).toBeNull();
  });

  it('one older than a week, or one this app did not write, is not taken back and is removed', () => {
    storeNotificationDraft('add:m1', USER, values, null, 1_000);
    expect(readStoredNotificationDraft('add:m1', USER, 1_000 + DRAFT_MAX_AGE_MS + 1)).toBeNull();
    expect(storage.length).toBe(0);
    storage.setItem(`anlagenbuch.notification-draft:${USER}:add:m1`, '{"value":{"values":{"title":42},"files":0},"savedAt":1000}');
    expect(readStoredNotificationDraft('add:m1', USER, 2_000)).toBeNull();
    storage.setItem(`anlagenbuch.notification-draft:${USER}:add:m1`, 'not json');
    expect(readStoredNotificationDraft('add:m1', USER, 2_000)).toBeNull();
    expect(storage.length).toBe(0);
  });

  it('drafts of forms nobody opens again are dropped once they are older than a week; other keys stay', () => {
    storeNotificationDraft('add:m1', USER, values, null, 1_000);
    storeNotificationDraft('edit:gone', OTHER, values, null, 1_000 + DRAFT_MAX_AGE_MS);
    storage.setItem('anlagenbuch.quick-fault-draft:u:m', 'kaputt');
    storage.setItem('anlagenbuch.other', 'bleibt');
    pruneKeptDrafts(1_000 + DRAFT_MAX_AGE_MS + 1);
    expect(readStoredNotificationDraft('edit:gone', OTHER, 1_000 + DRAFT_MAX_AGE_MS + 1)).not.toBeNull();
    expect(storage.getItem(`anlagenbuch.notification-draft:${USER}:add:m1`)).toBeNull();
    expect(storage.getItem('anlagenbuch.quick-fault-draft:u:m')).toBeNull();
    expect(storage.getItem('anlagenbuch.other')).toBe('bleibt');
  });

  it('a storage that refuses to write (full) leaves the form working', () => {
    storage.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    expect(() => storeNotificationDraft('add:m1', USER, values, null)).not.toThrow();
  });
});
