import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { terminalOutput, type CliOutput } from '../../cli-output.js';
import { PassThrough } from 'node:stream';
import type { Config } from '../../config.js';
import { diskStore, openStorage, type FileStore } from '../../storage/index.js';
import { BackupError } from './format.js';
import { backup, restore } from './run.js';
import { backupName } from './service.js';
import type { Progress } from './writer.js';

/** A progress bar per table with its rows per second, and one for the files. */
function bars(out: CliOutput): (p: Progress) => void {
  let current = '';
  let started = Date.now();
  let last = 0;
  let lastDone = 0;
  let lastTotal = 0;
  const line = (label: string, done: number, total: number, unit: string) => {
    const share = total ? Math.min(1, done / total) : 1;
    const filled = Math.round(share * 24);
    const secs = (Date.now() - started) / 1000;
    // A rate over less than half a second says nothing.
    const rate = secs >= 0.5 ? ` ${Math.round(done / secs).toLocaleString('en')} ${unit}/s` : '';
    return `[${'#'.repeat(filled)}${'.'.repeat(24 - filled)}] ${label} ${done.toLocaleString('en')}/${total.toLocaleString('en')} ${unit}${rate}`;
  };
  return (p) => {
    const label = p.phase === 'tables' ? (p.table ?? '') : p.phase;
    if (label !== current) {
      // The table before is finished: its last line stays (the log gets one line per table).
      if (current) out.progress(line(current, lastDone, lastTotal, current === 'files' ? 'files' : 'rows'), false);
      current = label;
      started = Date.now();
    }
    lastDone = p.done;
    lastTotal = p.total;
    const now = Date.now();
    if (now - last < 100 && p.done < p.total) return;
    last = now;
    if (p.phase === 'tables' || p.phase === 'files') out.progress(line(label, p.done, p.total, p.phase === 'files' ? 'files' : 'rows'), true);
    else out.progress(`${p.phase}…`, true);
  };
}

/** `palaver backup [--out FILE]`: the archive to a file, or (without --out) into the store's backups/ where the admin page lists it. */
export async function backupCommand(config: Config, outFile: string | undefined, out: CliOutput = terminalOutput()): Promise<string> {
  const store = openStorage(config);
  const started = Date.now();
  try {
    let where: string;
    let manifest;
    if (outFile) {
      manifest = await backup(config, store, createWriteStream(outFile, { flags: 'wx' }), bars(out));
      where = outFile;
    } else {
      const name = backupName('cli');
      const body = new PassThrough();
      const stored = store.put(`backups/${name}`, body, { contentType: 'application/gzip' });
      const made = backup(config, store, body, bars(out));
      made.catch(() => body.destroy());
      [manifest] = await Promise.all([made, stored]);
      where = `${store.describe()}/backups/${name}`.replace(/\/+backups/, '/backups');
    }
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
    const secs = (Date.now() - started) / 1000;
    out.result(
      `Backed up ${rows.toLocaleString('en')} rows of ${manifest.tables.length} tables and ${manifest.files.length} files in ${secs.toFixed(1)} s to ${where}`,
    );
    return where;
  } finally {
    store.close();
  }
}

/** `palaver restore FILE [--replace]`: into the configured database (empty unless --replace), files into the configured store. */
export async function restoreCommand(config: Config, file: string, replace: boolean, out: CliOutput = terminalOutput()): Promise<void> {
  try {
    if (!statSync(file).isFile()) throw new Error('not a file');
  } catch {
    throw new BackupError('error:no-backup');
  }
  const store = openStorage(config);
  const started = Date.now();
  try {
    const manifest = await restore(config, async () => createReadStream(file), { files: store, replace, onProgress: bars(out) });
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
    out.result(
      `Restored ${rows.toLocaleString('en')} rows of ${manifest.tables.length} tables and ${manifest.files.length} files (a ${manifest.dialect} forum of ${new Date(manifest.created).toISOString()}) into ${config.databaseUrl ? 'PostgreSQL' : 'SQLite'} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  } finally {
    store.close();
  }
}

/** The folders of the store Palaver keeps files in. */
const FOLDERS = ['uploads/', 'exports/', 'backups/'];

/**
 * `palaver storage migrate --to s3|disk`: copies every file between the data dir and the
 * bucket PALAVER_STORAGE names (a file already there with the same size is skipped), checks
 * each copy's size, and leaves the source as it was (remove it once the forum runs on the
 * new store). Returns how many files were copied.
 */
export async function storageMigrate(config: Config, to: string, out: CliOutput = terminalOutput()): Promise<number> {
  if (to !== 's3' && to !== 'disk') throw new Error('--to must be s3 or disk');
  if (!config.storage) throw new Error('PALAVER_STORAGE is not set: name the bucket (s3://bucket/prefix?endpoint=…) to move files to or from');
  const disk = diskStore(config.dataDir);
  const bucket = openStorage(config);
  const [from, into]: FileStore[] = to === 's3' ? [disk, bucket] : [bucket, disk];
  let copied = 0;
  let skipped = 0;
  try {
    for (const folder of FOLDERS) {
      for await (const o of from.list(folder)) {
        const there = await into.stat(o.key);
        if (there?.size === o.size) {
          skipped++;
          continue;
        }
        const opened = await from.open(o.key);
        if (!opened) continue;
        await into.put(o.key, opened.stream);
        if ((await into.stat(o.key))?.size !== opened.size) throw new Error(`${o.key}: the copy's size differs`);
        copied++;
        out.progress(`${copied} copied, ${skipped} already there: ${o.key}`, true);
      }
    }
    out.result(`Copied ${copied} files from ${from.describe()} to ${into.describe()} (${skipped} were there already). The source is unchanged.`);
    return copied;
  } finally {
    bucket.close();
  }
}
