import { createHash } from 'node:crypto';
import { opendir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileStore } from '../../storage/index.js';
import type { Notes } from './map.js';

/** What the phases share: NodeBB's upload paths (`files/<name>`) and the stored names they became. */
export interface ImportState {
  uploadsDir?: string;
  uploads: Map<string, string>;
  /** The custom profile fields' keys (user-custom-fields), read once. */
  fieldKeys?: string[];
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  avif: 'image/avif',
  pdf: 'application/pdf',
  txt: 'text/plain',
  zip: 'application/zip',
  mp4: 'video/mp4',
};

/** Every file below `dir`, as paths relative to it with forward slashes. */
async function* walk(dir: string, under = ''): AsyncIterable<string> {
  for await (const e of await opendir(path.join(dir, under))) {
    const rel = under ? `${under}/${e.name}` : e.name;
    if (e.isDirectory()) yield* walk(dir, rel);
    else if (e.isFile()) yield rel;
  }
}

/**
 * Copies NodeBB's uploads folder (its public/uploads: files/, profile/, category/…) into the
 * forum's file store under Palaver's content-hashed names (`files/ab/cd/<sha256>.<ext>`), one
 * `uploads` row each (a file already there, by name, is not copied again), and answers the
 * map from NodeBB's paths to the new names, with which links in posts and members' pictures
 * are rewritten. A file at a time: memory holds one file and the map.
 */
export async function copyUploads(
  store: FileStore,
  dir: string,
  dryRun: boolean,
  notes: Notes,
  write: (rows: UploadRow[]) => Promise<void>,
): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  let rows: UploadRow[] = [];
  for await (const rel of walk(dir)) {
    if (path.basename(rel).startsWith('.')) continue;
    let bytes: Buffer;
    try {
      bytes = await readFile(path.join(dir, rel));
    } catch (err) {
      notes.skip('upload', rel, `unreadable: ${(err as Error).message}`);
      continue;
    }
    const sha = createHash('sha256').update(bytes).digest('hex');
    const ext = /^[a-z0-9]{1,8}$/.test(path.extname(rel).slice(1).toLowerCase()) ? path.extname(rel).slice(1).toLowerCase() : 'bin';
    const name = `files/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}.${ext}`;
    map.set(rel, name);
    if (dryRun) continue;
    if (!(await store.stat(`uploads/${name}`))) await store.put(`uploads/${name}`, bytes);
    rows.push({
      uid: 0,
      path: name,
      name: path.basename(rel).replace(/^\d+-/, '').slice(0, 255),
      mime: MIME[ext] ?? 'application/octet-stream',
      size: bytes.length,
      created: Date.now(),
    });
    if (rows.length >= 500) {
      await write(rows);
      rows = [];
    }
  }
  if (rows.length) await write(rows);
  return map;
}

export interface UploadRow {
  uid: number;
  path: string;
  name: string;
  mime: string;
  size: number;
  created: number;
}

/** NodeBB's links to its uploads (`/assets/uploads/files/x.png`, older `/uploads/files/x.png`), with or without the forum's address before. */
const LINK = /(?:\/assets)?\/uploads\/((?:files|profile|category|system)\/[^\s)"'<>\]?#]+)/g;

/** Rewrites links to NodeBB's uploads to the copies' names; answers the text and the stored names it now uses. */
export function rewriteLinks(text: string, map: Map<string, string>): { text: string; used: string[] } {
  if (!map.size || !text.includes('uploads/')) return { text, used: [] };
  const used = new Set<string>();
  const out = text.replace(LINK, (whole, rel: string) => {
    let key = rel;
    try {
      key = decodeURI(rel);
    } catch {
      // a malformed escape: the path as written
    }
    const name = map.get(key);
    if (!name) return whole;
    used.add(name);
    return `/assets/uploads/${name}`;
  });
  return { text: out, used: [...used] };
}
