import type { AppContext } from '../../context.js';
import type { ActionRunner, Writer } from '../../core/action.js';
import type { Db, Queryable } from '../../db/index.js';
import { badRequest, forbidden, notAuthorised, notFound } from '../../http/errors.js';
import { slugify } from '../../../shared/slug.js';
import type { Viewer } from '../privileges/service.js';
import type { GroupBadge, GroupData } from '../../../shared/schemas/group.js';
import { presentBadge, presentGroup } from './presenter.js';
import * as store from './store.js';
import type { GroupRow, GroupSort } from './store.js';
import { deepFreeze } from '../../cache/page-cache.js';

export const GUESTS = 'guests';
export const REGISTERED = 'registered-users';
export const ADMINISTRATORS = 'administrators';
export const GLOBAL_MODS = 'Global Moderators';

/** What the group actions reach of the application (set once the context is built). */
export type GroupsDeps = Pick<AppContext, 'hooks' | 'notifications' | 'privileges' | 'users'>;

/** The fields an owner may change (NodeBB's names, as PUT /groups/{slug} takes them). */
export interface GroupChanges {
  name?: string;
  description?: string;
  icon?: string;
  labelColor?: string;
  textColor?: string;
  userTitle?: string;
  userTitleEnabled?: number | boolean;
  private?: number | boolean;
  hidden?: number | boolean;
  disableJoinRequests?: number | boolean;
  disableLeave?: number | boolean;
}

/** A member's groups as a profile shows them, and the badges they show. */
export interface ProfileGroups {
  groups: { name: string; slug: string }[];
  badges: GroupBadge[];
  /** The same groups as NodeBB's GroupDataObject with `descriptionParsed` (the account pages' `groups`, groups.getUserGroups). */
  data: (GroupData & { descriptionParsed: string })[];
}

/** A member's profile groups for both kinds of reader (see GroupsService.profileViews). */
export interface ProfileGroupViews {
  isAdmin: boolean;
  /** As the member and admins see them (hidden groups included). */
  withHidden: ProfileGroups;
  /** As everyone else sees them. */
  shown: ProfileGroups;
}

/** A new group (NodeBB's POST /groups body). */
export interface NewGroup extends GroupChanges {
  name: string;
}

const MAX_NAME = 255;
const COLOUR = /^#[0-9a-fA-F]{6}$/;
const ICON = /^(fa-[a-z0-9-]+( fa-[a-z0-9-]+)*)?$/;
/** A cover position as CSS `x% y%` (NodeBB's `cover:position`), each clamped to 0..100; anything else is bad input. */
export function checkCoverPosition(pos: string): string {
  const m = /^\s*(-?\d{1,3}(?:\.\d{1,4})?)%\s+(-?\d{1,3}(?:\.\d{1,4})?)%\s*$/.exec(pos);
  if (!m) throw badRequest('error:invalid-data');
  const clamp = (n: string) => Math.min(100, Math.max(0, Number(n)));
  return `${clamp(m[1]!)}% ${clamp(m[2]!)}%`;
}

const flag = (v: number | boolean | undefined) => (v === undefined ? undefined : v === true || v === 1 ? 1 : 0);

/** Groups and membership: the system groups privileges rely on and members' own groups. */
export class GroupsService {
  private ctx: GroupsDeps | null = null;

  constructor(
    private readonly db: Db,
    private readonly actions: ActionRunner,
  ) {}

  /** Gives the service the rest of the application (privileges are built after groups). */
  wire(ctx: GroupsDeps): void {
    this.ctx = ctx;
  }

  private get deps(): GroupsDeps {
    if (!this.ctx) throw new Error('GroupsService used before wire()');
    return this.ctx;
  }

  /** Creates the system groups when missing (in the caller's action when given its writer). */
  async ensureSystemGroups(w?: Writer): Promise<void> {
    await this.writing('group.ensure-system', w, async (w) => {
      await store.ensureGroup(w, GUESTS, 'guests', true, true);
      await store.ensureGroup(w, REGISTERED, 'registered-users', true, false);
      await store.ensureGroup(w, ADMINISTRATORS, 'administrators', true, false);
      await store.ensureGroup(w, GLOBAL_MODS, 'global-moderators', true, false);
    });
  }

  /** The groups a viewer counts as: 'guests' for uid 0. */
  async groupsOf(uid: number, db: Queryable = this.db): Promise<string[]> {
    if (uid <= 0) return [GUESTS];
    return store.groupsOf(db, uid);
  }

