import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import {
  BackupError,
  checkHeader,
  checkManifest,
  classify,
  HEADER_NAME,
  LIMITS,
  MANIFEST_NAME,
  MAX_ENTRIES,
  type EntryInfo,
  type HeaderFile,
  type ManifestFile,
} from './format.js';

/** Opens the archive's bytes from the start (each pass reads it again: a file, or a stored object). */
export type OpenArchive = () => Promise<Readable>;

interface Entry {
  header: { name: string; size?: number; type?: string | null };
  [Symbol.asyncIterator](): AsyncIterator<Buffer>;
  resume(): void;
}

/** The entries of a tar.gz stream in order; a bad gzip or tar stream becomes a BackupError. */
async function* entries(open: OpenArchive): AsyncGenerator<Entry> {
  const extract = tar.extract();
  const source = await open();
  const piped = pipeline(source, createGunzip(), extract);
  let failure: unknown = null;
  piped.catch((err: unknown) => (failure = err));
  try {
    for await (const entry of extract as unknown as AsyncIterable<Entry>) yield entry;
    await piped;
  } catch (err) {
    throw asBackupError(failure ?? err);
  } finally {
    source.destroy();
    extract.destroy();
  }
}

/** A stream error in the archive's words: not gzip at all (foreign), cut short (truncated), or damaged. */
function asBackupError(err: unknown): Error {
  if (err instanceof BackupError) return err;
  const e = err as { code?: string; message?: string };
  const msg = String(e.message ?? err);
  if (/incorrect header check|unknown compression/i.test(msg)) return new BackupError('error:backup-foreign');
  if (/unexpected end|premature|end of data|unexpected eof/i.test(msg) || e.code === 'Z_BUF_ERROR') return new BackupError('error:backup-truncated');
  if (e.code?.startsWith('Z_') || /invalid tar|checksum|header/i.test(msg)) return new BackupError('error:backup-corrupt', ['archive']);
  return err instanceof Error ? err : new Error(msg);
}

async function readAll(entry: Entry, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of entry) {
    size += c.length;
    if (size > limit) throw new BackupError('error:backup-too-large', [entry.header.name]);
    chunks.push(c);
  }
  return Buffer.concat(chunks, size);
}

function parseJson(bytes: Buffer, name: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BackupError('error:backup-corrupt', [name]);
  }
}

/** Refuses an archive whose schema this build does not know (made by a newer Palaver). */
export function checkMigrations(header: HeaderFile, known: ReadonlySet<string>): void {
  const unknown = header.migrations.filter((m) => !known.has(m));
  if (unknown.length) throw new BackupError('error:backup-newer', [unknown[0]!]);
}

/**
 * The first pass: reads the whole archive and checks it, writing nothing. The header must
 * come first (else: a foreign tarball), name a format and migrations this build knows;
 * every entry must have an allowed name (no traversal), a size under its kind's limit
 * (checked from the tar header, before its bytes are read) and the manifest's size and
 * sha-256; the manifest must list exactly the entries there are. Returns the manifest.
 */
export async function verifyArchive(open: OpenArchive, known: ReadonlySet<string>, onEntry?: (n: number) => void): Promise<ManifestFile> {
  try {
    return await verify(open, known, onEntry);
  } catch (err) {
    // A stream error surfaces in whichever read met it: the archive's words for it.
    throw asBackupError(err);
  }
}

