import { afterEach, beforeEach } from 'vitest';

// why: the session vault writes to the Web Storage API, which Node does not have; this is the same small
// key/value contract (getItem/setItem/removeItem/clear/key/length) kept in a Map, so tests can also read the raw blob.
export class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();

  get length(): number {
    return this.items.size;
  }

  clear(): void {
    this.items.clear();
  }

  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }

  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }

  removeItem(key: string): void {
    this.items.delete(key);
  }

  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
}

/** Gives each test of the calling `describe` an empty `localStorage` (the kept drafts live there), removed afterwards. */
export function useMemoryLocalStorage(): void {
  beforeEach(() => {
    (globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage();
  });
  afterEach(() => {
    delete (globalThis as { localStorage?: unknown }).localStorage;
  });
}