  /** The groups of each of these members (guests' for uids below 1), in one query. */
  async groupsOfMany(uids: readonly number[]): Promise<Map<number, string[]>> {
    const members = uids.filter((u) => u > 0);
    const found = members.length ? await store.groupsOfMany(this.db, members) : new Map<number, string[]>();
    return new Map(uids.map((uid) => [uid, uid <= 0 ? [GUESTS] : (found.get(uid) ?? [])]));
  }

  /** True when the member is in the administrators group. */
  async isAdmin(uid: number, db: Queryable = this.db): Promise<boolean> {
    if (uid <= 0) return false;
    return (await this.groupsOf(uid, db)).includes(ADMINISTRATORS);
  }

  /**
   * Adds a member to a group (in the caller's action when given its writer). Every process
   * forgets who they are once it commits (the store names GROUPS).
   */
  async join(name: string, uid: number, w?: Writer): Promise<void> {
    await this.writing('group.join', w, (w) => store.addMember(w, name, uid));
  }

  /**
   * Adds a member to a group as a reward, in the caller's action: their badge is set when they
   * show none. True when added.
   */
  async award(name: string, uid: number, w?: Writer): Promise<boolean> {
    return this.writing('group.award', w, async (w) => {
      const added = await store.addMember(w, name, uid);
      if (added) await this.badgeIfNone(w, uid, name);
      return added;
    });
  }

  /** Removes a member from a group (in the caller's action when given its writer). */
  async leave(name: string, uid: number, w?: Writer): Promise<void> {
    await this.writing('group.leave', w, (w) => store.removeMember(w, name, uid));
  }

  /** True when the group exists. */
  async exists(name: string): Promise<boolean> {
    return store.groupExists(this.db, name);
  }

  /** Members of a group. */
  async members(name: string): Promise<number[]> {
    return store.membersOf(this.db, name);
  }

  // ---- reads ----

  /** A group the viewer may see, by slug: 404 when missing or hidden from them. */
  async visible(viewer: Viewer, slug: string): Promise<GroupRow> {
    await this.deps.privileges.assert(viewer, 'view:groups');
    const g = await store.bySlug(this.db, slug);
    if (!g || !(await this.mayView(viewer, g))) throw notFound('error:no-group');
    return g;
  }

  /** A hidden group shows only to its members, the members it invited and admins. */
  private async mayView(viewer: Viewer, g: GroupRow): Promise<boolean> {
    if (!g.hidden || viewer.isAdmin) return true;
    if (viewer.uid <= 0) return false;
    if (await store.membership(this.db, g.name, viewer.uid)) return true;
    return store.isWaiting(this.db, 'group_invites', g.name, viewer.uid);
  }

  /** One page of the groups the viewer may see (guests and registered-users are not listed). */
  async list(viewer: Viewer, opts: { sort: GroupSort; query: string; offset: number; limit: number }) {
    await this.deps.privileges.assert(viewer, 'view:groups');
    return store.list(this.db, { ...opts, uid: viewer.uid, all: viewer.isAdmin, exclude: [GUESTS, REGISTERED] });
  }

  /** Every group, system ones included, by name (the admin area's lists; admins only). */
  async adminList(viewer: Viewer, query = ''): Promise<GroupRow[]> {
    if (viewer.uid <= 0) throw notAuthorised();
    if (!viewer.isAdmin) throw forbidden();
    return store.allGroups(this.db, query);
  }

  /** A group by slug for the admin area, hidden ones included (admins only). */
  async adminGet(viewer: Viewer, slug: string): Promise<GroupRow> {
    if (viewer.uid <= 0) throw notAuthorised();
    if (!viewer.isAdmin) throw forbidden();
    const g = await store.bySlug(this.db, slug);
    if (!g) throw notFound('error:no-group');
    return g;
  }

  /** The first members of each group, by group name. */
  async previews(names: string[], per: number): Promise<Map<string, number[]>> {
    return store.previews(this.db, names, per);
  }

  /** One page of a group's members. */
  async memberPage(g: GroupRow, opts: { query: string; offset: number; limit: number }) {
    return store.memberPage(this.db, g.name, opts);
  }