async function verify(open: OpenArchive, known: ReadonlySet<string>, onEntry?: (n: number) => void): Promise<ManifestFile> {
  const seen = new Map<string, EntryInfo>();
  let header: HeaderFile | null = null;
  let manifest: ManifestFile | null = null;
  let n = 0;
  for await (const entry of entries(open)) {
    const name = entry.header.name;
    const size = entry.header.size ?? 0;
    const kind = classify(name);
    if (n === 0 && name !== HEADER_NAME) throw new BackupError('error:backup-foreign');
    if (!kind || (entry.header.type ?? 'file') !== 'file') throw new BackupError('error:backup-bad-entry', [name.slice(0, 200)]);
    if (seen.has(name) || manifest) throw new BackupError('error:backup-corrupt', [name.slice(0, 200)]);
    const limit = kind.kind === 'file' ? LIMITS.file : kind.kind === 'part' ? LIMITS.part : LIMITS.json;
    if (size > limit) throw new BackupError('error:backup-too-large', [name]);
    if (++n > MAX_ENTRIES) throw new BackupError('error:backup-too-large', ['archive']);
    if (kind.kind === 'header' || kind.kind === 'manifest') {
      const bytes = await readAll(entry, LIMITS.json);
      const parsed = parseJson(bytes, name);
      if (kind.kind === 'header') {
        header = checkHeader(parsed);
        checkMigrations(header, known);
      } else manifest = checkManifest(parsed);
      seen.set(name, { name, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
      continue;
    }
    const hash = createHash('sha256');
    let read = 0;
    for await (const c of entry) {
      hash.update(c);
      read += c.length;
    }
    seen.set(name, { name, size: read, sha256: hash.digest('hex') });
    onEntry?.(n);
  }
  if (!header) throw new BackupError('error:backup-foreign');
  if (!manifest) throw new BackupError('error:backup-truncated');
  if (manifest.format !== header.format || manifest.created !== header.created || manifest.migrations.join() !== header.migrations.join())
    throw new BackupError('error:backup-corrupt', [MANIFEST_NAME]);
  const listed = [...manifest.tables.flatMap((t) => t.parts.map((p) => ({ ...p, table: t.name }))), ...manifest.files.map((f) => ({ ...f, table: null }))];
  for (const e of listed) {
    const got = seen.get(e.name);
    const c = classify(e.name);
    if (!got || !c || (e.table === null ? c.kind !== 'file' : c.kind !== 'part' || c.table !== e.table))
      throw new BackupError('error:backup-missing-entry', [e.name.slice(0, 200)]);
    if (got.size !== e.size || got.sha256 !== e.sha256) throw new BackupError('error:backup-checksum', [e.name.slice(0, 200)]);
  }
  if (seen.size !== listed.length + 2) throw new BackupError('error:backup-corrupt', [MANIFEST_NAME]);
  return manifest;
}

/** What the second pass hands on. */
export interface ArchiveHandlers {
  /** A table part's rows (its checksum checked first), in archive order. */
  rows(table: string, rows: unknown[][]): Promise<void>;
  /** A file's bytes as a stream (checked as they pass; a mismatch fails the stream's consumer after the last byte). */
  file(key: string, body: Readable, size: number): Promise<void>;
}

/** The second pass: the archive's entries, checked again, to the handlers (the archive may not change between passes). */
export async function readArchive(open: OpenArchive, manifest: ManifestFile, handlers: ArchiveHandlers): Promise<void> {
  try {
    await read(open, manifest, handlers);
  } catch (err) {
    throw asBackupError(err);
  }
}

async function read(open: OpenArchive, manifest: ManifestFile, handlers: ArchiveHandlers): Promise<void> {
  const expected = new Map<string, EntryInfo>([...manifest.tables.flatMap((t) => t.parts), ...manifest.files].map((e) => [e.name, e]));
  for await (const entry of entries(open)) {
    const name = entry.header.name;
    const kind = classify(name);
    const want = expected.get(name);
    if (!kind || kind.kind === 'header' || kind.kind === 'manifest') {
      if (!kind) throw new BackupError('error:backup-bad-entry', [name.slice(0, 200)]);
      entry.resume();
      continue;
    }
    if (!want) throw new BackupError('error:backup-changed', [name.slice(0, 200)]);
    if (kind.kind === 'part') {
      const bytes = await readAll(entry, LIMITS.part);
      if (createHash('sha256').update(bytes).digest('hex') !== want.sha256) throw new BackupError('error:backup-changed', [name]);
      await handlers.rows(kind.table, parseLines(bytes, name));
      continue;
    }
    if (kind.kind !== 'file') continue;
    const hash = createHash('sha256');
    const body = new PassThrough();
    let size = 0;
    const fed = (async () => {
      for await (const c of entry) {
        hash.update(c);
        size += c.length;
        if (!body.write(c)) await new Promise((r) => body.once('drain', r));
      }
      if (size !== want.size || hash.digest('hex') !== want.sha256) body.destroy(new BackupError('error:backup-changed', [name]));
      else body.end();
    })();
    await Promise.all([handlers.file(kind.key, body, want.size), fed]);
  }
}

function parseLines(bytes: Buffer, name: string): unknown[][] {
  const out: unknown[][] = [];
  for (const line of bytes.toString('utf8').split('\n')) {
    if (!line) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      throw new BackupError('error:backup-corrupt', [name]);
    }
    if (!Array.isArray(row)) throw new BackupError('error:backup-corrupt', [name]);
    out.push(row);
  }
  return out;
}
