import type { ForumSettings } from '../../../shared/constants.js';
import type { AppContext } from '../../context.js';
import { badRequest, forbidden, notAuthorised } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import type { IncomingFile } from '../uploads/service.js';

/** What a brand upload uses of the application. */
export type BrandDeps = Pick<AppContext, 'uploads' | 'settings' | 'events'>;

/** NodeBB's upload routes (`/api/admin/uploadlogo`, …) → the setting each one sets, and its upload reference id. */
export const BRAND_UPLOADS = {
  uploadlogo: { key: 'brand:logo', ref: 1 },
  uploadfavicon: { key: 'brand:favicon', ref: 2 },
  uploadTouchIcon: { key: 'brand:touchIcon', ref: 3 },
  uploadOgImage: { key: 'og:image', ref: 4 },
} as const satisfies Record<string, { key: keyof ForumSettings; ref: number }>;

export type BrandRoute = keyof typeof BRAND_UPLOADS;

/**
 * Stores one uploaded image as the forum's logo, favicon, touch icon or og:image. Admins only.
 * The uploads domain checks it (size, pixels, content sniffed against the name) and re-encodes
 * it; anything but a raster image (SVG included: it could carry script) is refused. The upload
 * is referenced ('brand'), so the unused-uploads clean-up keeps it. Returns its URL.
 */
export async function uploadBrandImage(deps: BrandDeps, viewer: Viewer, route: BrandRoute, files: IncomingFile[], ip = ''): Promise<string> {
  if (viewer.uid <= 0) throw notAuthorised();
  if (!viewer.isAdmin) throw forbidden();
  if (files.length !== 1) throw badRequest('error:no-upload');
  if (!/\.(png|jpe?g|gif|webp)$/i.test(files[0]!.name)) throw badRequest('error:invalid-image');
  const [row] = await deps.uploads.upload(viewer, files);
  if (!row || !/^image\/(png|jpeg|gif|webp)$/.test(row.mime)) throw badRequest('error:invalid-image');
  const { key, ref } = BRAND_UPLOADS[route];
  await deps.settings.set({ [key]: `/${row.path}` } as Partial<ForumSettings>);
  await deps.uploads.setRefs('brand', ref, deps.uploads.storage.url(row.path));
  await deps.events.log('config-change', viewer.uid, { key, value: `/${row.path}` }, ip);
  return deps.uploads.storage.url(row.path);
}
