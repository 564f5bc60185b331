import type { PageBase, Pagination, UserSummary } from '../types.js';

/** One audit-log entry as the admin page shows it (NodeBB's event: its own data merged in). */
export interface AdminEvent extends Record<string, unknown> {
  eid: number;
  type: string;
  uid: number;
  ip: string;
  /** What it acted on: 'post:12', 'user:4'… ('' when nothing in particular). */
  target: string;
  timestamp: number;
  timestampISO: string;
  user: Pick<UserSummary, 'uid' | 'username' | 'userslug' | 'picture' | 'icon:text' | 'icon:bgColor'>;
  /** The event's data, as NodeBB's page shows it. */
  jsonString: string;
}

/** Page data of /admin/advanced/events (NodeBB's read/admin/advanced/events.yaml). */
export interface AdminEventsPage extends PageBase {
  events: AdminEvent[];
  types: { value: string; name: string; selected: boolean; count: number }[];
  query: Record<string, string>;
  pagination: Pagination;
}
