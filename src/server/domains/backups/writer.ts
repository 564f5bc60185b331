import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import type { FileStore } from '../../storage/index.js';
import {
  APP,
  encodeValue,
  FORMAT,
  HEADER_NAME,
  MANIFEST_NAME,
  PART_BYTES,
  partName,
  type EntryInfo,
  type HeaderFile,
  type ManifestFile,
  type TableEntry,
} from './format.js';
import { fillOrder, type Snapshot } from './store.js';

/** What a backup or restore reports as it goes: the step, the table (or 'files'), and counts. */
export interface Progress {
  phase: 'tables' | 'files' | 'verify' | 'migrate' | 'done';
  table?: string;
  done: number;
  total: number;
  /** Every row (or file) so far, of every table, and the total. */
  allDone: number;
  allTotal: number;
  bytes: number;
}

/** Rows read from the database per batch. */
const BATCH = 2000;

type Pack = ReturnType<typeof tar.pack>;

/** Writes one entry and waits while the pack's reader is behind (the archive is never held in memory). */
async function addEntry(pack: Pack, name: string, body: Buffer | AsyncIterable<Buffer>, size: number, mtime: number): Promise<string> {
  const hash = createHash('sha256');
  const entry = pack.entry({ name, size, mtime: new Date(mtime), mode: 0o644 });
  const finished = new Promise<void>((resolve, reject) => {
    entry.on('finish', resolve);
    entry.on('error', reject);
  });
  const chunks = Buffer.isBuffer(body) ? [body] : body;
  let written = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    written += chunk.length;
    if (!entry.write(chunk)) await once(entry, 'drain');
  }
  if (written !== size) throw new Error(`${name}: ${written} bytes read, ${size} expected (changed while it was read)`);
  (entry as unknown as { end(): void }).end();
  await finished;
  return hash.digest('hex');
}

/**
 * Writes a whole backup as a tar.gz stream into `out`: the rows of every table from the
 * snapshot, as NDJSON parts, then the files under `uploads/` of the store, then the manifest
 * with every entry's size and sha-256. Memory stays bounded: one part (PART_BYTES) and one
 * batch of rows at a time. Returns the manifest.
 */
export async function writeArchive(
  snapshot: Snapshot,
  files: FileStore | null,
  out: Writable,
  opts: { version: string; onProgress?: (p: Progress) => void; gzipLevel?: number },
): Promise<ManifestFile> {
  const pack = tar.pack();
  const piped = pipeline(pack, createGzip({ level: opts.gzipLevel ?? 4 }), out);
  // An error of the output (a full disk) ends the writing below as well.
  let failed: unknown = null;
  piped.catch((err: unknown) => {
    failed = err;
    pack.destroy(err as Error);
  });
  try {
    const created = Date.now();
    const header: HeaderFile = { format: FORMAT, app: APP, created, version: opts.version, dialect: snapshot.dialect, migrations: await snapshot.migrations() };
    const headerBytes = Buffer.from(`${JSON.stringify(header, null, 2)}\n`);
    await addEntry(pack, HEADER_NAME, headerBytes, headerBytes.length, created);

    // Referenced tables first: the order a restore fills them in (PostgreSQL checks keys row by row).
    const tables = fillOrder(await snapshot.tables());
    const counts = new Map<string, number>();
    for (const t of tables) counts.set(t.name, await snapshot.count(t));
    const allTotal = [...counts.values()].reduce((a, b) => a + b, 0);
    const entries: TableEntry[] = [];
    let allDone = 0;
    let bytes = 0;
    let settings: Record<string, string> = {};
    for (const t of tables) {
      const total = counts.get(t.name)!;
      const entry: TableEntry = { name: t.name, columns: t.columns, rows: 0, parts: [] };
      let lines: Buffer[] = [];
      let size = 0;
      const flush = async () => {
        if (!lines.length) return;
        const name = partName(t.name, entry.parts.length + 1);
        const body = Buffer.concat(lines, size);
        entry.parts.push({ name, size, sha256: await addEntry(pack, name, body, size, created) });
        bytes += size;
        lines = [];
        size = 0;
      };
      for await (const rows of snapshot.rows(t, BATCH)) {
        if (failed) throw failed;
        for (const row of rows) {
          const line = Buffer.from(`${JSON.stringify(row.map(encodeValue))}\n`);
          if (size + line.length > PART_BYTES) await flush();
          lines.push(line);
          size += line.length;
        }
        if (t.name === 'settings') settings = { ...settings, ...settingsOf(t.columns, rows) };
        entry.rows += rows.length;
        allDone += rows.length;
        opts.onProgress?.({ phase: 'tables', table: t.name, done: entry.rows, total, allDone, allTotal, bytes: bytes + size });
      }
      await flush();
      opts.onProgress?.({ phase: 'tables', table: t.name, done: entry.rows, total, allDone, allTotal, bytes });
      entries.push(entry);
    }

    const fileEntries: EntryInfo[] = [];
    if (files) {
      const keys: { key: string; size: number; mtime: number }[] = [];
      for await (const o of files.list('uploads/')) keys.push(o);
      keys.sort((a, b) => (a.key < b.key ? -1 : 1));
      for (const [i, o] of keys.entries()) {
        if (failed) throw failed;
        const opened = await files.open(o.key);
        // A file removed since it was listed (the clean-up job) is simply not in the backup.
        if (!opened) continue;
        const name = `files/${o.key}`;
        fileEntries.push({
          name,
          size: opened.size,
          sha256: await addEntry(pack, name, opened.stream as AsyncIterable<Buffer>, opened.size, opened.mtime || created),
        });
        bytes += opened.size;
        opts.onProgress?.({ phase: 'files', done: i + 1, total: keys.length, allDone, allTotal, bytes });
      }
    }

    const manifest: ManifestFile = { ...header, settings, tables: entries, files: fileEntries };
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest)}\n`);
    await addEntry(pack, MANIFEST_NAME, manifestBytes, manifestBytes.length, created);
    pack.finalize();
    await piped;
    opts.onProgress?.({ phase: 'done', done: allDone, total: allTotal, allDone, allTotal, bytes });
    return manifest;
  } catch (err) {
    pack.destroy(err as Error);
    await piped.catch(() => undefined);
    throw failed ?? err;
  }
}

function settingsOf(columns: string[], rows: unknown[][]): Record<string, string> {
  const k = columns.indexOf('key');
  const v = columns.indexOf('value');
  const out: Record<string, string> = {};
  if (k < 0 || v < 0) return out;
  for (const r of rows) out[String(r[k])] = String(r[v]);
  return out;
}
