import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import type { Db } from '../../db/index.js';
import * as store from './store.js';

/**
 * Fedify's key-value store over our database (table `federation_kv`): its caches of remote
 * documents and keys, and its inbox idempotence records. A key is the JSON text of its parts;
 * an entry with a time to live keeps its expiry and is not read after it (the
 * `federation.kv-prune` job deletes it).
 */
export class DbKvStore implements KvStore {
  constructor(private readonly db: Db) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const raw = await store.kvGet(this.db, JSON.stringify(key), Date.now());
    return raw === undefined ? undefined : (JSON.parse(raw) as T);
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const ttl = options?.ttl ? options.ttl.total('millisecond') : 0;
    await store.kvSet(this.db, JSON.stringify(key), JSON.stringify(value ?? null), ttl > 0 ? Date.now() + ttl : 0);
  }

  async delete(key: KvKey): Promise<void> {
    await store.kvDelete(this.db, JSON.stringify(key));
  }

  async *list(prefix: KvKey = [] as unknown as KvKey): AsyncIterable<KvStoreListEntry> {
    // '["a","b"' matches the key ["a","b"] itself and every longer key under it.
    const text = JSON.stringify(prefix).slice(0, -1);
    for (const row of await store.kvList(this.db, text, Date.now())) {
      const rest = row.key.slice(text.length);
      if (!(rest === ']' || rest.startsWith(',') || text === '[')) continue;
      yield { key: JSON.parse(row.key) as KvKey, value: JSON.parse(row.value) as unknown };
    }
  }
}
