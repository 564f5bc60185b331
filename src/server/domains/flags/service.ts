import { FLAG_STATES, type FlagSortName, type FlagState, type FlagType } from '../../../shared/schemas/flag.js';
import type { AppContext } from '../../context.js';
import { badRequest, forbidden, notAuthorised, notFound, tooMany } from '../../http/errors.js';
import { ADMINISTRATORS } from '../groups/service.js';
import type { Viewer } from '../privileges/service.js';
import * as store from './store.js';
import type { FlagFilter, FlagRow, FlagWithHeat } from './store.js';

/** What the flags domain uses of the application: its explicit dependencies. */
export type FlagsDeps = Pick<AppContext, 'actions' | 'categories' | 'chats' | 'db' | 'events' | 'groups' | 'hooks' | 'log' | 'notifications' | 'posts' | 'privileges' | 'settings' | 'topics' | 'users'>;

/** A member's report: what, which one, why (`roomId` names a chat message's room). */
export interface NewReport {
  type: FlagType;
  id: number;
  reason: string;
  roomId?: number;
}

/** A moderator's change of a flag (NodeBB's PUT /flags/{flagId}); assignee 0 unassigns. */
export interface FlagChange {
  state?: FlagState;
  assignee?: number;
  datetime?: number;
}

/** The list's query (NodeBB's filters; `quick: 'mine'` is the viewer's assigned flags). */
export interface FlagQuery {
  state?: string;
  type?: string;
  assignee?: number;
  cid?: number;
  reporterId?: number;
  targetUid?: number;
  quick?: string;
  sort: FlagSortName;
  page: number;
  perPage: number;
}

const DAY_MS = 24 * 3600_000;
/** Days the flags list's chart covers (NodeBB's 30). */
export const FLAG_ANALYTICS_DAYS = 30;
const CLOSED: readonly string[] = ['resolved', 'rejected'];

/**
 * Flags: members report posts, members and chat messages; one flag per target gathers every
 * report; its moderators (of the post's category, global moderators and administrators) work
 * it through its states with an assignee and notes, every change kept in its history and
 * every moderator action in the audit log.
 */
export class FlagsService {
  constructor(private readonly ctx: FlagsDeps) {}

  /** True when the viewer may see and work this flag: admins and global moderators every flag, a category's moderators its post flags. */
  async canSee(viewer: Viewer, flag: Pick<FlagRow, 'type' | 'cid'>): Promise<boolean> {
    if (viewer.uid <= 0) return false;
    if (viewer.isAdmin || viewer.isGlobalMod) return true;
    return flag.type === 'post' && (await this.ctx.privileges.isModerator(viewer, flag.cid));
  }

  /** The id of a post's flag still to handle (open or in progress) when the viewer may see it, else 0 (NodeBB's post flagId). */
  async openFlagId(viewer: Viewer, pid: number, cid: number): Promise<number> {
    if (viewer.uid <= 0) return 0;
    const flag = await store.byTarget(this.ctx.db, 'post', pid);
    if (!flag || CLOSED.includes(flag.state) || !(await this.canSee(viewer, { type: 'post', cid }))) return 0;
    return flag.flag_id;
  }

  /** The categories the viewer moderates (null: every one, for admins and global moderators). */
  async moderatedCids(viewer: Viewer): Promise<number[] | null> {
    if (viewer.isAdmin || viewer.isGlobalMod) return null;
    if (viewer.uid <= 0) return [];
    const all = await this.ctx.categories.list({ uid: 0, groups: [ADMINISTRATORS], isAdmin: true, isGlobalMod: true });
    const out: number[] = [];
    for (const c of all) if (await this.ctx.privileges.isModerator(viewer, c.cid)) out.push(c.cid);
    return out;
  }

  /** 401 for guests, 403 unless the viewer moderates something (NodeBB's flags pages and routes). */
  async assertModerator(viewer: Viewer): Promise<number[] | null> {
    if (viewer.uid <= 0) throw notAuthorised();
    const cids = await this.moderatedCids(viewer);
    if (cids && !cids.length) throw forbidden();
    return cids;
  }

  /** A flag the viewer may work, or 404 error:no-flag (403 for members who moderate nothing). */
  async load(viewer: Viewer, flagId: number): Promise<FlagRow> {
    await this.assertModerator(viewer);
    const flag = Number.isInteger(flagId) && flagId > 0 ? await store.byId(this.ctx.db, flagId) : undefined;
    // A flag outside the viewer's categories answers as a missing one: its existence is not theirs to learn.
    if (!flag || !(await this.canSee(viewer, flag))) throw notFound('error:no-flag');
    return flag;
  }

