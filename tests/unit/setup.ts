// why: the client's Dexie database runs in Node against fake-indexeddb, a full in-memory IndexedDB.
import 'fake-indexeddb/auto';
