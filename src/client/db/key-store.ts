/**
 * Non-extractable WebCrypto keys, kept in their own small IndexedDB database. IndexedDB stores a CryptoKey by
 * structured clone, so the key material never becomes readable to script (extractable: false) and never lands in
 * localStorage next to the ciphertext it protects. A separate database from the data mirror (issue #3) because
 * logout deletes the key but must never touch unsynced data.
 */
import Dexie, { type EntityTable } from 'dexie';

export interface StoredKey {
  id: string;
  key: CryptoKey;
  createdAt: number;
}

export interface KeyStore {
  get(id: string): Promise<CryptoKey | undefined>;
  put(id: string, key: CryptoKey): Promise<void>;
  delete(id: string): Promise<void>;
}

export const KEY_DATABASE_NAME = 'anlagenbuch-keys';

class KeyDatabase extends Dexie {
  keys!: EntityTable<StoredKey, 'id'>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({ keys: 'id' });
  }
}

export function createKeyStore(name: string = KEY_DATABASE_NAME): KeyStore & { database: KeyDatabase } {
  const database = new KeyDatabase(name);
  return {
    database,
    async get(id) {
      return (await database.keys.get(id))?.key;
    },
    async put(id, key) {
      await database.keys.put({ id, key, createdAt: Date.now() });
    },
    async delete(id) {
      await database.keys.delete(id);
    },
  };
}
