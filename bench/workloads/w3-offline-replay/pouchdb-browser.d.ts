// why: pouchdb-browser ships no types and @types/pouchdb is not a dependency; only what W3's page calls.
declare module 'pouchdb-browser' {
  interface ReplicationResult {
    ok: boolean;
    docs_written: number;
    errors: unknown[];
  }
  class PouchDB {
    constructor(name: string);
    put(doc: Record<string, unknown> & { _id: string }): Promise<{ ok: boolean; id: string; rev: string }>;
    close(): Promise<void>;
    static replicate(source: PouchDB | string, target: PouchDB | string, options: Record<string, unknown>): Promise<ReplicationResult>;
  }
  export default PouchDB;
}
