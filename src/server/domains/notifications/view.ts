import { NOTIFICATION_FILTERS, type NotificationObject } from '../../../shared/schemas/notification.js';
import type { AppContext } from '../../context.js';
import { neededUsers, presentNotification } from './presenter.js';
import type { NotificationRow } from './store.js';

/** NotificationObjects for rows, with their senders loaded in one query (their brief rows: a name and a picture are all it shows). */
export async function presentMany(ctx: Pick<AppContext, 'users'>, rows: NotificationRow[]): Promise<NotificationObject[]> {
  if (!rows.length) return [];
  const users = await ctx.users.briefs(neededUsers(rows));
  return rows.map((r) => presentNotification(r, users));
}

/** The types a filter shows (undefined: all); an unknown filter shows all, as NodeBB's does. */
export function typesOf(filter: string | undefined): string[] | undefined {
  const found = NOTIFICATION_FILTERS.find((f) => f.filter === (filter ?? ''));
  return found && found.types.length ? found.types : undefined;
}
