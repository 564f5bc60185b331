import type { AppContext } from '../../context.js';
import { userTag } from '../../core/tags.js';
import { AppError, badRequest, forbidden, notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import type { UserRow } from '../users/store.js';
import { moderationInfo } from './info.js';
import { IpBlacklist } from './ip-blacklist.js';
import { countLinks } from './links.js';
import * as store from './store.js';
import type { MuteRow } from './store.js';

/** What the moderation service uses of the application. */
export type ModerationDeps = Pick<AppContext, 'actions' | 'auth' | 'cacheRegistry' | 'config' | 'db' | 'events' | 'groups' | 'hooks' | 'log' | 'outgoing' | 'posts' | 'privileges' | 'settings' | 'topics' | 'users'>;

/** The longest ban or mute reason and moderation note kept. */
export const REASON_MAX = 500;
export const NOTE_MAX = 5000;

/**
 * Member moderation: bans and mutes (with their history), moderation notes, the addresses
 * members use, the IP blacklist, the new-member link limit and the spam report.
 */
export class ModerationService {
  /** The IP blacklist (rules, address test, hit counts). */
  readonly blacklist: IpBlacklist;

  constructor(private readonly ctx: ModerationDeps) {
    this.blacklist = new IpBlacklist(ctx.db, ctx.actions, ctx.cacheRegistry, ctx.events);
  }

  private async target(uid: number): Promise<UserRow> {
    const user = await this.ctx.users.get(uid);
    if (!user || user.deleted === 1) throw notFound('error:no-user');
    return user;
  }

  private checkUntil(until: number): number {
    // NodeBB takes an end already past (its API document's own example is one): the ban or
    // mute is recorded and is over at once, so the member can log in again.
    return Math.max(0, until);
  }

  /** Bans a member until a time (0: for ever): sessions and tokens end, the history records it, every process hears of it. */
  async ban(actor: Viewer, uid: number, until: number, reason: string): Promise<void> {
    if (actor.uid <= 0 && !actor.isAdmin) throw notAuthorised();
    if (!(await this.ctx.privileges.can(actor, 'ban'))) throw forbidden();
    const end = this.checkUntil(until);
    await this.target(uid);
    if (await this.ctx.groups.isAdmin(uid)) throw forbidden('error:cant-ban-other-admins');
    const why = reason.trim().slice(0, REASON_MAX);
    await this.ctx.actions.run('user.ban', async (w) => {
      await this.ctx.users.writeBan(w.tx, uid, { banned: true, until: end, reason: why });
      // What others see of the member (their ban) changed.
      w.changed(userTag(uid));
      // A ban ends every way in: sessions and API tokens.
      await this.ctx.auth.destroySessionsOf(uid, undefined, w.tx);
      await this.ctx.auth.revokeTokensOf(uid, w.tx);
      await store.insertAction(w, { uid, kind: 'ban', by_uid: actor.uid, reason: why, until: end, created: Date.now() });
      await this.ctx.events.log('user-ban', actor.uid, { targetUid: uid, until: end, reason: why }, '', w);
      await w.fire('action:user.banned', { uid, until: end, reason: why, by: actor.uid });
    });
  }

  /** Lifts a ban. */
  async unban(actor: Viewer, uid: number, reason = ''): Promise<void> {
    if (actor.uid <= 0 && !actor.isAdmin) throw notAuthorised();
    if (!(await this.ctx.privileges.can(actor, 'ban'))) throw forbidden();
    await this.target(uid);
    const why = reason.trim().slice(0, REASON_MAX);
    await this.ctx.actions.run('user.unban', async (w) => {
      await this.ctx.users.writeBan(w.tx, uid, { banned: false });
      w.changed(userTag(uid));
      await store.insertAction(w, { uid, kind: 'unban', by_uid: actor.uid, reason: why, until: 0, created: Date.now() });
      await this.ctx.events.log('user-unban', actor.uid, { targetUid: uid }, '', w);
      await w.fire('action:user.unbanned', { uid, by: actor.uid });
    });
  }

  /** Mutes a member until a time (0: until lifted): they read but cannot post, edit or chat. */
  async mute(actor: Viewer, uid: number, until: number, reason: string): Promise<void> {
    if (actor.uid <= 0 && !actor.isAdmin) throw notAuthorised();
    if (!(await this.ctx.privileges.can(actor, 'mute'))) throw forbidden();
    const end = this.checkUntil(until);
    await this.target(uid);
    if (await this.ctx.groups.isAdmin(uid)) throw forbidden('error:cant-mute-other-admins');
    const why = reason.trim().slice(0, REASON_MAX);
    const now = Date.now();
    await this.ctx.actions.run('user.mute', async (w) => {
      await store.setMute(w, { uid, until: end, reason: why, by_uid: actor.uid, created: now });
      await store.insertAction(w, { uid, kind: 'mute', by_uid: actor.uid, reason: why, until: end, created: now });
      await this.ctx.events.log('user-mute', actor.uid, { targetUid: uid, until: end, reason: why }, '', w);
      await w.fire('action:user.muted', { uid, until: end, reason: why, by: actor.uid });
    });
  }

  /** Lifts a mute. */
  async unmute(actor: Viewer, uid: number, reason = ''): Promise<void> {
    if (actor.uid <= 0 && !actor.isAdmin) throw notAuthorised();
    if (!(await this.ctx.privileges.can(actor, 'mute'))) throw forbidden();
    await this.target(uid);
    const why = reason.trim().slice(0, REASON_MAX);
    await this.ctx.actions.run('user.unmute', async (w) => {
      await store.deleteMute(w, uid);
      await store.insertAction(w, { uid, kind: 'unmute', by_uid: actor.uid, reason: why, until: 0, created: Date.now() });
      await this.ctx.events.log('user-unmute', actor.uid, { targetUid: uid }, '', w);
      await w.fire('action:user.unmuted', { uid, by: actor.uid });
    });
  }

  /** The mute in force on a member, or null (an expired mute counts as none; it is dropped on the next write). */
  /** The members seen at an address (logins and posts), at most `limit`: the admins' user search by IP. */
  async uidsAt(ip: string, limit = 500): Promise<number[]> {
    return [...new Set((await store.othersAt(this.ctx.db, [ip], 0, limit)).map((r) => r.uid))];
  }

  async muteOf(uid: number): Promise<MuteRow | null> {
    if (uid <= 0) return null;
    const row = await store.muteOf(this.ctx.db, uid);
    if (!row) return null;
    return row.until === 0 || row.until > Date.now() ? row : null;
  }

  /** Throws NodeBB's mute error (hours or minutes left) while the member is muted. */
  async assertNotMuted(uid: number): Promise<void> {
    const mute = await this.muteOf(uid);
    if (!mute) return;
    if (mute.until === 0) throw forbidden('error:user-muted');
    const minutes = (mute.until - Date.now()) / 60_000;
    if (minutes > 60) throw forbidden('error:user-muted-for-hours', Math.round(minutes / 60));
    throw forbidden('error:user-muted-for-minutes', Math.max(1, Math.round(minutes)));
  }

  /** Refuses a new member's post with more links than the forum allows (moderators and admins exempt). */
  async assertLinksAllowed(uid: number, content: string): Promise<void> {
    const s = await this.ctx.settings.get();
    if (s.maximumLinksForNewMembers <= 0 || uid <= 0) return;
    const user = await this.ctx.users.get(uid);
    if (!user) return;
    if (user.postcount >= s.newMemberPostCount || user.reputation >= s.newbieReputationThreshold) return;
    const viewer = await this.ctx.privileges.viewer(uid);
    if (viewer.isAdmin || viewer.isGlobalMod) return;
    if (countLinks(content) > s.maximumLinksForNewMembers) throw badRequest('error:too-many-links', s.maximumLinksForNewMembers);
  }

  /** Records that a member used an address (login or post); never fails the caller's action. */
  async recordIp(uid: number, ip: string): Promise<void> {
    if (uid <= 0 || !ip) return;
    await this.ctx.actions.run('user.record-ip', (w) => store.recordIp(w, uid, ip, Date.now())).catch((err: unknown) => this.ctx.log.error({ err }, 'ip history write failed'));
  }

  /** Adds a moderation note on a member (moderators with `view:users:info`). */
  async addNote(actor: Viewer, uid: number, note: string): Promise<store.NoteRow> {
    await this.assertInfo(actor);
    const text = note.trim();
    if (!text) throw badRequest('error:invalid-data');
    if (text.length > NOTE_MAX) throw badRequest('error:moderation-note-too-long', NOTE_MAX);
    await this.target(uid);
    return this.ctx.actions.run('user.note', (w) => store.insertNote(w, { uid, by_uid: actor.uid, note: text, created: Date.now() }));
  }

  /** 403 unless the viewer may see members' moderation info (admins, global moderators, `view:users:info`). */
  async assertInfo(actor: Viewer): Promise<void> {
    if (actor.uid <= 0) throw notAuthorised();
    if (!(await this.canViewInfo(actor))) throw forbidden();
  }

  /** Whether the viewer sees any member's info page: admins, global moderators and holders of view:users:info. */
  async canViewInfo(actor: Viewer): Promise<boolean> {
    if (actor.uid <= 0) return false;
    return actor.isAdmin || actor.isGlobalMod || this.ctx.privileges.can(actor, 'view:users:info');
  }

  /** The info page's moderation data of a member (info.ts). */
  async info(viewer: Viewer, row: UserRow) {
    return moderationInfo(this.ctx, this, viewer, row);
  }

  /** 403 unless the viewer may see and edit the IP blacklist (admins and global moderators). */
  async assertBlacklistAdmin(actor: Viewer): Promise<void> {
    if (actor.uid <= 0) throw notAuthorised();
    if (!actor.isAdmin && !actor.isGlobalMod) throw forbidden();
  }

  /**
   * Deletes every topic a member started and every reply they wrote, in one transaction,
   * taking back every counter (admins and global moderators; never an admin's content).
   */
  async deleteContent(actor: Viewer, uid: number): Promise<{ topics: number; posts: number }> {
    if (actor.uid <= 0 && !actor.isAdmin) throw notAuthorised();
    if (!actor.isAdmin && !actor.isGlobalMod) throw forbidden();
    await this.target(uid);
    if (await this.ctx.groups.isAdmin(uid)) throw forbidden('error:cant-delete-admin');
    const done = await this.ctx.actions.run('user.delete-content', async (w) => {
      const topics = await this.ctx.topics.purgeTopicsOf(w, uid);
      const posts = await this.ctx.posts.purgeContentOf(w, uid);
      await this.ctx.events.log('user-content-delete', actor.uid, { targetUid: uid, topics: topics.length, posts: posts.length }, '', w);
      for (const topic of topics) await w.fire('action:topic.purge', { topic, uid: actor.uid });
      // Each reply too (its uploads' references, the live 'event:post_purged' to open topic pages).
      if (posts.length) {
        const parents = await this.ctx.topics.getMany([...new Set(posts.map((p) => p.tid))]);
        for (const post of posts) {
          const topic = parents.get(post.tid);
          if (topic) await w.fire('action:post.purge', { post, topic, uid: actor.uid });
        }
      }
      return { topics, posts };
    });
    return { topics: done.topics.length, posts: done.posts.length };
  }

  /**
   * An admin's spam report on a member (spec §7): the member is banned, their topics and
   * replies deleted, and the report recorded in the event log.
   */
  async reportSpam(actor: Viewer, userslug: string, ip: string): Promise<void> {
    if (actor.uid <= 0) throw notAuthorised();
    if (!actor.isAdmin) throw forbidden();
    const target = await this.ctx.users.bySlug(userslug);
    if (!target || target.deleted === 1) throw notFound('error:no-user');
    if (target.uid === actor.uid || (await this.ctx.groups.isAdmin(target.uid))) throw forbidden('error:cant-ban-other-admins');
    await this.ban(actor, target.uid, 0, 'spam');
    const removed = await this.deleteContent(actor, target.uid);
    await this.ctx.events.log('spam-report', actor.uid, { targetUid: target.uid, username: target.username, ...removed }, ip);
  }

  /**
   * The optional StopForumSpam-style lookup at registration (setting, off by default: no
   * outside request unless an admin turns it on). A listed address or email refuses the
   * registration; an unreachable service lets it through (logged), as a spam filter must not
   * close the forum.
   */
  async assertNotKnownSpammer(ip: string, email: string, username: string): Promise<void> {
    const s = await this.ctx.settings.get();
    if (!s.stopForumSpamEnabled) return;
    const url = new URL(s.stopForumSpamUrl);
    url.searchParams.set('json', '');
    if (ip) url.searchParams.set('ip', ip);
    if (email) url.searchParams.set('email', email);
    if (username) url.searchParams.set('username', username);
    let body: { success?: number; ip?: { appears?: number }; email?: { appears?: number } };
    try {
      // Through the outgoing guard (http/outgoing.ts): the lookup URL is a setting, and must not reach the forum's own network.
      const res = await this.ctx.outgoing.request(url, { timeoutMs: 5000, headers: { accept: 'application/json' } });
      body = JSON.parse(res.body.toString('utf8')) as typeof body;
    } catch (err) {
      this.ctx.log.warn({ err }, 'spam lookup failed; registration allowed');
      return;
    }
    if (body.success === 1 && ((body.ip?.appears ?? 0) > 0 || (body.email?.appears ?? 0) > 0)) {
      await this.ctx.events.log('spam-registration-refused', 0, { username, email }, ip);
      throw new AppError('error:spam-registration', 403);
    }
  }
}