  /** A flag by id, unchecked (the caller has checked the viewer), or 404 error:no-flag. */
  async get(flagId: number): Promise<FlagRow> {
    const flag = await store.byId(this.ctx.db, flagId);
    if (!flag) throw notFound('error:no-flag');
    return flag;
  }

  /** Where a report points: its author, its category and room, checked as the reporter may see it. */
  private async target(viewer: Viewer, report: NewReport): Promise<{ targetUid: number; cid: number; roomId: number; tid?: number }> {
    if (report.type === 'post') {
      const post = await this.ctx.posts.get(report.id);
      const topic = post ? await this.ctx.topics.get(post.tid) : null;
      if (!post || !topic || !(await this.ctx.privileges.can(viewer, 'topics:read', topic.cid))) throw notFound('error:no-post');
      if (post.deleted === 1 || topic.deleted === 1) throw badRequest('error:post-deleted');
      return { targetUid: post.uid, cid: topic.cid, roomId: 0, tid: topic.tid };
    }
    if (report.type === 'user') {
      const user = await this.ctx.users.get(report.id);
      if (!user) throw notFound('error:no-user');
      return { targetUid: user.uid, cid: 0, roomId: 0 };
    }
    if (!report.roomId) throw badRequest('error:invalid-data', 'body/roomId');
    // Only a message the reporter can read in its room (404 error:invalid-mid otherwise).
    const message = await this.ctx.chats.getMessage(viewer, report.roomId, report.id);
    if (message.deleted) throw badRequest('error:invalid-mid');
    return { targetUid: message.fromuid, cid: 0, roomId: report.roomId };
  }

  /**
   * A member reports a target: its flag is created or gains the report (a closed flag opens
   * again, in its history); the same member twice is refused with error:already-flagged while
   * the flag is open. Moderators are told after commit; a post reaching the auto-hide
   * threshold is hidden. Moderators get the flag back, members an empty answer (NodeBB).
   */
  async report(viewer: Viewer, input: NewReport, ip: string): Promise<{ flagId: number; privileged: boolean }> {
    if (viewer.uid <= 0) throw notAuthorised();
    const reason = input.reason.trim();
    if (!reason) throw badRequest('error:invalid-data', 'body/reason');
    const reporter = await this.ctx.users.ofViewer(viewer);
    if (!reporter) throw notAuthorised();
    if (reporter.banned === 1) throw forbidden('error:user-banned');
    const where = await this.target(viewer, input);
    const targetViewer = await this.ctx.privileges.viewer(where.targetUid);
    const targetPrivileged = targetViewer.isAdmin || targetViewer.isGlobalMod || (input.type === 'post' && (await this.ctx.privileges.isModerator(targetViewer, where.cid)));
    const selfPrivileged = viewer.isAdmin || viewer.isGlobalMod || (input.type === 'post' && (await this.ctx.privileges.isModerator(viewer, where.cid)));
    if (targetPrivileged && !selfPrivileged && where.targetUid !== viewer.uid) throw forbidden('error:cant-flag-privileged');
    await this.assertDailyLimit(viewer, input.type);
    const now = Date.now();
    const type = input.type === 'post' ? 'post' : 'user';
    const targetId = input.type === 'user' || input.type === 'message' ? where.targetUid : input.id;
    const flag = await this.ctx.actions.run('flag.report', async (w) => {
      const { flag, created } = await store.ensure(w, { type: input.type, target_id: input.id, target_uid: where.targetUid, cid: where.cid, room_id: where.roomId, created: now });
      const closed = CLOSED.includes(flag.state);
      if (!closed && (await store.reportOf(w.tx, flag.flag_id, viewer.uid))) throw badRequest('error:already-flagged');
      await store.putReport(w, { flag_id: flag.flag_id, reporter_uid: viewer.uid, reason, created: now });
      // A new flag starts its history as open; a closed one opens again with the new report.
      if (created || closed) {
        if (closed) await store.update(w, flag.flag_id, { state: 'open' });
        await store.addHistory(w, flag.flag_id, viewer.uid, { state: 'open' }, now);
      }
      await w.fire('action:flag.create', { flagId: flag.flag_id, uid: viewer.uid, cid: where.cid, type, targetId, ...(where.tid ? { tid: where.tid } : {}) });
      return flag;
    });
    if (input.type === 'post') await this.autoHide(flag, ip).catch((err: unknown) => this.ctx.log.error({ err, flagId: flag.flag_id }, 'flag auto-hide failed'));
    return { flagId: flag.flag_id, privileged: await this.canSee(viewer, flag) };
  }