  /** What the viewer is to a group: member, owner, requesting, invited, manager (owner or admin). */
  async standing(viewer: Viewer, g: GroupRow) {
    if (viewer.uid <= 0) return { isMember: false, isOwner: false, isPending: false, isInvited: false, canManage: false };
    const [m, isPending, isInvited] = await Promise.all([
      store.membership(this.db, g.name, viewer.uid),
      store.isWaiting(this.db, 'group_pending', g.name, viewer.uid),
      store.isWaiting(this.db, 'group_invites', g.name, viewer.uid),
    ]);
    const isOwner = m?.is_owner === 1;
    return { isMember: !!m, isOwner, isPending, isInvited, canManage: isOwner || viewer.isAdmin };
  }

  /** Members waiting in a group's requests (pending) or invitations: owners and admins only. */
  async waiting(viewer: Viewer, slug: string, kind: 'pending' | 'invites'): Promise<number[]> {
    const g = await this.managed(viewer, slug);
    return store.waiting(this.db, kind === 'pending' ? 'group_pending' : 'group_invites', g.name);
  }

  /** A member's groups with their badge order, and the groups that invited them. */
  async ofMember(uid: number): Promise<{ groups: Awaited<ReturnType<typeof store.groupRowsOf>>; invites: GroupRow[] }> {
    const [groups, invited] = await Promise.all([store.groupRowsOf(this.db, uid), store.invitesOf(this.db, uid)]);
    const invites = (await Promise.all(invited.map((n) => store.byName(this.db, n)))).filter((g): g is GroupRow => !!g);
    return { groups: groups.filter((g) => g.name !== REGISTERED), invites };
  }

  /** The badges each member shows, in one query for all of them (a topic page's authors); hidden groups' badges never show there. */
  async badgesOf(uids: number[]): Promise<Map<number, GroupRow[]>> {
    return store.badgesOf(this.db, uids);
  }

  /** A profile's groups (hidden ones only for the member and admins) and the badges the member shows. */
  async profile(viewer: Viewer, uid: number): Promise<ProfileGroups> {
    const views = await this.profileViews(uid);
    return viewer.uid === uid || viewer.isAdmin ? views.withHidden : views.shown;
  }

  /**
   * A member's groups as their profile shows them, to readers who may see hidden groups (the
   * member and admins: `withHidden`) and to the others (`shown`), and whether they are an
   * administrator: one statement (their memberships with each group's row), frozen, so that
   * a cache of the profile's shared part gives every reader the same objects.
   */
  async profileViews(uid: number): Promise<ProfileGroupViews> {
    const rows = await store.groupRowsOf(this.db, uid);
    const views = (mayHidden: boolean): ProfileGroups => ({
      groups: rows.filter((g) => g.name !== REGISTERED && (mayHidden || !g.hidden)).map((g) => ({ name: g.name, slug: g.slug })),
      data: rows.filter((g) => g.name !== REGISTERED && (mayHidden || !g.hidden)).map((g) => ({ ...presentGroup(g), descriptionParsed: g.description_parsed })),
      // As badgesOf: the groups whose badge the member shows (badge > 0, titles enabled), in their order.
      badges: rows
        .filter((g) => g.badge > 0 && g.user_title_enabled === 1 && (mayHidden || !g.hidden))
        .sort((a, b) => a.badge - b.badge)
        .map(presentBadge),
    });
    return deepFreeze({ isAdmin: rows.some((g) => g.name === ADMINISTRATORS), withHidden: views(true), shown: views(false) });
  }

  // ---- writes ----

  /** Creates a group (global privilege group:create); the creator is its first owner. */
  async create(viewer: Viewer, input: NewGroup): Promise<GroupRow> {
    if (viewer.uid <= 0) throw notAuthorised();
    const name = this.checkName(input.name);
    const fields = this.checkChanges(input);
    if (!(await this.deps.privileges.can(viewer, 'group:create'))) throw forbidden();
    const slug = slugify(name);
    if (await store.nameTaken(this.db, name, slug)) throw badRequest('error:group-already-exists');
    await this.parseDescription(fields, viewer.uid);
    return this.actions.run('group.create', async (w) => {
      await store.insertGroup(w, { ...fields, private: fields.private ?? 1, name, slug, created: Date.now() });
      await store.addMember(w, name, viewer.uid, true);
      await this.badgeIfNone(w, viewer.uid, name);
      return (await store.byName(w.tx, name))!;
    });
  }

