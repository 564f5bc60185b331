import type { AdminUploadFile } from '../../../shared/schemas/admin-people.js';
import { forbidden, notAuthorised } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import type { UploadsDeps, UploadsService } from './service.js';
import * as store from './store.js';

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