  // NodeBB's daily limits: reports of posts (and chat messages) and of members, each per day.
  private async assertDailyLimit(viewer: Viewer, type: FlagType): Promise<void> {
    if (viewer.isAdmin || viewer.isGlobalMod) return;
    const s = await this.ctx.settings.get();
    const limit = type === 'user' ? s['flags:userFlagsPerDay'] : s['flags:postFlagsPerDay'];
    if (limit <= 0) return;
    const since = Date.now() - DAY_MS;
    const types = type === 'user' ? ['user'] : ['post', 'message'];
    let made = 0;
    for (const t of types) made += await store.reportsSince(this.ctx.db, viewer.uid, t, since);
    if (made >= limit) throw tooMany(type === 'user' ? 'error:too-many-user-flags-per-day' : 'error:too-many-post-flags-per-day', limit);
  }

  /** Hides (soft-deletes) a flagged post once its reports reach the forum's threshold, as an administrator would. */
  private async autoHide(flag: FlagRow, ip: string): Promise<void> {
    const threshold = (await this.ctx.settings.get())['flags:autoHideThreshold'];
    if (threshold <= 0 || (await store.heatOf(this.ctx.db, flag.flag_id)) < threshold) return;
    const post = await this.ctx.posts.get(flag.target_id);
    const topic = post ? await this.ctx.topics.get(post.tid) : null;
    if (!post || !topic || post.deleted === 1) return;
    // The post service records who deleted a post: the forum's first administrator stands in
    // for the forum (never a reporter, whose name the author would then see).
    const admin = Math.min(...(await this.ctx.groups.members(ADMINISTRATORS)));
    if (!Number.isFinite(admin)) return;
    const actor = await this.ctx.privileges.viewer(admin);
    if (topic.main_pid === post.pid) await this.ctx.topics.delete(actor, topic.tid);
    else await this.ctx.posts.delete(actor, post.pid);
    await this.ctx.actions.run('flag.autoHide', (w) => this.ctx.events.log('flag-auto-hide', 0, { flagId: flag.flag_id, pid: post.pid, tid: topic.tid, threshold }, ip, w));
  }

  /** A member takes back their report (NodeBB's DELETE /flags/{flagId}/report); 404 when they made none. */
  async rescind(viewer: Viewer, flagId: number): Promise<void> {
    if (viewer.uid <= 0) throw notAuthorised();
    const flag = Number.isInteger(flagId) && flagId > 0 ? await store.byId(this.ctx.db, flagId) : undefined;
    if (!flag) throw notFound('error:no-flag');
    const removed = await this.ctx.actions.run('flag.rescind', async (w) => {
      const gone = await store.removeReport(w, flagId, viewer.uid);
      if (gone) await store.addHistory(w, flagId, viewer.uid, { report: 'rescinded' }, Date.now());
      return gone;
    });
    if (!removed) throw notFound('error:no-flag-report');
  }

  /** The flags list the viewer may see, filtered, sorted and paged. */
  async list(viewer: Viewer, q: FlagQuery): Promise<{ rows: FlagWithHeat[]; count: number; moderated: number[] | null }> {
    const moderated = await this.assertModerator(viewer);
    const filter: FlagFilter = { cids: moderated };
    if (q.state && (FLAG_STATES as readonly string[]).includes(q.state)) filter.state = q.state;
    if (q.type) filter.type = q.type;
    if (q.assignee !== undefined) filter.assignee = q.assignee;
    if (q.quick === 'mine') filter.assignee = viewer.uid;
    if (q.cid !== undefined) filter.cid = q.cid;
    if (q.reporterId !== undefined) filter.reporterId = q.reporterId;
    if (q.targetUid !== undefined) filter.targetUid = q.targetUid;
    const { rows, count } = await store.list(this.ctx.db, filter, q.sort, (q.page - 1) * q.perPage, q.perPage);
    return { rows, count, moderated };
  }

  /**
   * New flags per day (UTC) over the last `days` days, oldest first, today last: NodeBB's
   * flags analytics (analytics:flags, 30 days), of the flags the viewer may see.
   */
  async dailyCounts(moderated: number[] | null, days = FLAG_ANALYTICS_DAYS, now = Date.now()): Promise<number[]> {
    const today = Math.floor(now / DAY_MS);
    const first = today - days + 1;
    const counts = new Array<number>(days).fill(0);
    for (const created of await store.createdSince(this.ctx.db, moderated, first * DAY_MS)) {
      const i = Math.floor(created / DAY_MS) - first;
      if (i >= 0 && i < days) counts[i]! += 1;
    }
    return counts;
  }

  /** The members a flag may be assigned to: administrators, global moderators and (post flags) its category's moderators. */
  async assignable(flag: Pick<FlagRow, 'type' | 'cid'>): Promise<number[]> {
    const uids = await this.ctx.notifications.moderatorsOf(flag.type === 'post' ? flag.cid : 0);
    return [...new Set(uids)].sort((a, b) => a - b);
  }

