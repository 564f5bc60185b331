import { Type, type Static } from 'typebox';
import type { Pagination, PageBase, UserSummary } from '../types.js';

/** One of a member's uploads as the API and the account page list it (NodeBB's `name`, `url` and more). */
export const UploadSchema = Type.Object({
  id: Type.Number(),
  name: Type.String(),
  url: Type.String(),
  path: Type.String(),
  mime: Type.String(),
  size: Type.Number(),
  width: Type.Number(),
  height: Type.Number(),
  thumb: Type.String(),
  isImage: Type.Boolean(),
  timestamp: Type.Number(),
  timestampISO: Type.String(),
});
export type Upload = Static<typeof UploadSchema>;

/** A topic thumbnail (NodeBB's thumbs items). */
export const ThumbSchema = Type.Object({
  id: Type.Union([Type.Number(), Type.String()]),
  name: Type.String(),
  path: Type.String(),
  url: Type.String(),
});

/** NodeBB's answer to POST /api/post/upload (and the thumbs upload): the stored files' URLs. */
export const UploadedSchema = Type.Object({
  images: Type.Array(Type.Object({ url: Type.String(), name: Type.String() })),
});
export type Uploaded = Static<typeof UploadedSchema>;

/** Page data of `/user/:userslug/uploads` (template `account/uploads`). */
export interface UploadsPage extends PageBase, UserSummary {
  uploads: Upload[];
  privateUploads: boolean;
  isSelf: boolean;
  pagination: Pagination;
  uploadCount: number;
}
