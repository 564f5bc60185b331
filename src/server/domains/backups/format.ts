/**
 * The backup archive, format 1 (a contract: docs/operations.md describes it; a change of it
 * gets a new number, and readers keep reading the older ones).
 *
 * A gzip-compressed tar of, in this order:
 * - `palaver-backup.json`: the header (HeaderFile): format, app, time, the source database's
 *   dialect and the names of the migrations its schema had. Read first, so a foreign tarball
 *   or an archive of a newer Palaver is refused before anything else is read.
 * - `tables/<table>/<n>.ndjson`: a table's rows in parts of at most PART_BYTES, one JSON
 *   array per line, values in the manifest's column order, in a database-neutral form
 *   (encodeValue): numbers, strings, null, booleans; binary as `{"$b64": "…"}`.
 * - `files/<key>`: each file of the file store under `uploads/` (its key after `files/`).
 * - `manifest.json` (ManifestFile): the header again, the forum's settings, each table's
 *   columns, row count and parts, and every entry's size and sha-256.
 */
export const FORMAT = 1;
export const APP = 'palaver';
export const HEADER_NAME = 'palaver-backup.json';
export const MANIFEST_NAME = 'manifest.json';

/** A table part is cut at this many bytes of NDJSON (the writer holds one part in memory). */
export const PART_BYTES = 8 * 1024 * 1024;
/** The largest entry of each kind a reader accepts (a claimed size above it is refused before it is read). */
export const LIMITS = { json: 64 * 1024 * 1024, part: 64 * 1024 * 1024, file: 2 * 1024 * 1024 * 1024 };
/** The most entries an archive may have (a manifest listing more is refused). */
export const MAX_ENTRIES = 5_000_000;

/** The first entry. */
export interface HeaderFile {
  format: number;
  app: string;
  /** ms since the epoch. */
  created: number;
  /** The Palaver version that wrote it (package.json). */
  version: string;
  dialect: 'sqlite' | 'postgres';
  /** The source's applied migrations, by name: the schema the rows are in. */
  migrations: string[];
}

/** One entry's size and checksum. */
export interface EntryInfo {
  name: string;
  size: number;
  sha256: string;
}

/** One table in the manifest. */
export interface TableEntry {
  name: string;
  columns: string[];
  rows: number;
  parts: EntryInfo[];
}

/** The last entry. */
export interface ManifestFile extends HeaderFile {
  /** The forum's settings (key → stored value) at the snapshot. */
  settings: Record<string, string>;
  tables: TableEntry[];
  files: EntryInfo[];
}

/** A row value as the archive holds it. */
export type ArchiveValue = string | number | boolean | null | { $b64: string };

/** A database value in the archive's neutral form. */
export function encodeValue(v: unknown): ArchiveValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return { $b64: Buffer.from(v).toString('base64') };
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}

/** An archive value as a database parameter (SQLite takes no booleans: 1 and 0, as Palaver stores flags). */
export function decodeValue(v: unknown, dialect: 'sqlite' | 'postgres'): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'number') return v;
  if (typeof v === 'boolean') return dialect === 'sqlite' ? (v ? 1 : 0) : v;
  if (typeof v === 'object' && typeof (v as { $b64?: unknown }).$b64 === 'string') return Buffer.from((v as { $b64: string }).$b64, 'base64');
  throw new BackupError('error:backup-bad-row');
}

/** A table part's entry name. */
export function partName(table: string, n: number): string {
  return `tables/${table}/${String(n).padStart(6, '0')}.ndjson`;
}

const TABLE = /^[a-z_][a-z0-9_]{0,62}$/;
const PART = /^tables\/([a-z_][a-z0-9_]{0,62})\/(\d{6})\.ndjson$/;
/** A file entry: `files/uploads/…` with safe segments only (no `..`, no absolute path). */
const FILE = /^files\/(uploads(?:\/[A-Za-z0-9_][A-Za-z0-9._-]*)+)$/;

/** What an entry name is, or null for a name an archive may not hold (a traversal, a foreign file). */
export function classify(name: string): { kind: 'header' | 'manifest' } | { kind: 'part'; table: string } | { kind: 'file'; key: string } | null {
  if (name === HEADER_NAME) return { kind: 'header' };
  if (name === MANIFEST_NAME) return { kind: 'manifest' };
  const p = PART.exec(name);
  if (p) return { kind: 'part', table: p[1]! };
  const f = FILE.exec(name);
  if (f && !f[1]!.split('/').some((s) => s === '.' || s === '..')) return { kind: 'file', key: f[1]! };
  return null;
}

/** True for a table name the archive may carry. */
export function isTableName(name: string): boolean {
  return TABLE.test(name);
}

/** A refusal or failure with a translation key (`[[error:backup-…]]`) and its parameters. */
export class BackupError extends Error {
  constructor(
    readonly key: string,
    readonly params: (string | number)[] = [],
  ) {
    super(`${key}${params.length ? ` (${params.join(', ')})` : ''}`);
  }
}

/** Checks a parsed header: ours, a format this build reads. */
export function checkHeader(raw: unknown): HeaderFile {
  const h = raw as Partial<HeaderFile> | null;
  if (!h || typeof h !== 'object' || h.app !== APP || typeof h.format !== 'number') throw new BackupError('error:backup-foreign');
  if (h.format > FORMAT) throw new BackupError('error:backup-format-newer', [h.format]);
  if (h.format < 1 || !Number.isInteger(h.format)) throw new BackupError('error:backup-foreign');
  if (
    !Array.isArray(h.migrations) ||
    h.migrations.some((m) => typeof m !== 'string') ||
    (h.dialect !== 'sqlite' && h.dialect !== 'postgres') ||
    typeof h.created !== 'number'
  ) {
    throw new BackupError('error:backup-corrupt', [HEADER_NAME]);
  }
  return h as HeaderFile;
}

const isEntry = (e: unknown): e is EntryInfo => {
  const x = e as EntryInfo;
  return !!x && typeof x.name === 'string' && Number.isSafeInteger(x.size) && x.size >= 0 && typeof x.sha256 === 'string' && /^[0-9a-f]{64}$/.test(x.sha256);
};

/** Checks a parsed manifest's shape (the entries it lists are compared with the archive by the reader). */
export function checkManifest(raw: unknown): ManifestFile {
  const header = checkHeader(raw);
  const m = raw as ManifestFile;
  const bad = () => new BackupError('error:backup-corrupt', [MANIFEST_NAME]);
  if (!m.settings || typeof m.settings !== 'object' || !Array.isArray(m.tables) || !Array.isArray(m.files)) throw bad();
  let entries = m.files.length;
  for (const t of m.tables) {
    if (
      !t ||
      !isTableName(t.name) ||
      !Array.isArray(t.columns) ||
      !t.columns.every((c) => typeof c === 'string' && isTableName(c)) ||
      !Number.isSafeInteger(t.rows) ||
      !Array.isArray(t.parts) ||
      !t.parts.every(isEntry)
    )
      throw bad();
    entries += t.parts.length;
  }
  if (!m.files.every(isEntry) || entries > MAX_ENTRIES) throw bad();
  return { ...m, ...header };
}
