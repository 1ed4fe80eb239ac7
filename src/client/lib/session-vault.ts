/**
 * Encrypted persistence of the session (spec part 2 §3: "stored per user in encrypted local storage").
 * The session JSON is encrypted with AES-GCM (256 bit, fresh 96-bit IV per write) under a key generated with
 * extractable: false and kept in IndexedDB (src/client/db/key-store.ts); localStorage holds only
 * `{v, iv, data}` in base64. Tokens therefore never sit in plain text in localStorage, and copying the
 * localStorage value alone (backup, another profile, a log) does not reveal them.
 * Limit, on purpose: script running in the page can still ask WebCrypto to decrypt — this protects data at rest,
 * not against XSS. See docs/client.md.
 */
import type { KeyStore } from '../db/key-store';

export const SESSION_STORAGE_KEY = 'anlagenbuch.session';
const KEY_ID = 'session';
const FORMAT_VERSION = 1;
// why AAD: binds the ciphertext to its purpose and format, so a blob from another use of the key cannot be swapped in.
const ADDITIONAL_DATA = new TextEncoder().encode(`anlagenbuch.session.v${FORMAT_VERSION}`);

export interface SessionVault {
  /** The stored value, or null when there is none or it cannot be decrypted (then it is removed). */
  load(): Promise<unknown>;
  save(value: unknown): Promise<void>;
  /** Removes the blob and the key. */
  clear(): Promise<void>;
}

export interface SessionVaultDeps {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  keyStore: KeyStore;
  subtle?: SubtleCrypto;
  randomBytes?: (length: number) => Uint8Array<ArrayBuffer>;
  storageKey?: string;
}

interface Envelope {
  v: number;
  iv: string;
  data: string;
}

export function createSessionVault(deps: SessionVaultDeps): SessionVault {
  const subtle = deps.subtle ?? globalThis.crypto.subtle;
  const randomBytes = deps.randomBytes ?? ((length: number) => globalThis.crypto.getRandomValues(new Uint8Array(length)));
  const storageKey = deps.storageKey ?? SESSION_STORAGE_KEY;
  let keyPromise: Promise<CryptoKey> | null = null;

  function getOrCreateKey(): Promise<CryptoKey> {
    // why cached promise: two saves racing on first login must not create two keys.
    keyPromise ??= (async () => {
      const existing = await deps.keyStore.get(KEY_ID);
      if (existing) return existing;
      const key = await subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
      await deps.keyStore.put(KEY_ID, key);
      return key;
    })().catch((error: unknown) => {
      keyPromise = null;
      throw error;
    });
    return keyPromise;
  }

  async function removeAll(): Promise<void> {
    keyPromise = null;
    deps.storage.removeItem(storageKey);
    await deps.keyStore.delete(KEY_ID);
  }

  return {
    async load() {
      const raw = deps.storage.getItem(storageKey);
      if (raw === null) return null;
      try {
        const envelope = JSON.parse(raw) as Envelope;
        if (envelope.v !== FORMAT_VERSION || typeof envelope.iv !== 'string' || typeof envelope.data !== 'string') throw new Error('unknown format');
        const key = await deps.keyStore.get(KEY_ID);
        if (!key) throw new Error('key missing');
        const plain = await subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(envelope.iv), additionalData: ADDITIONAL_DATA }, key, fromBase64(envelope.data));
        keyPromise = Promise.resolve(key);
        return JSON.parse(new TextDecoder().decode(plain)) as unknown;
      } catch {
        // An unreadable blob (key deleted, IndexedDB wiped, tampered data) is worthless: start logged out.
        await removeAll();
        return null;
      }
    },
    async save(value) {
      const key = await getOrCreateKey();
      const iv = randomBytes(12);
      const cipher = await subtle.encrypt({ name: 'AES-GCM', iv, additionalData: ADDITIONAL_DATA }, key, new TextEncoder().encode(JSON.stringify(value)));
      const envelope: Envelope = { v: FORMAT_VERSION, iv: toBase64(iv), data: toBase64(new Uint8Array(cipher)) };
      deps.storage.setItem(storageKey, JSON.stringify(envelope));
    },
    clear: removeAll,
  };
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
