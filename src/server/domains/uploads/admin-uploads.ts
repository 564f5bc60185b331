import type { AdminUploadFile } from '../../../shared/schemas/admin-people.js';
import { forbidden, notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import type { UploadsDeps, UploadsService } from './service.js';
import * as store from './store.js';
import { relativeUploadPath } from './thumbs.js';

/** Only administrators browse every member's files (401 for a visitor, 403 for anyone else). */
export function assertUploadsAdmin(viewer: Viewer): void {
  if (viewer.uid <= 0 && !viewer.isAdmin) throw notAuthorised();
  if (!viewer.isAdmin) throw forbidden();
}

/** A size as people read it (NodeBB's sizeHumanReadable). */
export function humanSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let n = bytes;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i += 1;
  }
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}`;
}

/**
 * A page of every uploaded file (newest first), or only the ones nothing uses: size, who
 * uploaded it, the posts using it. Three queries for the page, whatever its length.
 */
export async function adminUploads(ctx: UploadsDeps, uploads: UploadsService, viewer: Viewer, orphansOnly: boolean, page: number, perPage: number): Promise<{ files: AdminUploadFile[]; count: number }> {
  assertUploadsAdmin(viewer);
  const { rows, count } = await store.adminList(ctx.db, orphansOnly, (page - 1) * perPage, perPage);
  const uses = await store.usesOf(ctx.db, rows.map((r) => r.path));
  const users = await ctx.users.getMany([...new Set(rows.map((r) => r.uid))]);
  const files = rows.map((r): AdminUploadFile => {
    const used = uses.get(r.path) ?? [];
    const u = users.get(r.uid);
    return {
      id: r.id,
      name: r.name,
      path: r.path,
      url: uploads.storage.url(r.path),
      size: r.size,
      sizeHumanReadable: humanSize(r.size),
      isDirectory: false,
      isFile: true,
      fileCount: 0,
      mtime: Number(r.created),
      uploader: u ? { uid: u.uid, username: u.username, userslug: u.userslug } : null,
      pids: used.filter((x) => x.kind === 'post').map((x) => x.refId),
      orphan: used.length === 0,
    };
  });
  return { files, count };
}

/**
 * NodeBB's DELETE /api/v3/files: an administrator deletes an uploaded file by its path (the
 * stored name, with or without /assets/uploads/ before it): every member's row naming it, then
 * the file and its thumbnail. 404 error:no-such-upload for a path no upload has.
 */
export async function deleteUploadedFile(ctx: Pick<UploadsDeps, 'actions' | 'db'>, uploads: UploadsService, viewer: Viewer, raw: string): Promise<void> {
  assertUploadsAdmin(viewer);
  const path = relativeUploadPath(raw);
  const row = path ? await store.anyByPath(ctx.db, path) : undefined;
  if (!path || !row) throw notFound('error:no-such-upload');
  await ctx.actions.run('uploads.delete-file', (w) => store.removePath(w, path));
  await uploads.storage.delete(path);
  if (row.thumb) await uploads.storage.delete(row.thumb);
}
