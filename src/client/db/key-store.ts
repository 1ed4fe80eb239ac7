/**
 * Non-extractable WebCrypto keys, kept in their own small IndexedDB database. IndexedDB stores a CryptoKey by
 * structured clone, so the key material never becomes readable to script (extractable: false) and never lands in
 * localStorage next to the ciphertext it protects. A separate database from the data mirror (issue #3) because
 * logout deletes the key but must never touch unsynced data.
 */
import Dexie, { type EntityTable } from 'dexie';
import { v4 as uuidv4 } from 'uuid';
import type { DeviceCredentials } from '../../shared/api/auth';

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

/**
 * This device's identity for the refresh-token binding (docs/api.md § Authentication): a client id and a random
 * secret, made once per browser profile and kept for good. Logout does not remove it: it names the device, not
 * the session, and a device that signed a user in before may log in through a login lockout (docs/api.md).
 */
interface StoredDevice {
  id: 'device';
  deviceid: string;
  devicesecret: string;
  createdAt: number;
}

/** 32 random bytes, base64url: what the server stores only as a hash. */
function newDeviceSecret(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export const KEY_DATABASE_NAME = 'anlagenbuch-keys';

class KeyDatabase extends Dexie {
  keys!: EntityTable<StoredKey, 'id'>;
  device!: EntityTable<StoredDevice, 'id'>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({ keys: 'id' });
    this.version(2).stores({ keys: 'id', device: 'id' });
  }
}

export function createKeyStore(name: string = KEY_DATABASE_NAME): KeyStore & { database: KeyDatabase; deviceCredentials(): Promise<DeviceCredentials> } {
  const database = new KeyDatabase(name);
  return {
    database,
    /** Made on first use; one rw transaction, so two tabs asking at once get the same device (one device, two tabs). */
    deviceCredentials: () =>
      database.transaction('rw', database.device, async () => {
        const existing = await database.device.get('device');
        if (existing) return { deviceid: existing.deviceid, devicesecret: existing.devicesecret };
        const device: StoredDevice = { id: 'device', deviceid: uuidv4(), devicesecret: newDeviceSecret(), createdAt: Date.now() };
        await database.device.put(device);
        return { deviceid: device.deviceid, devicesecret: device.devicesecret };
      }),
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
