import type { NotificationType } from '../../../shared/schemas/notification.js';
import type { AppContext } from '../../context.js';
import { runAction } from '../../hooks/action.js';
import { notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import * as store from './store.js';
import type { NewNotification, NotificationRow } from './store.js';

/** What the notifications service uses of the application: its explicit dependencies. */
export type NotificationsDeps = Pick<AppContext, 'db' | 'hooks' | 'log' | 'settings' | 'topics'>;

/** What a notification is about. */
export type SubjectType = 'post' | 'topic' | 'chat' | 'flag' | 'user' | 'group' | 'queue';

/**
 * One event to tell some members about. `uids` are the candidate readers: the sender is
 * dropped (never told about their own action) and, with `cid`, so is anyone who may not read
 * that category (or, with `tid`, ignores that topic).
 */
export interface NotifyEvent {
  type: NotificationType;
  /** Events with the same key merge into one notification per reader, e.g. `new_post:tid:5`. */
  mergeKey: string;
  subject: { type: SubjectType; id: number };
  /** The member whose action it is (0: the forum itself). */
  from: number;
  path: string;
  /** A translation key: the text is `key` (one sender), `key-dual` (two) or `key-multiple`. */
  bodyKey: string;
  /** The text's parameters after the senders' names (a topic title, a group name). */
  params?: (string | number)[];
  pid?: number;
  tid?: number;
  cid?: number;
  importance?: number;
  uids: number[];
}

/** Which notifications of a reader a list asks for. */
export interface ListOptions {
  /** Only these types (NodeBB's filter); undefined: all. */
  types?: string[];
  page: number;
  perPage: number;
  read?: 0 | 1;
}

/** Notifications: storing (merged per reader), listing, counting and read state. */
export class NotificationsService {
  constructor(private readonly ctx: NotificationsDeps) {}

  /**
   * Stores an event as one notification per reader in batched writes (a new one, or merged
   * into the reader's with the same merge key), then fires `action:notifications.stored` for
   * the deliveries (live, mail, push). Returns the stored rows.
   */
  async notify(event: NotifyEvent): Promise<NotificationRow[]> {
    let uids = [...new Set(event.uids)].filter((uid) => Number.isInteger(uid) && uid > 0 && uid !== event.from);
    if (!uids.length) return [];
    uids = await store.readersAmong(this.ctx.db, uids, event.cid ?? 0, event.tid ?? 0);
    if (!uids.length) return [];
    const now = Date.now();
    const from = Math.max(0, event.from);
    const base = {
      type: event.type,
      merge_key: event.mergeKey,
      subject_type: event.subject.type,
      subject_id: event.subject.id,
      from_uid: from,
      from_uids: store.senderToken(from),
      from_count: from > 0 ? 1 : 0,
      path: event.path,
      body_key: event.bodyKey,
      body_params: JSON.stringify(event.params ?? []),
      pid: event.pid ?? 0,
      tid: event.tid ?? 0,
      cid: event.cid ?? 0,
      importance: event.importance ?? 5,
      read: 0,
      created: now,
    } satisfies Omit<NewNotification, 'uid'>;
    return runAction(this.ctx.db, {
      write: async (tx) => store.upsertMany(tx, uids.map((uid) => ({ ...base, uid }))),
      after: (rows) => void this.ctx.hooks.fire('action:notifications.stored', { rows }),
    });
  }

  /** A page of the viewer's notifications (newest first) and how many match. */
  async list(viewer: Viewer, opts: ListOptions): Promise<{ rows: NotificationRow[]; total: number; unread: number }> {
    const uid = member(viewer);
    const [rows, counts] = await Promise.all([
      store.list(this.ctx.db, uid, { types: opts.types, read: opts.read, offset: (opts.page - 1) * opts.perPage, limit: opts.perPage }),
      store.counts(this.ctx.db, uid, opts.types),
    ]);
    return { rows, ...counts };
  }

  /** The viewer's unread count. */
  async unreadCount(viewer: Viewer): Promise<number> {
    return (await store.counts(this.ctx.db, member(viewer))).unread;
  }

  /** Unread counts of several members (the live count after a fan-out). */
  async unreadCounts(uids: number[]): Promise<Map<number, number>> {
    return store.unreadCounts(this.ctx.db, uids);
  }

  /** The viewer's unread counts per type (the page's filters). */
  async unreadByType(viewer: Viewer): Promise<Map<string, number>> {
    return store.unreadByType(this.ctx.db, member(viewer));
  }

  /** One of the viewer's notifications; 404 for an unknown id or another member's. */
  async get(viewer: Viewer, nid: string): Promise<NotificationRow> {
    const uid = member(viewer);
    const id = /^\d{1,10}$/.test(nid) ? Number(nid) : 0;
    const row = id > 0 && id <= 2147483647 ? await store.byId(this.ctx.db, id) : undefined;
    // Another member's notification answers as a missing one: ids are not to be probed.
    if (!row || row.uid !== uid) throw notFound('error:no-notification');
    return row;
  }

  /** Marks one of the viewer's notifications read or unread; returns the new unread count. */
  async setRead(viewer: Viewer, nid: string, read: boolean): Promise<number> {
    const row = await this.get(viewer, nid);
    await store.setRead(this.ctx.db, row.id, read ? 1 : 0);
    return this.countChanged(row.uid);
  }

  /** Marks all the viewer's notifications read; returns the new unread count (0). */
  async markAllRead(viewer: Viewer): Promise<number> {
    const uid = member(viewer);
    await store.setAllRead(this.ctx.db, uid);
    return this.countChanged(uid);
  }

  /** Deletes one of the viewer's notifications; returns the new unread count. */
  async delete(viewer: Viewer, nid: string): Promise<number> {
    const row = await this.get(viewer, nid);
    await store.remove(this.ctx.db, row.id);
    return this.countChanged(row.uid);
  }

  /** Forgets the notifications about a purged topic (they would lead nowhere); readers see the new count. */
  async forgetTopic(tid: number): Promise<void> {
    const uids = await store.removeForTopic(this.ctx.db, tid);
    const counts = await store.unreadCounts(this.ctx.db, uids);
    for (const uid of uids) await this.ctx.hooks.fire('action:notifications.count', { uid, unread: counts.get(uid) ?? 0 });
  }

  /** The members who moderate a category (who hear about its flags and queued posts). */
  async moderatorsOf(cid: number): Promise<number[]> {
    return store.moderatorsOf(this.ctx.db, cid);
  }

  // Every tab of the member shows the new count (`action:notifications.count`).
  private async countChanged(uid: number): Promise<number> {
    const unread = (await store.unreadCounts(this.ctx.db, [uid])).get(uid) ?? 0;
    await this.ctx.hooks.fire('action:notifications.count', { uid, unread });
    return unread;
  }
}

function member(viewer: Viewer): number {
  if (viewer.uid <= 0) throw notAuthorised();
  return viewer.uid;
}
