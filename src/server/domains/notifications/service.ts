import type { NotificationType } from '../../../shared/schemas/notification.js';
import type { Cache } from '../../core/cache.js';
import { tagTableWrites } from '../../core/changes.js';
import { MEMBER_ROWS, memberRowTag, NOTIFICATIONS, notificationsTag } from '../../core/tags.js';
import type { AppContext } from '../../context.js';
import { notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { sendDueDigests } from './digest.js';
import { escapeParam } from './presenter.js';
import { channelsFor, parseSettings } from './schemas.js';
import * as store from './store.js';
import type { NewNotification, NotificationRow } from './store.js';
import { pageParts, typesOf, type FilterDefinition, type NotificationsPageParts } from './view.js';

/** What the notifications service uses of the application: its explicit dependencies. */
export type NotificationsDeps = Pick<AppContext, 'actions' | 'cacheRegistry' | 'categories' | 'changes' | 'config' | 'db' | 'hooks' | 'jobs' | 'log' | 'mail' | 'privileges' | 'settings' | 'topics' | 'users' | 'writes'>;

/**
 * How long a process keeps a member's notifications page (a filter's page of it, presented
 * and frozen). A committed write to a member's `notifications` (a new or merged notification,
 * a read, a deletion) drops that member's pages, and one of a sender's row (their name or
 * picture: `member-row:<uid>`) the pages that show them, in every process; the TTL bounds what
 * a process that missed the message keeps.
 */
const PAGE_TTL_MS = 5000;
// Some 50 kB each (twenty notifications presented, and their JSON encoded once): 10 MB at most.
const KEPT_PAGES = 200;

/** The job that mails a notification to the readers who want it by email (payload: MailJob). */
export const MAIL_JOB = 'notifications.mail';

/** One event to mail: its readers (each claimed once per merge key) and what the mail says. */
export interface MailJob {
  uids: number[];
  type: string;
  mergeKey: string;
  from: number;
  bodyKey: string;
  params: (string | number)[];
  path: string;
  cid: number;
  tid: number;
}

// A reader is mailed about a merge key at most once until they read it in the app, or a day passes.
export const MAIL_AGAIN_AFTER_MS = 24 * 3600_000;

/** What a notification is about. */
export type SubjectType = 'post' | 'topic' | 'chat' | 'flag' | 'user' | 'group' | 'queue';

/**
 * One event to tell some members about. `uids` are the candidate readers: the sender is
 * dropped (never told about their own action) and, with `cid`, so is anyone who may not read
 * that category (or, with `tid`, ignores that topic).
 */
export interface NotifyEvent {
  type: NotificationType;
  /**
   * The event's own key, the same however often it is told (`mention:<pid>`, `reply:<pid>`,
   * `follow:<uid>:<followee>`): each reader is told of a key once (notification_receipts), so a
   * durable listener run twice, or two hooks about one thing, notify, mail and push once.
   * Every durable listener gives one; a direct call without one tells each time.
   */
  key?: string;
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
  /** Members' notifications pages, by uid, filter, page and page size. */
  private keptPages: Cache<string, NotificationsPageParts>;

  constructor(private readonly ctx: NotificationsDeps) {
    // A write to notifications says whose they are (db/table-writes.ts reads the uids from the
    // statement; one that does not say drops every member's pages).
    tagTableWrites(ctx.writes, ctx.changes, 'notifications', 'uid', { one: notificationsTag, all: NOTIFICATIONS });
    this.keptPages = ctx.cacheRegistry.create({
      name: 'notification-pages',
      keeps: "a member's notifications page (a filter's page, presented), by uid, filter and page",
      droppedBy: "a write of the member's notifications (notifications:<uid>), of a sender's row (member-row:<uid>)",
      ttlMs: PAGE_TTL_MS,
      max: KEPT_PAGES,
      tags: (key, parts) => [
        notificationsTag(Number(key.split('|')[0])),
        NOTIFICATIONS,
        MEMBER_ROWS,
        ...new Set(parts.notifications.map((n) => memberRowTag(n.user?.uid ?? 0))),
      ],
    });
  }

  /**
   * Delivers an event to each reader on the channels they chose for its type
   * (`notificationType_<type>` / `notificationPush_<type>`), in one action, and only to the
   * readers not told of its key before (their receipt is written in the same transaction, so a
   * second telling, after a crash or from a second hook, reaches nobody twice): in the app,
   * stored as one notification per reader in batched writes (a new one, or merged into the
   * reader's with the same merge key), then `action:notifications.stored` (the live delivery);
   * by email, a `notifications.mail` job queued in the transaction for the readers not mailed
   * about this merge key since they last read it (a flood of replies mails once); by push,
   * `action:notifications.push` (durable: its outbox row is written in the transaction).
   * Returns the stored rows.
   */
  async notify(event: NotifyEvent): Promise<NotificationRow[]> {
    let uids = [...new Set(event.uids)].filter((uid) => Number.isInteger(uid) && uid > 0 && uid !== event.from);
    if (!uids.length) return [];
    uids = await this.recipients(uids, event.cid ?? 0, event.tid ?? 0);
    // A member who blocked the sender hears nothing from them (NodeBB's user.blocks.filter).
    if (event.from > 0 && uids.length) {
      const blockers = await this.ctx.users.blockersAmong(uids, event.from);
      uids = uids.filter((uid) => !blockers.has(uid));
    }
    if (!uids.length) return [];
    const members = await this.ctx.users.getMany(uids);
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
    return this.ctx.actions.run('notifications.notify', async (w) => {
      const told = event.key ? await store.receive(w, event.key, uids, now) : uids;
      if (!told.length) return [];
      const inApp: number[] = [];
      const email: number[] = [];
      const push: number[] = [];
      for (const uid of told) {
        const c = channelsFor(parseSettings(members.get(uid)?.settings), event.type);
        if (c.inApp) inApp.push(uid);
        if (c.email) email.push(uid);
        if (c.push) push.push(uid);
      }
      const rows = inApp.length ? await store.upsertMany(w, inApp.map((uid) => ({ ...base, uid }))) : [];
      const mailTo = email.length ? await store.claimMail(w, email, event.mergeKey, now, MAIL_AGAIN_AFTER_MS) : [];
      if (rows.length) await w.fire('action:notifications.stored', { rows });
      if (mailTo.length) {
        const job: MailJob = { uids: mailTo, type: event.type, mergeKey: event.mergeKey, from, bodyKey: event.bodyKey, params: event.params ?? [], path: event.path, cid: base.cid, tid: base.tid };
        await this.ctx.jobs.enqueueIn(w, MAIL_JOB, job);
      }
      // One push per event: the text of this event (not each reader's merged count).
      if (push.length) await w.fire('action:notifications.push', { uids: push, notification: { ...base, id: rows[0]?.id ?? 0, uid: 0 } });
      return rows;
    });
  }

  /**
   * Of these members, those who may hear of something in category `cid` (any live member when
   * 0) and topic `tid`: not deleted, allowed to read the category by the guardian's rules (the
   * same answer a page gives them), and not ignoring the topic.
   */
  private async recipients(uids: number[], cid: number, tid: number): Promise<number[]> {
    if (!uids.length) return [];
    const members = await this.ctx.users.getMany(uids);
    let out = await this.ctx.privileges.readersOf(
      uids.filter((uid) => members.get(uid)?.deleted === 0),
      cid,
    );
    if (tid > 0 && out.length) {
      const ignoring = await this.ctx.topics.ignorersAmong(tid, out);
      if (ignoring.size) out = out.filter((uid) => !ignoring.has(uid));
    }
    return out;
  }

  /**
   * Sends the mails of one event (the `notifications.mail` job): each reader still may read
   * what it is about (checked now, not when it happened), still has a confirmed address, and
   * did not unsubscribe from the type (the mail service checks). With `key` (the job's run), a
   * second run queues no reader's mail twice. Returns how many were queued.
   */
  async sendMails(job: MailJob, key?: string): Promise<number> {
    const uids = await this.recipients(job.uids, job.cid, job.tid);
    if (!uids.length) return 0;
    const members = await this.ctx.users.getMany([...uids, job.from]);
    const senderRow = members.get(job.from);
    const sender = job.from > 0 ? escapeParam(senderRow ? senderRow.username : '[[global:former-user]]') : '';
    const params = [...(sender ? [sender] : []), ...job.params.map(escapeParam)];
    const text = `[[${job.bodyKey}${params.length ? `, ${params.join(', ')}` : ''}]]`;
    let sent = 0;
    for (const uid of uids) {
      const member = members.get(uid);
      if (!member?.email || !member.email_confirmed) continue;
      if (await this.ctx.mail.sendNotification(member, { type: job.type, text, path: job.path }, key && `${key}:${uid}`)) sent += 1;
    }
    return sent;
  }

  /** Sends the digests that are due (the hourly `notifications.digest` job); returns how many. */
  async sendDigests(now = Date.now()): Promise<number> {
    return sendDueDigests(this.ctx, now);
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

  /**
   * The notifications page: a page of the viewer's notifications (of some types), how many of
   * those types they have and how many are unread, and their unread count per type (every
   * filter's) — the counts from one statement.
   */
  async page(viewer: Viewer, opts: ListOptions): Promise<{ rows: NotificationRow[]; total: number; unread: number; unreadByType: Map<string, number> }> {
    const uid = member(viewer);
    const [rows, byType] = await Promise.all([
      store.list(this.ctx.db, uid, { types: opts.types, read: opts.read, offset: (opts.page - 1) * opts.perPage, limit: opts.perPage }),
      store.countsByType(this.ctx.db, uid),
    ]);
    const types = opts.types && new Set(opts.types);
    let total = 0;
    let unread = 0;
    const unreadByType = new Map<string, number>();
    for (const r of byType) {
      if (r.read === 0) unreadByType.set(r.type, (unreadByType.get(r.type) ?? 0) + r.n);
      if (types && !types.has(r.type)) continue;
      if (opts.read !== undefined && r.read !== opts.read) continue;
      total += r.n;
      if (r.read === 0) unread += r.n;
    }
    return { rows, total, unread, unreadByType };
  }

  /**
   * The notifications page of the viewer for a filter and page number, presented and frozen
   * (view.ts pageParts): kept per member, filter and page until a committed write to their
   * `notifications` or of a sender's row (or PAGE_TTL_MS), so the member's next request makes no statement.
   */
  async pageParts(viewer: Viewer, chosen: FilterDefinition, page: number, perPage: number): Promise<NotificationsPageParts> {
    const uid = member(viewer);
    return this.keptPages.get(`${uid}|${chosen.filter}|${page}|${perPage}`, async () =>
      pageParts(this.ctx, chosen, perPage, await this.page(viewer, { types: typesOf(chosen.filter), page, perPage })),
    );
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
    await this.ctx.actions.run('notifications.read', async (w) => {
      await store.setRead(w, row.uid, row.id, read ? 1 : 0);
      // Read: the next event about it may be mailed again.
      if (read) await store.forgetMailed(w, row.uid, row.merge_key);
    });
    return this.countChanged(row.uid);
  }

  /**
   * Marks read what a member has seen elsewhere: their unread notifications with this merge key
   * (a chat room they read). Readers' tabs get the new count only when something changed.
   */
  async readByKey(uid: number, mergeKey: string): Promise<void> {
    if (uid <= 0) return;
    const changed = await this.ctx.actions.run('notifications.read-key', async (w) => {
      if (!(await store.setReadByKey(w, uid, mergeKey))) return false;
      await store.forgetMailed(w, uid, mergeKey);
      return true;
    });
    if (changed) await this.countChanged(uid);
  }

  /** Marks all the viewer's notifications read; returns the new unread count (0). */
  async markAllRead(viewer: Viewer): Promise<number> {
    const uid = member(viewer);
    await this.ctx.actions.run('notifications.read-all', async (w) => {
      await store.setAllRead(w, uid);
      await store.forgetMailed(w, uid);
    });
    return this.countChanged(uid);
  }

  /** Deletes one of the viewer's notifications; returns the new unread count. */
  async delete(viewer: Viewer, nid: string): Promise<number> {
    const row = await this.get(viewer, nid);
    await this.ctx.actions.run('notifications.delete', (w) => store.remove(w, row.uid, row.id));
    return this.countChanged(row.uid);
  }

  /** Forgets the notifications about a purged topic (they would lead nowhere); readers see the new count. */
  async forgetTopic(tid: number): Promise<void> {
    const uids = await this.ctx.actions.run('notifications.forget-topic', (w) => store.removeForTopic(w, tid));
    const counts = await store.unreadCounts(this.ctx.db, uids);
    for (const uid of uids) await this.ctx.hooks.fire('action:notifications.count', { uid, unread: counts.get(uid) ?? 0 });
  }

  /** Forgets the receipts older than `before` (the hourly `notifications.receipts` job). */
  async pruneReceipts(before: number): Promise<void> {
    await this.ctx.actions.run('notifications.prune-receipts', (w) => store.pruneReceipts(w, before));
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