  /** Changes a group's fields and name (owners and admins); system groups keep their name. */
  async update(viewer: Viewer, slug: string, input: GroupChanges): Promise<GroupRow> {
    const fields = this.checkChanges(input);
    const newName = input.name !== undefined ? this.checkName(input.name) : undefined;
    const g = await this.managed(viewer, slug);
    const renamed = newName !== undefined && newName !== g.name;
    if (renamed && g.system) throw badRequest('error:not-allowed-to-rename-system-group');
    const newSlug = renamed ? slugify(newName) : g.slug;
    if (renamed && (await store.nameTaken(this.db, newName, newSlug, g.name))) throw badRequest('error:group-already-exists');
    await this.parseDescription(fields, viewer.uid);
    const opened = fields.private === 0 && g.private === 1;
    const accepted = opened ? await store.waiting(this.db, 'group_pending', g.name) : [];
    const name = renamed ? newName : g.name;
    return this.actions.run('group.update', async (w) => {
      if (renamed) {
        await store.rename(w, g.name, newName, newSlug);
        await this.deps.privileges.renameSubject(w, g.name, newName);
      }
      await store.updateGroup(w, name, fields);
      // A group made public lets in everyone who was waiting (as NodeBB).
      for (const uid of accepted) {
        await store.removeWaiting(w, 'group_pending', name, uid);
        await store.addMember(w, name, uid);
        await this.badgeIfNone(w, uid, name);
      }
      return (await store.byName(w.tx, name))!;
    });
  }

  /** Deletes a group (owners and admins); system groups cannot be deleted. */
  async delete(viewer: Viewer, slug: string): Promise<void> {
    const g = await this.managed(viewer, slug);
    if (g.system) throw badRequest('error:not-allowed');
    await this.actions.run('group.delete', async (w) => {
      await store.deleteGroup(w, g.name);
      await this.deps.privileges.renameSubject(w, g.name, null);
      // Its cover photo is used no more (the clean-up job removes the file).
      if (g.cover_url) await w.fire('action:group.cover', { gid: g.gid, url: '' });
    });
  }

  /**
   * PUT /groups/{slug}/membership/{uid}: a member joins a public group, asks to join a private
   * one (its owners are told), or an admin adds anyone. Hidden groups take members by
   * invitation; system groups only by an admin (guests never).
   */
  async joinOrRequest(viewer: Viewer, slug: string, uid: number): Promise<'joined' | 'requested'> {
    if (viewer.uid <= 0) throw notAuthorised();
    const g = await this.visible(viewer, slug);
    if (g.name === GUESTS) throw badRequest('error:not-allowed');
    if (uid !== viewer.uid && !viewer.isAdmin) throw forbidden();
    if (!(await this.deps.users.get(uid))) throw notFound('error:no-user');
    if (await store.membership(this.db, g.name, uid)) throw badRequest('error:group-already-member');
    if (!viewer.isAdmin) {
      if (g.system) throw forbidden();
      if (g.hidden && !(await store.isWaiting(this.db, 'group_invites', g.name, uid))) throw forbidden();
      if (g.private && !(await store.isWaiting(this.db, 'group_invites', g.name, uid))) {
        if (g.disable_join_requests) throw badRequest('error:group-join-disabled');
        if (await store.isWaiting(this.db, 'group_pending', g.name, uid)) throw badRequest('error:group-already-requested');
        const owners = await store.ownersOf(this.db, g.name);
        await this.actions.run('group.request', async (w) => {
          await store.addWaiting(w, 'group_pending', g.name, uid, uid);
          await w.fire('action:group.request', { groupName: g.name, uid, uids: owners });
        });
        return 'requested';
      }
    }
    await this.addTo(g, uid);
    return 'joined';
  }

  /** DELETE /groups/{slug}/membership/{uid}: a member leaves, or an owner or admin removes (kicks) one. */
  async leaveOrKick(viewer: Viewer, slug: string, uid: number): Promise<void> {
    if (viewer.uid <= 0) throw notAuthorised();
    const g = await this.visible(viewer, slug);
    const self = uid === viewer.uid;
    const { canManage } = await this.standing(viewer, g);
    if (!self && !canManage) throw forbidden();
    if (g.name === REGISTERED || g.name === GUESTS) throw badRequest('error:not-allowed');
    if (g.system && !viewer.isAdmin) throw forbidden();
    if (!(await store.membership(this.db, g.name, uid))) throw badRequest('error:group-not-member');
    if (self && g.disable_leave && !viewer.isAdmin) throw badRequest('error:group-leave-disabled');
    if (g.name === ADMINISTRATORS && g.member_count <= 1) throw badRequest('error:cant-remove-last-admin');
    await this.actions.run('group.leave', (w) => store.removeMember(w, g.name, uid));
  }

