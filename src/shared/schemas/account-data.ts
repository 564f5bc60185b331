import type { Breadcrumb, PageBase, Pagination, UserSummary } from '../types.js';
import type { UserObjectSlim } from './user.js';

/** Page data of `/user/:userslug/blocks` (template `account/blocks`, NodeBB's read/user/userslug/blocks.yaml). */
export interface BlocksPage extends PageBase, UserSummary {
  users: UserObjectSlim[];
  title: string;
  isSelf: boolean;
  pagination: Pagination;
  breadcrumbs: Breadcrumb[];
}

/** The export types a member may ask for, as NodeBB names them. */
export const EXPORT_TYPES = ['profile', 'posts', 'uploads'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

/** One export's state on the member's data page. */
export interface ExportState {
  type: ExportType;
  /** 0 when no file is ready. */
  timestamp: number;
  /** True while a job for it is queued or running. */
  pending: boolean;
  size: number;
}

/** Page data of `/user/:userslug/data` (template `account/data`): exports and account deletion. */
export interface AccountDataPage extends PageBase, UserSummary {
  isSelf: boolean;
  exports: ExportState[];
  /** Days an export stays downloadable. */
  exportExpiryDays: number;
  /** Whether the viewer may choose to purge content too (the member themself or an admin). */
  canDelete: boolean;
  /** Whether the deletion asks for the password (the member deleting themself). */
  needsPassword: boolean;
  isTargetAdmin: boolean;
}
