// Helpers of the backups domain's tests: targets to restore into and row-for-row comparison.
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../config.js';
import { freshPostgres } from '../../test/harness.js';
import { encodeValue } from './format.js';
import type { OpenArchive } from './reader.js';
import { openSnapshot } from './store.js';

/** The PostgreSQL server the tests use for restore targets (CI always starts it). */
export const PG_BASE = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** An empty database to restore into, with its own data dir (no disk shared with the source). */
export interface Target {
  config: Config;
  dispose(): Promise<void>;
}

/** A fresh, empty target: a new SQLite file or a new PostgreSQL database. */
export async function freshTarget(kind: 'sqlite' | 'postgres', env: Record<string, string> = {}): Promise<Target> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `palaver-restore-${kind}-`));
  const pgDb = kind === 'postgres' ? await freshPostgres(PG_BASE) : null;
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      PALAVER_DATA_DIR: dataDir,
      PALAVER_SECRET: 'test-secret-test-secret-test-secret',
      LOG_LEVEL: 'silent',
      PALAVER_GUEST_CACHE_MS: '0',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
      ...env,
    },
    dataDir,
  );
  return {
    config,
    async dispose() {
      if (pgDb) await pgDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Opens a file as an archive source. */
export const fileSource =
  (file: string): OpenArchive =>
  async () =>
    createReadStream(file);

/** Every table's rows of a database in the archive's neutral form, keyed by table, rows sorted. */
export async function dumpTables(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Record<string, string[]>> {
  const snap = await openSnapshot(config);
  try {
    const out: Record<string, string[]> = {};
    for (const t of await snap.tables()) {
      const rows: string[] = [];
      const cols = [...t.columns].sort();
      for await (const batch of snap.rows(t, 1000)) {
        for (const r of batch) rows.push(JSON.stringify(cols.map((c) => encodeValue(r[t.columns.indexOf(c)]))));
      }
      out[t.name] = rows.sort();
    }
    return out;
  } finally {
    await snap.close();
  }
}

/** A restored dump less the one row a restore adds (the search index's rebuild, queued); fails unless it is there. */
export function withoutQueuedRebuild(restored: Record<string, string[]>, source: Record<string, string[]>): Record<string, string[]> {
  const added = restored.jobs!.filter((r) => !source.jobs!.includes(r));
  if (added.length !== 1 || !added[0]!.includes('"search.reindex"')) throw new Error(`expected one queued search.reindex job, got ${JSON.stringify(added)}`);
  return { ...restored, jobs: restored.jobs!.filter((r) => r !== added[0]) };
}