  /** Grants or rescinds ownership (owners and admins); a group keeps at least one owner unless an admin acts. */
  async setOwner(viewer: Viewer, slug: string, uid: number, owner: boolean): Promise<void> {
    const g = await this.managed(viewer, slug);
    const m = await store.membership(this.db, g.name, uid);
    if (!m) throw badRequest('error:group-not-member');
    if (!owner && m.is_owner && !viewer.isAdmin && (await store.ownersOf(this.db, g.name)).length <= 1) throw badRequest('error:group-needs-owner');
    await this.actions.run('group.set-owner', (w) => store.setOwner(w, g.name, uid, owner));
  }

  /** Accepts (true) or rejects a membership request (owners and admins); the member hears of an acceptance. */
  async answerRequest(viewer: Viewer, slug: string, uid: number, accept: boolean): Promise<void> {
    const g = await this.managed(viewer, slug);
    if (!(await store.isWaiting(this.db, 'group_pending', g.name, uid))) throw notFound('error:group-not-pending');
    await this.actions.run('group.answer-request', async (w) => {
      await store.removeWaiting(w, 'group_pending', g.name, uid);
      if (!accept) return;
      await store.addMember(w, g.name, uid);
      await this.badgeIfNone(w, uid, g.name);
      await w.fire('action:group.accept', { groupName: g.name, slug: g.slug, uid, by: viewer.uid });
    });
  }

  /** Invites a member (owners and admins); the member is notified and accepts or rejects. */
  async invite(viewer: Viewer, slug: string, uid: number): Promise<void> {
    const g = await this.managed(viewer, slug);
    if (g.system) throw badRequest('error:not-allowed');
    if (!(await this.deps.users.get(uid))) throw notFound('error:no-user');
    if (await store.membership(this.db, g.name, uid)) throw badRequest('error:group-already-member');
    if (await store.isWaiting(this.db, 'group_invites', g.name, uid)) throw badRequest('error:group-already-invited');
    await this.actions.run('group.invite', async (w) => {
      await store.addWaiting(w, 'group_invites', g.name, uid, viewer.uid);
      await w.fire('action:group.invite', { groupName: g.name, uid, by: viewer.uid });
    });
  }

  /** The invited member accepts (joins) or declines; an owner or admin may take an invitation back, and an admin (who may add anyone) accept it. */
  async answerInvite(viewer: Viewer, slug: string, uid: number, accept: boolean): Promise<void> {
    if (viewer.uid <= 0) throw notAuthorised();
    const g = await this.visible(viewer, slug);
    const self = uid === viewer.uid;
    if (accept ? !self && !viewer.isAdmin : !self && !(await this.standing(viewer, g)).canManage) throw forbidden();
    if (!(await store.isWaiting(this.db, 'group_invites', g.name, uid))) throw badRequest('error:not-invited');
    await this.actions.run('group.answer-invite', async (w) => {
      await store.removeWaiting(w, 'group_invites', g.name, uid);
      await store.removeWaiting(w, 'group_pending', g.name, uid);
      if (!accept) return;
      await store.addMember(w, g.name, uid);
      await this.badgeIfNone(w, uid, g.name);
    });
  }

  /** The badges a member shows: the given groups of theirs, in this order (self or admin). */
  async setBadges(viewer: Viewer, uid: number, names: string[]): Promise<void> {
    if (viewer.uid <= 0) throw notAuthorised();
    if (viewer.uid !== uid && !viewer.isAdmin) throw forbidden();
    const mine = new Set(await store.groupsOf(this.db, uid));
    const chosen = [...new Set(names)];
    if (chosen.some((n) => !mine.has(n) || n === REGISTERED)) throw badRequest('error:no-group');
    // Topic pages show each author's badges: the store names the member and GROUPS, so their cached parts drop in every process.
    await this.actions.run('group.set-badges', (w) => store.setBadges(w, uid, chosen));
  }

  // ---- cover photo ----

