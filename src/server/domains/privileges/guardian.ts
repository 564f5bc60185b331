import type { ViewerPrivileges } from '../../../shared/types.js';
import { forbidden, notAuthorised, notFound } from '../../http/errors.js';
import type { Privilege, Viewer } from './service.js';

/** Who may do what where: `<cid>:<privilege>` → subjects (group names, or `uid:N`). */
export type GrantTable = ReadonlyMap<string, ReadonlySet<string>>;

/** What the rules read of a topic. */
export interface TopicFacts {
  cid: number;
  uid: number;
  deleted: number;
  locked: number;
  scheduled: number;
  main_pid: number;
}

/** What the rules read of a post. */
export interface PostFacts {
  pid: number;
  uid: number;
  created: number;
  deleted: number;
  deleter_uid: number;
}

/** The forum settings the rules read. */
export interface GuardianSettings {
  /** Seconds an author may edit their post (0: no limit). */
  postEditDuration: number;
  /** Seconds an author may delete their post (0: no limit). */
  postDeleteDuration: number;
}

/** What a member may do to one post of a topic (NodeBB's display_*_tools). */
export interface PostTools {
  edit: boolean;
  delete: boolean;
  moderate: boolean;
}

/**
 * Who may have a live event, as data (realtime/live-bus.ts carries it to every process, and
 * each asks the guardian of each member among its sockets).
 */
export type Audience =
  /** Everyone in the event's rooms (a member's own rooms, a session's). */
  | { kind: 'any' }
  /** Readers of the category's topic lists. */
  | { kind: 'category'; cid: number }
  /** Readers of the topic (a deleted or scheduled one: those who may see it). */
  | { kind: 'topic'; topic: TopicFacts }
  /** Readers of the post: its topic, and for a deleted post, deleted content. */
  | { kind: 'post'; topic: TopicFacts; post: Pick<PostFacts, 'deleted'> };

const NO_TOOLS: PostTools = Object.freeze({ edit: false, delete: false, moderate: false });

/**
 * The answers for one viewer: every "may this viewer see or do this?" of the forum, from one
 * set of rules over the grant table and the forum's settings (Discourse's guardian). Pages,
 * the API, socket calls, live events' audiences and notifications' recipients all ask it; a
 * rule changes here and nowhere else. Made by `PrivilegesService.guardian(viewer)`, kept for
 * the grant table it was made from (a grant change makes new guardians).
 */
export class Guardian {
  private byCategory = new Map<number, Readonly<ViewerPrivileges>>();

  constructor(
    readonly viewer: Viewer,
    private readonly grants: GrantTable,
    private readonly settings: GuardianSettings,
    private readonly shared?: Map<string, Readonly<ViewerPrivileges>>,
  ) {}

  get uid(): number {
    return this.viewer.uid;
  }

  /** A logged-in member (not a guest, not the system). */
  get isMember(): boolean {
    return this.viewer.uid > 0;
  }

  get isAdmin(): boolean {
    return this.viewer.isAdmin;
  }

  get isGlobalMod(): boolean {
    return this.viewer.isGlobalMod;
  }

  /** 401 unless a member is logged in. */
  assertMember(): void {
    if (!this.isMember) throw notAuthorised();
  }

  /** 401 for a guest, 403 for anyone but an administrator. */
  assertAdmin(): void {
    if (!this.isMember && !this.isAdmin) throw notAuthorised();
    if (!this.isAdmin) throw forbidden();
  }

  /** True when the grant table gives the viewer (their uid or one of their groups) the privilege there. */
  private holds(cid: number, privilege: string): boolean {
    const subjects = this.grants.get(`${cid}:${privilege}`);
    if (!subjects) return false;
    const v = this.viewer;
    if (v.uid > 0 && subjects.has(`uid:${v.uid}`)) return true;
    for (const g of v.groups) if (subjects.has(g)) return true;
    return false;
  }

  /** True when the viewer moderates the category (administrators and global moderators moderate all). */
  isModerator(cid: number): boolean {
    const v = this.viewer;
    if (v.isAdmin || v.isGlobalMod) return true;
    return v.uid > 0 && cid > 0 && this.holds(cid, 'moderate');
  }

  /** True when the viewer holds the privilege in the category (cid 0: the global ones). A category's moderators hold all but purge. */
  can(privilege: Privilege, cid = 0): boolean {
    if (this.viewer.isAdmin) return true;
    if (cid > 0 && privilege !== 'purge' && this.isModerator(cid)) return true;
    return this.holds(cid, privilege);
  }

  /** 401 for a guest, 403 for a member, unless the viewer holds the privilege. */
  assert(privilege: Privilege, cid = 0): void {
    if (this.can(privilege, cid)) return;
    throw this.isMember ? forbidden() : notAuthorised();
  }

  /** 403 unless the viewer moderates the category. */
  assertModerator(cid: number): void {
    if (!this.isModerator(cid)) throw forbidden();
  }

  /** Of these categories, those where the viewer holds the privilege. */
  filterCids(privilege: Privilege, cids: readonly number[]): number[] {
    return cids.filter((cid) => this.can(privilege, cid));
  }

  /** True when the viewer may list and read the category's topics. */
  canReadCategory(cid: number): boolean {
    return this.can('read', cid) && this.can('topics:read', cid);
  }