  /**
   * Changes a flag's state and/or assignee (one history entry with what changed; nothing when
   * nothing did). The new assignee must be able to see the flag; they are told, and a flag
   * closed as resolved or rejected tells its reporters. Answers the history.
   */
  async update(viewer: Viewer, flagId: number, change: FlagChange, ip: string): Promise<void> {
    const flag = await this.load(viewer, flagId);
    const fields: { state?: FlagState; assignee?: number } = {};
    if (change.state !== undefined && change.state !== flag.state) fields.state = change.state;
    if (change.assignee !== undefined && change.assignee !== flag.assignee) {
      if (change.assignee > 0) {
        const assignee = await this.ctx.users.get(change.assignee);
        if (!assignee) throw badRequest('error:no-user');
        if (!(await this.canSee(await this.ctx.privileges.viewer(change.assignee), flag))) throw badRequest('error:flag-assignee-invalid');
      }
      fields.assignee = change.assignee;
    }
    if (!Object.keys(fields).length) return;
    const now = change.datetime && change.datetime <= Date.now() ? change.datetime : Date.now();
    await this.ctx.actions.run('flag.update', async (w) => {
      await store.update(w, flagId, fields);
      await store.addHistory(w, flagId, viewer.uid, fields, now);
      await this.ctx.events.log('flag-update', viewer.uid, { flagId, ...fields, from: { state: flag.state, assignee: flag.assignee } }, ip, w);
      // Who hears of it (the new assignee; on resolve or reject, the reporters), durably: the
      // notifications are made from the outbox row written with this change.
      const closed = !!fields.state && CLOSED.includes(fields.state);
      await w.fire('action:flag.update', {
        flagId,
        uid: viewer.uid,
        ...(fields.assignee ? { assignee: fields.assignee } : {}),
        ...(fields.state ? { state: fields.state } : {}),
        closed,
        reporters: closed ? await store.reporterUids(w.tx, flagId) : [],
        targetPath: this.targetPath(flag),
        at: now,
      });
    });
  }

  /** Where a reporter is sent to see what they reported. */
  private targetPath(flag: FlagRow): string {
    if (flag.type === 'post') return `/post/${flag.target_id}`;
    if (flag.type === 'message') return `/chats/${flag.room_id}`;
    return `/uid/${flag.target_uid}`;
  }

  /** A moderator adds a shared note (NodeBB's POST /flags/{flagId}/notes); recorded in the history. */
  async addNote(viewer: Viewer, flagId: number, content: string, ip: string): Promise<void> {
    await this.load(viewer, flagId);
    const text = content.trim();
    if (!text) throw badRequest('error:invalid-data', 'body/note');
    const now = Date.now();
    await this.ctx.actions.run('flag.addNote', async (w) => {
      const note = await store.addNote(w, { flag_id: flagId, uid: viewer.uid, content: text, datetime: now });
      await store.addHistory(w, flagId, viewer.uid, { notes: 'added' }, now);
      await this.ctx.events.log('flag-note-add', viewer.uid, { flagId, datetime: Number(note.datetime) }, ip, w);
    });
  }

  /** Deletes a note: its author, or an administrator (NodeBB's DELETE /flags/{flagId}/notes/{datetime}). */
  async deleteNote(viewer: Viewer, flagId: number, datetime: number, ip: string): Promise<void> {
    await this.load(viewer, flagId);
    const note = await store.noteAt(this.ctx.db, flagId, datetime);
    if (!note) throw notFound('error:no-flag-note');
    if (note.uid !== viewer.uid && !viewer.isAdmin) throw forbidden();
    await this.ctx.actions.run('flag.deleteNote', async (w) => {
      await store.removeNote(w, note.id);
      await store.addHistory(w, flagId, viewer.uid, { notes: 'deleted' }, Date.now());
      await this.ctx.events.log('flag-note-delete', viewer.uid, { flagId, datetime, author: note.uid }, ip, w);
    });
  }

  /** Deletes a flag with its reports, notes and history: administrators and global moderators (NodeBB). */
  async delete(viewer: Viewer, flagId: number, ip: string): Promise<void> {
    const flag = await this.load(viewer, flagId);
    if (!viewer.isAdmin && !viewer.isGlobalMod) throw forbidden();
    await this.ctx.actions.run('flag.delete', async (w) => {
      await store.remove(w, flagId);
      await this.ctx.events.log('flag-delete', viewer.uid, { flagId, type: flag.type, targetId: flag.target_id }, ip, w);
    });
  }

  /** The reports, notes and history of one flag (for the presenter). */
  async details(flagId: number) {
    const [reports, notes, history] = await Promise.all([store.reports(this.ctx.db, flagId), store.notes(this.ctx.db, flagId), store.history(this.ctx.db, flagId)]);
    return { reports, notes, history };
  }
}
