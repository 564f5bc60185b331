import type { Writable } from 'node:stream';
import type { Config } from '../../config.js';
import { migrations } from '../../db/index.js';
import type { FileStore } from '../../storage/index.js';
import { palaverVersion } from '../analytics/service.js';
import { BackupError, type ManifestFile } from './format.js';
import { readArchive, verifyArchive, type OpenArchive } from './reader.js';
import { openTarget, type Rebuild } from './restore-store.js';
import { queueSearchRebuild } from '../search/service.js';
import { openSnapshot } from './store.js';
import { writeArchive, type Progress } from './writer.js';

type DbConfig = Pick<Config, 'databaseUrl' | 'dataDir'>;

/**
 * Data the database's triggers derive from other rows: a restore loads the rows with the
 * triggers off, then each of these rebuilds it or queues its rebuild, in the restore's
 * transaction. A domain whose triggers fill a table of their own adds its rebuild here.
 */
const REBUILDS: Rebuild[] = [(db) => queueSearchRebuild(db as never)];

/** Backs up the configured database (one snapshot) and the store's uploads into `out`; returns the manifest. */
export async function backup(config: DbConfig, files: FileStore | null, out: Writable, onProgress?: (p: Progress) => void): Promise<ManifestFile> {
  const snapshot = await openSnapshot(config);
  try {
    return await writeArchive(snapshot, files, out, { version: palaverVersion(), onProgress });
  } finally {
    await snapshot.close();
  }
}

/** How a restore is run. */
export interface RestoreOptions {
  /** Replace a database that has data (the admin page's restore); else only an empty one is accepted. */
  replace?: boolean;
  /** Where the archive's files go (null: they are checked and skipped). */
  files: FileStore | null;
  onProgress?: (p: Progress) => void;
  /** Called once the archive is checked, right before the first write (the maintenance page goes up). */
  beforeWrite?: () => Promise<void>;
}

/**
 * Restores an archive into the configured database: reads it once to check it (nothing is
 * written unless every entry is sound), then in one transaction makes the schema the archive
 * was taken with, loads the rows, applies this build's later migrations and commits. A
 * failure rolls the database back and removes the files this restore added.
 */
export async function restore(config: DbConfig, open: OpenArchive, opts: RestoreOptions): Promise<ManifestFile> {
  const dialect = config.databaseUrl ? 'postgres' : 'sqlite';
  const known = new Set(Object.keys(migrations(dialect)));
  let checked = 0;
  const manifest = await verifyArchive(open, known, (n) => {
    if (n % 200 === 0) opts.onProgress?.({ phase: 'verify', done: n, total: 0, allDone: 0, allTotal: 0, bytes: 0 });
    checked = n;
  });
  opts.onProgress?.({ phase: 'verify', done: checked, total: checked, allDone: 0, allTotal: 0, bytes: 0 });
  const target = await openTarget(config);
  const added: string[] = [];
  try {
    if ((await target.state()) === 'has-data' && !opts.replace) throw new BackupError('error:backup-target-not-empty');
    await opts.beforeWrite?.();
    await target.prepare(manifest.migrations);
    const made = new Map((await target.tables()).map((t) => [t.name, new Set(t.columns)]));
    for (const t of manifest.tables) {
      const cols = made.get(t.name);
      if (!cols) throw new BackupError('error:backup-unknown-table', [t.name]);
      const missing = t.columns.find((c) => !cols.has(c));
      if (missing) throw new BackupError('error:backup-unknown-column', [`${t.name}.${missing}`]);
    }
    const tables = new Map(manifest.tables.map((t) => [t.name, t]));
    const loaded = new Map<string, number>();
    const allTotal = manifest.tables.reduce((n, t) => n + t.rows, 0);
    let allDone = 0;
    let bytes = 0;
    await readArchive(open, manifest, {
      rows: async (name, rows) => {
        const t = tables.get(name)!;
        if (rows.some((r) => r.length !== t.columns.length)) throw new BackupError('error:backup-bad-row', [name]);
        await target.insert(name, t.columns, rows);
        loaded.set(name, (loaded.get(name) ?? 0) + rows.length);
        allDone += rows.length;
        opts.onProgress?.({ phase: 'tables', table: name, done: loaded.get(name)!, total: t.rows, allDone, allTotal, bytes });
      },
      file: async (key, body, size) => {
        bytes += size;
        // A content-hashed name already in the store holds the same bytes: it is checked as it passes, not written again.
        if (!opts.files || (await opts.files.stat(key))?.size === size) {
          for await (const chunk of body) void chunk;
          return;
        }
        await opts.files.put(key, body);
        added.push(key);
        opts.onProgress?.({ phase: 'files', done: added.length, total: manifest.files.length, allDone, allTotal, bytes });
      },
    });
    for (const t of manifest.tables) {
      if ((loaded.get(t.name) ?? 0) !== t.rows) throw new BackupError('error:backup-row-count', [t.name, loaded.get(t.name) ?? 0, t.rows]);
    }
    opts.onProgress?.({ phase: 'migrate', done: allDone, total: allTotal, allDone, allTotal, bytes });
    await target.finish(REBUILDS);
    opts.onProgress?.({ phase: 'done', done: allDone, total: allTotal, allDone, allTotal, bytes });
    return manifest;
  } catch (err) {
    await target.abort();
    for (const key of added) await opts.files?.delete(key).catch(() => undefined);
    throw err;
  } finally {
    await target.close();
  }
}