  /**
   * The viewer's privileges in a category, for page data. Frozen and shared by every viewer the
   * same table answers alike (their groups, and their uid only when the table grants to members
   * one by one), so a page's JSON encodes each once.
   */
  categoryPrivileges(cid: number): Readonly<ViewerPrivileges> {
    let p = this.byCategory.get(cid);
    if (p) return p;
    const v = this.viewer;
    const key = `${cid}|${v.uid > 0 ? (grantsToMembers(this.grants) ? v.uid : 'm') : 'g'}|${v.isAdmin ? 'A' : ''}${v.isGlobalMod ? 'G' : ''}|${v.groups.join(',')}`;
    p = this.shared?.get(key);
    if (!p) {
      const c = (privilege: Privilege) => this.can(privilege, cid);
      const member = v.uid > 0;
      const isMod = this.isModerator(cid);
      p = Object.freeze({
        read: c('read'),
        'topics:read': c('topics:read'),
        'topics:create': member && c('topics:create'),
        'topics:reply': member && c('topics:reply'),
        'topics:tag': member && c('topics:tag'),
        'topics:schedule': member && c('topics:schedule'),
        'posts:edit': member && c('posts:edit'),
        'posts:history': c('posts:history'),
        'posts:delete': member && c('posts:delete'),
        'posts:upvote': member && c('posts:upvote'),
        'posts:downvote': member && c('posts:downvote'),
        'topics:delete': member && c('topics:delete'),
        view_deleted: isMod || c('posts:view_deleted'),
        isAdminOrMod: isMod,
        editable: isMod,
        deletable: isMod,
      });
      if (this.shared) {
        if (this.shared.size >= 10_000) this.shared.clear();
        this.shared.set(key, p);
      }
    }
    this.byCategory.set(cid, p);
    return p;
  }

  /** True when the viewer may see deleted content in the category. */
  canViewDeleted(cid: number): boolean {
    return this.categoryPrivileges(cid).view_deleted;
  }

  /**
   * True when the viewer may read the topic: the category's read privileges; a deleted topic
   * only for its author and those who may see deleted content; a scheduled one, before it is
   * published, only for administrators and its author while they may still schedule.
   */
  canReadTopic(topic: TopicFacts): boolean {
    const p = this.categoryPrivileges(topic.cid);
    if (!p.read || !p['topics:read']) return false;
    const own = this.isMember && this.uid === topic.uid;
    if (topic.deleted === 1 && !own && !p.view_deleted) return false;
    if (topic.scheduled === 1 && !this.isAdmin && !(own && this.can('topics:schedule', topic.cid))) return false;
    return true;
  }

  /** The 404 of a missing topic unless the viewer may read it (restricted topics cannot be probed). */
  assertReadTopic(topic: TopicFacts): void {
    if (!this.canReadTopic(topic)) throw notFound('error:no-topic');
  }

  /** True when the viewer may read the post: its topic, and a deleted post's content only with deleted content's privilege. */
  canReadPost(topic: TopicFacts, post: Pick<PostFacts, 'deleted'>): boolean {
    return this.canReadTopic(topic) && (post.deleted !== 1 || this.canViewDeleted(topic.cid));
  }

  /** Refuses a reply: 401 guest, 403 without topics:reply, 403 in a deleted or locked topic unless a moderator. */
  assertReply(topic: TopicFacts): void {
    this.assertMember();
    this.assertReadTopic(topic);
    this.assert('topics:reply', topic.cid);
    const isMod = this.isModerator(topic.cid);
    if (topic.deleted === 1 && !isMod) throw forbidden('error:topic-deleted');
    if (topic.locked === 1 && !isMod) throw forbidden('error:topic-locked');
  }

  /** True when the viewer is among a live event's audience. */
  admits(audience: Audience): boolean {
    switch (audience.kind) {
      case 'any':
        return true;
      case 'category':
        return this.canReadCategory(audience.cid);
      case 'topic':
        return this.canReadTopic(audience.topic);
      case 'post':
        return this.canReadPost(audience.topic, audience.post);
    }
  }

  /**
   * What the viewer may do to each post of one topic, as NodeBB's display_*_tools flags:
   * moderators always; authors with the privilege, within the forum's edit and delete
   * durations, not on a deleted post or in a locked topic for edits; never deleting the main
   * post; an author restores only what they deleted themselves.
   */
  postTools(topic: TopicFacts): (post: PostFacts) => PostTools {
    if (!this.isMember) return () => NO_TOOLS;
    const p = this.categoryPrivileges(topic.cid);
    const isMod = p.isAdminOrMod;
    const { postEditDuration, postDeleteDuration } = this.settings;
    const now = Date.now();
    const within = (post: PostFacts, seconds: number) => seconds <= 0 || now - Number(post.created) <= seconds * 1000;
    return (post) => {
      const own = post.uid === this.uid;
      const ownDelete = own && p['posts:delete'] && (post.deleted === 1 ? post.deleter_uid === this.uid : within(post, postDeleteDuration));
      return {
        edit: isMod || (own && p['posts:edit'] && post.deleted !== 1 && topic.locked !== 1 && within(post, postEditDuration)),
        delete: post.pid !== topic.main_pid && (isMod || ownDelete),
        moderate: isMod,
      };
    };
  }
}

/** Whether the table grants anything to a single member (`uid:N`), so answers may differ by uid; kept per table. */
const toMembers = new WeakMap<GrantTable, boolean>();
function grantsToMembers(table: GrantTable): boolean {
  let any = toMembers.get(table);
  if (any === undefined) {
    any = false;
    for (const subjects of table.values()) {
      for (const s of subjects) {
        if (s.startsWith('uid:')) {
          any = true;
          break;
        }
      }
      if (any) break;
    }
    toMembers.set(table, any);
  }
  return any;
}