  /** The group by slug when the viewer owns it or is an admin (401 guest, 404 unseen, 403 otherwise). */
  async manageable(viewer: Viewer, slug: string): Promise<GroupRow> {
    return this.managed(viewer, slug);
  }

  /**
   * Sets (url, from the uploads domain) or removes ('') a group's cover photo, or only moves it
   * (position, CSS `x% y%`); owners and admins. `action:group.cover` tells the uploads domain
   * which file the group uses now (by its stable `gid`), so the old one becomes unused.
   */
  async setCover(viewer: Viewer, slug: string, cover: { url?: string; position?: string }): Promise<GroupRow> {
    const position = cover.position === undefined ? undefined : checkCoverPosition(cover.position);
    const g = await this.managed(viewer, slug);
    const fields: Partial<GroupRow> = {};
    if (cover.url !== undefined) Object.assign(fields, { cover_url: cover.url, cover_thumb_url: '', cover_position: '50% 50%' });
    if (position !== undefined) fields.cover_position = position;
    return this.actions.run('group.set-cover', async (w) => {
      await store.updateGroup(w, g.name, fields);
      const row = (await store.byName(w.tx, g.name))!;
      if (cover.url !== undefined) await w.fire('action:group.cover', { gid: row.gid, url: row.cover_url });
      return row;
    });
  }

  // ---- helpers ----

  private async managed(viewer: Viewer, slug: string): Promise<GroupRow> {
    if (viewer.uid <= 0) throw notAuthorised();
    const g = await this.visible(viewer, slug);
    if (!(await this.standing(viewer, g)).canManage) throw forbidden();
    return g;
  }

  private async addTo(g: GroupRow, uid: number): Promise<void> {
    await this.actions.run('group.join', async (w) => {
      await store.removeWaiting(w, 'group_pending', g.name, uid);
      await store.removeWaiting(w, 'group_invites', g.name, uid);
      await store.addMember(w, g.name, uid);
      await this.badgeIfNone(w, uid, g.name);
    });
  }

  // NodeBB sets a member's group title on their first joined group; system groups are left out
  // so every admin does not carry an "administrators" label unasked.
  private async badgeIfNone(w: Writer, uid: number, name: string): Promise<void> {
    const g = await store.byName(w.tx, name);
    if (!g || g.system || !g.user_title_enabled) return;
    if (await store.showsBadge(w.tx, uid)) return;
    await store.setBadges(w, uid, [name]);
  }

  // A write in the caller's action when given its writer, else in one of its own.
  private writing<R>(name: string, w: Writer | undefined, write: (w: Writer) => Promise<R>): Promise<R> {
    return w ? write(w) : this.actions.run(name, write);
  }

  // The description is stored as written and as HTML from the post pipeline (sanitised), rendered once at write time.
  private async parseDescription(fields: Partial<GroupRow>, uid: number): Promise<void> {
    if (fields.description === undefined) return;
    fields.description_parsed = fields.description ? (await this.deps.hooks.runFilter('filter:parse.post', { content: fields.description, html: '', kind: 'raw', uid })).html : '';
  }

  private checkName(raw: string): string {
    const name = raw.trim();
    if (!name || name.length > MAX_NAME || name.includes('/') || !slugify(name) || slugify(name) === 'untitled') throw badRequest('error:invalid-group-name');
    return name;
  }

  private checkChanges(input: GroupChanges): Partial<GroupRow> {
    const out: Partial<GroupRow> = {};
    if (input.description !== undefined) out.description = input.description.slice(0, 10_000);
    if (input.icon !== undefined) {
      if (!ICON.test(input.icon)) throw badRequest('error:invalid-data');
      out.icon = input.icon;
    }
    for (const [key, col] of [['labelColor', 'label_color'], ['textColor', 'text_color']] as const) {
      const v = input[key];
      if (v === undefined) continue;
      if (!COLOUR.test(v)) throw badRequest('error:invalid-data');
      out[col] = v;
    }
    if (input.userTitle !== undefined) out.user_title = input.userTitle.trim().slice(0, 40);
    const flags = { user_title_enabled: input.userTitleEnabled, private: input.private, hidden: input.hidden, disable_join_requests: input.disableJoinRequests, disable_leave: input.disableLeave };
    for (const [col, v] of Object.entries(flags) as [keyof typeof flags, number | boolean | undefined][]) {
      const f = flag(v);
      if (f !== undefined) out[col] = f;
    }
    return out;
  }
}
