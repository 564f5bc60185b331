import { hash, verify } from '@node-rs/argon2';
import { checkPassword, isLegacyHash } from './legacy-password.js';
import { slugify } from '../../../shared/slug.js';
import type { UserSettings } from '../../../shared/types.js';
import { emailError, passwordError, usernameError } from '../../../shared/validation.js';
import type { AppContext } from '../../context.js';
import type { Writer } from '../../core/action.js';
import type { Queryable } from '../../db/index.js';
import { AppError, badRequest, forbidden, notFound, tooMany } from '../../http/errors.js';
import { enforce } from '../../http/ratelimit.js';
import { ADMINISTRATORS, REGISTERED } from '../groups/service.js';
import type { Viewer } from '../privileges/service.js';
import * as blocks from './blocks.js';
import type { Cache } from '../../core/cache.js';
import { tagTableWrites } from '../../core/changes.js';
import { ANY_MEMBER_ROW, BLOCKS, MEMBER_ROWS, memberRowTag } from '../../core/tags.js';
import { MemberParts } from './member-parts.js';
import { DEFAULT_USER_SETTINGS, userSettings } from './presenter.js';
import { notifySettingsFrom } from '../notifications/schemas.js';
import { ABOUT_MAX, coerceSettings, FULLNAME_MAX } from './rules.js';
import { setUserFollow } from './follow.js';
import { fieldValues, setFieldValues, topicList } from './lists.js';
import { checkCoverPosition, checkCustomFields, checkProfileFields, customFieldDefs, type ProfileFieldsInput } from './profile.js';
import * as store from './store.js';
import type { UserBrief, UserRow } from './store.js';
import type { TopicRow } from '../topics/store.js';
import * as credentials from './credentials.js';
import { ONLINE_WINDOW_MS } from './activity.js';
import { installedLanguages, isTimeZone } from '../../i18n.js';

export { ONLINE_WINDOW_MS };

/** What the users service uses of the application: its explicit dependencies. */
export type UsersDeps = Pick<AppContext, 'actions' | 'auth' | 'cacheRegistry' | 'changes' | 'config' | 'db' | 'events' | 'groups' | 'hooks' | 'limiter' | 'mail' | 'moderation' | 'privileges' | 'settings' | 'users' | 'writes'>;

// algorithm 2 is Argon2id (the package's const enum cannot be imported under isolatedModules).
const ARGON_OPTIONS = { algorithm: 2 as const, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export interface NewUser {
  username: string;
  email?: string | null;
  password: string;
}

/** Profile fields; the address is not one of them: it changes through credentials.ts (password, confirmation). */
export interface UserUpdate extends ProfileFieldsInput {
  username?: string;
  fullname?: string;
  about?: string;
  picture?: string;
  /** Values of the admin-defined profile fields, by field key. */
  custom?: Record<string, unknown>;
}

/** The statuses a member may choose, as NodeBB names them. */
export const USER_STATUSES = ['online', 'away', 'dnd', 'offline'] as const;

/** Members: registration, login checks, profile changes, settings, bans. */
export class UsersService {
  /**
   * The members who have blocked anyone. A topic page asks which of its authors the reader
   * blocked; for a reader who blocked no one (nearly all) this answers without a statement.
   * Dropped in every process by any committed write of blocks (BLOCKS); a 5 s TTL as the safety net.
   */
  private readonly blockers: Cache<'all', ReadonlySet<number>>;

  /** The shared parts of profiles and of the members list (member-parts.ts). */
  readonly parts: MemberParts;

  constructor(private readonly ctx: UsersDeps) {
    // The member tables' writes become change tags, whichever code path makes them: a cache of
    // a member's row (a session, a profile) hears `member-row:<uid>`, one of blocks BLOCKS.
    const rows = { one: memberRowTag, all: MEMBER_ROWS, every: ANY_MEMBER_ROW };
    tagTableWrites(ctx.writes, ctx.changes, 'users', 'uid', rows);
    tagTableWrites(ctx.writes, ctx.changes, 'user_fields', 'uid', rows);
    tagTableWrites(ctx.writes, ctx.changes, 'user_blocks', 'uid', { one: () => BLOCKS, all: BLOCKS });
    this.blockers = ctx.cacheRegistry.create({
      name: 'blockers',
      keeps: 'the members who have blocked anyone (one entry)',
      droppedBy: 'any write of blocks',
      ttlMs: 5000,
      max: 1,
      tags: () => [BLOCKS],
    });
    this.parts = new MemberParts(ctx.cacheRegistry);
  }

  /** A member by slug as every reader is shown them (frozen, shared for a few seconds; see MemberParts), or null. */
  async shownBySlug(slug: string): Promise<Readonly<UserRow> | null> {
    const lower = slug.toLowerCase();
    return this.parts.rows.get(lower, async () => {
      const row = await store.bySlug(this.ctx.db, lower);
      return row ? Object.freeze(row) : null;
    });
  }

  /** One member row, or null. */
  async get(uid: number): Promise<UserRow | null> {
    // Beyond int4 no member exists (and PostgreSQL would refuse the query).
    if (!Number.isInteger(uid) || uid <= 0 || uid > 2147483647) return null;
    return (await store.byUid(this.ctx.db, uid)) ?? null;
  }

  /** The viewer's own row: the one loaded at authentication when there is one. */
  async ofViewer(viewer: Viewer): Promise<UserRow | null> {
    if (viewer.uid <= 0) return null;
    return viewer.row ?? this.get(viewer.uid);
  }

  /** Several member rows keyed by uid. */
  async getMany(uids: number[]): Promise<Map<number, UserRow>> {
    const rows = await store.byUids(
      this.ctx.db,
      uids.filter((u) => u > 0),
    );
    return new Map(rows.map((r) => [r.uid, r]));
  }

  /** Several members' brief (what lists show of an author) keyed by uid. */
  async briefs(uids: number[]): Promise<Map<number, UserBrief>> {
    const rows = await store.briefsByUids(
      this.ctx.db,
      uids.filter((u) => u > 0),
    );
    return new Map(rows.map((r) => [r.uid, r]));
  }

  /** True when a member has this name or its slug (as registration would refuse it: error:username-taken). */
  async nameTaken(name: string): Promise<boolean> {
    const slug = slugify(name);
    const [byName, bySlug] = await Promise.all([store.byUsername(this.ctx.db, name), slug ? store.bySlug(this.ctx.db, slug) : undefined]);
    return !!(byName ?? bySlug);
  }

  /** A member by slug, or null. */
  async bySlug(slug: string): Promise<UserRow | null> {
    return (await store.bySlug(this.ctx.db, slug.toLowerCase())) ?? null;
  }

  /** A member by username (case-insensitive), or null. */
  async byUsername(username: string): Promise<UserRow | null> {
    return (await store.byUsername(this.ctx.db, username)) ?? null;
  }

  /** Checks a new password against the forum's rules; throws the spec's error key. */
  async assertPassword(password: unknown, userInputs: string[] = []): Promise<void> {
    const s = await this.ctx.settings.get();
    // zxcvbn's dictionaries are megabytes: load them on the first password check, not at start.
    const { passwordStrength } = await import('../../../shared/password-strength.js');
    const key = passwordError(password, s, () => passwordStrength(password as string, userInputs));
    if (key) throw badRequest(key);
  }

  private async assertUsername(username: unknown, db: Queryable, exceptUid = 0): Promise<string> {
    const s = await this.ctx.settings.get();
    const key = usernameError(username, s);
    if (key) throw badRequest(key);
    const name = (username as string).trim();
    const slug = slugify(name);
    const byName = await store.byUsername(db, name);
    const bySlug = await store.bySlug(db, slug);
    if ((byName && byName.uid !== exceptUid) || (bySlug && bySlug.uid !== exceptUid)) throw badRequest('error:username-taken');
    return name;
  }

  private async assertEmail(email: unknown, db: Queryable, exceptUid = 0): Promise<string> {
    const key = emailError(email);
    if (key) throw badRequest(key);
    const lower = (email as string).trim().toLowerCase();
    const existing = await store.byEmail(db, lower);
    if (existing && existing.uid !== exceptUid) throw badRequest('error:email-taken');
    return lower;
  }

  /** Creates a member after every check; `admin` adds them to administrators. */
  async create(data: NewUser, opts: { admin?: boolean; ip?: string; passwordHash?: string; settings?: { userLang?: string }; inTx?: (w: Writer, row: UserRow) => Promise<void> } = {}): Promise<UserRow> {
    const filtered = await this.ctx.hooks.runFilter('filter:user.create', { username: data.username, email: data.email ?? null });
    // A registration approved from the queue brings the hash made (and checked) when it was sent.
    const passwordHash = opts.passwordHash ?? (await this.hashNewPassword(data.password, [filtered.username, filtered.email ?? '']));
    // Two registrations racing past the checks: the database's unique index decides, and the
    // runner answers its "taken" error (core/unique.ts).
    return this.ctx.actions.run('user.create', async (w) => {
      const username = await this.assertUsername(filtered.username, w.tx);
      const email = filtered.email !== null && filtered.email !== '' ? await this.assertEmail(filtered.email, w.tx) : null;
      const row = await store.writeNewUser(w, {
        username,
        userslug: slugify(username),
        email,
        password_hash: passwordHash,
        joindate: Date.now(),
        lastonline: Date.now(),
        // A registration keeps the language the newcomer read the forum in (when not the forum's).
        settings: JSON.stringify(opts.settings ?? {}),
      });
      await this.ctx.groups.join(REGISTERED, row.uid, w);
      if (opts.admin) await this.ctx.groups.join(ADMINISTRATORS, row.uid, w);
      await this.ctx.events.log('user-register', row.uid, { username }, opts.ip ?? '', w);
      // The registration domain's writes (consent, invitation, address) commit with the account or not at all.
      if (opts.inTx) await opts.inTx(w, row);
      await w.fire('action:user.create', { user: row });
      return row;
    });
  }

  /** Checks a new password by the forum's rules and hashes it (the registration queue keeps only the hash). */
  async hashNewPassword(password: string, userInputs: string[]): Promise<string> {
    await this.assertPassword(password, userInputs);
    return hash(password, ARGON_OPTIONS);
  }

  /** The member with this address (case-insensitive), or null. */
  async byEmailAddress(email: string): Promise<UserRow | null> {
    return (await store.byEmail(this.ctx.db, email.trim().toLowerCase())) ?? null;
  }

  /** Checks that a username and an address are valid and not taken; returns them as they would be stored. */
  async assertAvailable(username: unknown, email: unknown): Promise<{ username: string; email: string }> {
    return { username: await this.assertUsername(username, this.ctx.db), email: await this.assertEmail(email, this.ctx.db) };
  }

  /** Self-registration: checks the setting and the confirmation, then creates. */
  async register(body: { username?: unknown; email?: unknown; password?: unknown; 'password-confirm'?: unknown }, ip: string): Promise<UserRow> {
    await enforce(this.ctx.limiter, `register:ip:${ip}`, this.ctx.config.rateLimits.register, 3600);
    const s = await this.ctx.settings.get();
    if (!s.allowRegistration) throw forbidden('error:registration-disabled');
    if (typeof body.username !== 'string') throw badRequest('error:invalid-username');
    if (typeof body.email !== 'string') throw badRequest('error:invalid-email');
    if (typeof body.password !== 'string') throw badRequest('user:change-password-error');
    if (body['password-confirm'] !== undefined && body['password-confirm'] !== body.password) {
      throw badRequest('error:passwords-do-not-match');
    }
    return this.create({ username: body.username, email: body.email, password: body.password }, { ip });
  }

  /** Creates a member on an admin's request (POST /api/v3/users). */
  async createByAdmin(actor: Viewer, data: NewUser, ip: string): Promise<UserRow> {
    if (!actor.isAdmin) throw forbidden();
    return this.create(data, { ip });
  }

  /**
   * A login attempt, limited per address, and per account at that address: a stranger's tries
   * from one address never lock the member out at another. The account's tries from every
   * address are counted too, and beyond the limit the login asks for the captcha (`captcha`,
   * plugins/captcha) instead of refusing: spread over many addresses, guessing costs work, and
   * the member still gets in. The typed name (username or email) counts as the member it
   * resolves to, so both share one budget; an unknown name counts as the name typed.
   * Returns the member; the caller starts the session.
   */
  async login(username: string, password: string, ip: string, captcha: () => Promise<void> = () => Promise.reject(tooMany('error:too-many-login-attempts'))): Promise<UserRow> {
    const limit = this.ctx.config.rateLimits.login;
    const name = username.trim();
    await enforce(this.ctx.limiter, `login:ip:${ip}`, limit, 60, 'error:too-many-login-attempts');
    const known = name ? await this.findLogin(name) : undefined;
    const account = known ? `uid:${known.uid}` : `name:${name.toLowerCase()}`;
    await enforce(this.ctx.limiter, `login:pair:${account}:${ip}`, limit, 60, 'error:too-many-login-attempts');
    if ((await this.ctx.limiter.hit(`login:user:${account}`, limit, 60)) > 0) await captcha();
    const user = await this.verifyLogin(name, password, known ?? null);
    await this.ctx.events.log('user-login', user.uid, {}, ip);
    return user;
  }

  private async findLogin(name: string): Promise<UserRow | undefined> {
    const db = this.ctx.db;
    return name.includes('@') ? ((await store.byEmail(db, name)) ?? (await store.byUsername(db, name))) : store.byUsername(db, name);
  }

  /** Asks for a password reset (limited per address); says nothing about whether the address is known. */
  async resetRequest(email: string, ip: string): Promise<void> {
    await enforce(this.ctx.limiter, `reset:ip:${ip}`, this.ctx.config.rateLimits.register, 3600);
    await this.requestPasswordReset(email, ip);
  }

  /** Whether a password is the member's (false for a member without one). */
  async passwordMatches(user: Pick<UserRow, 'password_hash'>, password: string): Promise<boolean> {
    return !!user.password_hash && !!password && checkPassword(user.password_hash, password);
  }

  /**
   * Checks login credentials (username or email); returns the member or throws
   * error:invalid-login-credentials, or the ban error with its reason and end.
   */
  async verifyLogin(username: string, password: string, found?: UserRow | null): Promise<UserRow> {
    if (!username || !password) throw badRequest('error:invalid-username-or-password');
    const db = this.ctx.db;
    const user = found === undefined ? await this.findLogin(username) : (found ?? undefined);
    // Verify against a dummy hash too, so timing does not reveal which usernames exist.
    const ok = user?.password_hash ? await checkPassword(user.password_hash, password) : await verify(DUMMY_HASH, password).catch(() => false);
    // A deleted account answers like an unknown one.
    if (!user || !ok || user.deleted === 1) throw new AppError('error:invalid-login-credentials', 403);
    await this.assertNotBanned(user);
    if (!(await this.ctx.privileges.can(await this.ctx.privileges.viewer(user.uid), 'local:login'))) throw forbidden('error:no-privileges');
    // A hash from an imported forum (bcrypt) is replaced by argon2 now that the password is known.
    const rehash = user.password_hash && isLegacyHash(user.password_hash) ? { password_hash: await hash(password, ARGON_OPTIONS) } : {};
    await store.updateUser(db, user.uid, { lastonline: Date.now(), ...rehash });
    return user;
  }

  /** Throws the spec's ban error while a ban lasts; lifts an expired one. */
  async assertNotBanned(user: UserRow): Promise<void> {
    if (user.banned !== 1) return;
    if (user.banned_until > 0 && user.banned_until <= Date.now()) {
      await store.updateUser(this.ctx.db, user.uid, { banned: 0, banned_until: 0, ban_reason: '' });
      return;
    }
    if (user.banned_until > 0) {
      // The end as a time: each reader sees it as a date in their own language (AppError's dates).
      throw new AppError('error:user-banned-reason-until', 403, [user.banned_until, user.ban_reason || '-'], [0]);
    }
    throw user.ban_reason ? forbidden('error:user-banned-reason', user.ban_reason) : forbidden('error:user-banned');
  }

  private async assertSelfOrAdmin(actor: Viewer, uid: number): Promise<UserRow> {
    const user = await this.get(uid);
    if (!user) throw notFound('error:no-user');
    if (actor.uid !== uid && !actor.isAdmin) throw forbidden();
    return user;
  }

  /** Changes profile fields (the member themself or an admin). */
  async update(actor: Viewer, uid: number, data: UserUpdate): Promise<UserRow> {
    await this.assertSelfOrAdmin(actor, uid);
    const s = await this.ctx.settings.get();
    // Over the limit is refused, never cut: the member would lose text without knowing.
    if (data.fullname !== undefined && [...data.fullname.trim()].length > FULLNAME_MAX) throw badRequest('error:fullname-too-long', FULLNAME_MAX);
    const aboutMax = s.maximumAboutMeLength ?? ABOUT_MAX;
    if (data.about !== undefined && [...data.about].length > aboutMax) throw badRequest('error:about-me-too-long', aboutMax);
    const profile = checkProfileFields(data, s);
    const custom = data.custom ? checkCustomFields(data.custom, customFieldDefs(s.customUserFields)) : [];
    // Rendered before the transaction: the markdown pipeline is not a write.
    if (profile.signature !== undefined) profile.signature_html = await this.renderAbout(profile.signature, uid);
    const fields: Record<string, string | null> = {};
    if (data.fullname !== undefined) fields.fullname = data.fullname.trim();
    if (data.about !== undefined) {
      fields.about = data.about;
      fields.about_html = await this.renderAbout(data.about, uid);
    }
    if (data.picture !== undefined) fields.picture = safePicture(data.picture);
    Object.assign(fields, profile);
    return this.ctx.actions.run('user.update', async (w) => {
      // A rename racing another to the same name: the unique index decides and the runner answers error:username-taken.
      if (data.username !== undefined) {
        fields.username = await this.assertUsername(data.username, w.tx, uid);
        fields.userslug = slugify(fields.username);
      }
      if (Object.keys(fields).length) await store.writeUser(w, uid, fields);
      if (custom.length) await setFieldValues(w.tx, uid, custom);
      const updated = (await store.byUid(w.tx, uid))!;
      await w.fire('action:user.update', { user: updated, fields: Object.keys(data) });
      return updated;
    });
  }

  /**
   * Sets (url) or removes ('') a member's cover photo, or only moves it (position); the member
   * themself or an admin. `action:user.update` names `cover:url` so the uploads domain keeps
   * the file's reference.
   */
  async setCover(actor: Viewer, uid: number, cover: { url?: string; position?: string }): Promise<UserRow> {
    await this.assertSelfOrAdmin(actor, uid);
    const fields: Record<string, string> = {};
    if (cover.url !== undefined) fields.cover_url = safePicture(cover.url);
    if (cover.position !== undefined) fields.cover_position = checkCoverPosition(cover.position);
    if (cover.url === '') fields.cover_position = '50% 50%';
    return this.ctx.actions.run('user.setCover', async (w) => {
      await store.writeUser(w, uid, fields);
      const user = (await store.byUid(w.tx, uid))!;
      await w.fire('action:user.update', { user, fields: cover.url !== undefined ? ['cover:url', 'cover:position'] : ['cover:position'] });
      return user;
    });
  }

  /**
   * NodeBB's picture choice: `default` goes back to the letter avatar, `external` takes a
   * picture by URL (http or https), `uploaded` keeps the picture only if it is an upload of
   * this forum (Palaver keeps no second "uploaded picture" beside the current one).
   */
  async choosePicture(actor: Viewer, uid: number, type: 'default' | 'uploaded' | 'external', url: string): Promise<UserRow> {
    const user = await this.assertSelfOrAdmin(actor, uid);
    if (type === 'default') return this.update(actor, uid, { picture: '' });
    if (type === 'external') {
      if (!/^https?:\/\//i.test(url.trim())) throw badRequest('error:invalid-data');
      return this.update(actor, uid, { picture: url });
    }
    if (!user.picture.startsWith('/')) throw badRequest('error:no-upload');
    return user;
  }

  /** A member's values of the admin-defined profile fields, by key. */
  async customValues(uid: number): Promise<Map<string, string>> {
    return fieldValues(this.ctx.db, uid);
  }

  /** The signature as HTML (stored when written), '' when signatures are turned off. */
  signatureHtml(row: UserRow, s: { disableSignatures: boolean }): string {
    return s.disableSignatures ? '' : row.signature_html;
  }

  /** The about-me as HTML: stored at write time; rows from before that are rendered once and stored. */
  async aboutHtml(row: UserRow): Promise<string> {
    if (row.about_html || !row.about) return row.about_html;
    const html = await this.renderAbout(row.about, row.uid);
    await store.updateUser(this.ctx.db, row.uid, { about_html: html });
    return html;
  }

  private async renderAbout(about: string, uid: number): Promise<string> {
    if (!about) return '';
    return (await this.ctx.hooks.runFilter('filter:parse.post', { content: about, html: '', kind: 'raw', uid })).html;
  }

  /** Changes a password; members must give the current one, admins changing others need not. */
  async changePassword(actor: Viewer, uid: number, currentPassword: string | undefined, newPassword: string, keepSession?: string): Promise<void> {
    const user = await this.assertSelfOrAdmin(actor, uid);
    if (actor.uid === uid) {
      const ok = user.password_hash && currentPassword ? await verify(user.password_hash, currentPassword).catch(() => false) : false;
      if (!ok) throw badRequest('user:change-password-error-wrong-current');
    }
    await this.assertPassword(newPassword, [user.username, user.email ?? '']);
    const passwordHash = await hash(newPassword, ARGON_OPTIONS);
    await this.ctx.actions.run('user.changePassword', async (w) => {
      await store.writeMember(w, uid, { password_hash: passwordHash });
      // Whoever knew the old password may hold another session or a token: both end, as after a reset.
      await this.ctx.auth.destroySessionsOf(uid, keepSession, w.tx);
      await this.ctx.auth.revokeTokensOf(uid, w.tx);
      await this.ctx.events.log('password-change', actor.uid, { targetUid: uid }, '', w);
    });
  }

  /** Saves per-member settings, merged over the current ones. */
  async saveSettings(actor: Viewer, uid: number, input: Partial<UserSettings> | Record<string, unknown>): Promise<UserSettings> {
    const user = await this.assertSelfOrAdmin(actor, uid);
    const settings = coerceSettings(input);
    // Notification preferences, digest frequency and default watch state: the notifications domain's rules.
    const notify = notifySettingsFrom(input);
    const next = { ...userSettings(user) };
    for (const [key, value] of Object.entries(settings)) {
      const def = (DEFAULT_USER_SETTINGS as unknown as Record<string, unknown>)[key];
      if (def === undefined) continue;
      if (typeof def !== typeof value) throw badRequest('error:invalid-data');
      (next as unknown as Record<string, unknown>)[key] = value;
    }
    if (next.openSidebars !== 'on' && next.openSidebars !== 'off') throw badRequest('error:invalid-data');
    if (!/^[a-z]{0,20}$/.test(next.bootswatchSkin)) throw badRequest('error:invalid-data');
    if (!['oldest_to_newest', 'newest_to_oldest', 'most_votes'].includes(next.topicPostSort)) throw badRequest('error:invalid-data');
    // A language the forum has ('' for the forum's own), and a time zone the runtime knows ('' for the browser's own).
    if (next.userLang !== '' && !installedLanguages().includes(next.userLang)) throw badRequest('error:invalid-language');
    if (next.timezone !== '' && !isTimeZone(next.timezone)) throw badRequest('error:invalid-timezone');
    next.topicsPerPage = Math.min(Math.max(1, Math.floor(next.topicsPerPage)), 100);
    next.postsPerPage = Math.min(Math.max(1, Math.floor(next.postsPerPage)), 100);
    // Store only what the member chose, so unchosen sizes keep following the forum's settings.
    let chosen: Record<string, unknown> = {};
    try {
      chosen = { ...(JSON.parse(user.settings || '{}') as Record<string, unknown>) };
    } catch {
      // A row that is not JSON: start from no choices.
    }
    for (const key of Object.keys(settings)) if (key in next) chosen[key] = (next as unknown as Record<string, unknown>)[key];
    Object.assign(chosen, notify);
    Object.assign(next, notify);
    await this.ctx.actions.run('user.saveSettings', async (w) => {
      await store.writeMember(w, uid, { settings: JSON.stringify(chosen) });
      // Deliveries hear which notification settings were saved (mail takes back an unsubscribe the member reverses).
      await w.fire('action:user.update', { user: { ...user, settings: JSON.stringify(chosen) }, fields: ['settings', ...Object.keys(notify)] });
    });
    return next;
  }

  /** Saves the status a member chose (the member themself or an admin); live presence announces it. */
  async setStatus(actor: Viewer, uid: number, status: string): Promise<UserRow> {
    await this.assertSelfOrAdmin(actor, uid);
    if (!(USER_STATUSES as readonly string[]).includes(status)) throw badRequest('error:invalid-user-status');
    return this.ctx.actions.run('user.setStatus', async (w) => {
      await store.writeUser(w, uid, { status, ...(status === 'offline' ? {} : { lastonline: Date.now() }) });
      const user = (await store.byUid(w.tx, uid))!;
      await w.fire('action:user.update', { user, fields: ['status'] });
      return user;
    });
  }

  /** Deletes an account (self or admin); posts stay, shown as a former member's. */
  async delete(actor: Viewer, uid: number): Promise<void> {
    await this.assertSelfOrAdmin(actor, uid);
    if (await this.ctx.groups.isAdmin(uid)) {
      const admins = await this.ctx.groups.members(ADMINISTRATORS);
      if (admins.length <= 1 || actor.uid !== uid) throw forbidden('error:cant-delete-admin');
    }
    await this.ctx.actions.run('user.delete', async (w) => {
      // Tokens and sessions also go by the foreign keys' cascade; said here so it does not rest on that alone.
      await this.ctx.auth.revokeTokensOf(uid, w.tx);
      await this.ctx.auth.destroySessionsOf(uid, undefined, w.tx);
      await store.dropFollowsOf(w.tx, uid);
      await store.writeDeleteUser(w, uid);
      await this.ctx.events.log('user-delete', actor.uid, { targetUid: uid }, '', w);
      await w.fire('action:user.delete', { uid, by: actor.uid });
    });
  }

  /**
   * Records a password-reset request for a known address; the mail domain hears of it after
   * the answer (action:user.resetRequested) and sends the link, so the request never waits
   * for, nor fails with, the mail.
   */
  async requestPasswordReset(email: string, ip: string): Promise<void> {
    if (emailError(email)) throw badRequest('error:invalid-email');
    const user = await store.byEmail(this.ctx.db, email.trim());
    if (!user) return;
    await this.ctx.events.log('password-reset-requested', user.uid, {}, ip);
    await this.ctx.hooks.fire('action:user.resetRequested', { user, ip });
  }

  /**
   * Sets a new password through a reset link: checks it by the password rules, then in one
   * transaction takes the code (`claim` throws when another request used it first), stores
   * the password and ends every session and token.
   */
  async resetPassword(uid: number, password: string, claim: (w: Writer) => Promise<void>): Promise<void> {
    const user = await this.get(uid);
    if (!user) throw badRequest('error:reset-code-invalid');
    await this.assertPassword(password, [user.username, user.email ?? '']);
    const passwordHash = await hash(password, ARGON_OPTIONS);
    await this.ctx.actions.run('user.resetPassword', async (w) => {
      await claim(w);
      await store.writeMember(w, uid, { password_hash: passwordHash });
      await this.ctx.auth.destroySessionsOf(uid, undefined, w.tx);
      await this.ctx.auth.revokeTokensOf(uid, w.tx);
      await this.ctx.events.log('password-reset', uid, {}, '', w);
    });
  }

  /** Bans a member until a time (0 = for ever): the moderation domain's action (history, sessions, live). */
  async ban(actor: Viewer, uid: number, until: number, reason: string): Promise<void> {
    return this.ctx.moderation.ban(actor, uid, until, reason);
  }

  /** Lifts a ban (the moderation domain's action). */
  async unban(actor: Viewer, uid: number): Promise<void> {
    return this.ctx.moderation.unban(actor, uid);
  }

  /** Writes a member's ban state inside the moderation domain's transaction (the users table is this domain's). */
  async writeBan(db: Queryable, uid: number, ban: { banned: boolean; until?: number; reason?: string }): Promise<void> {
    await store.updateUser(db, uid, ban.banned ? { banned: 1, banned_until: Math.max(0, ban.until ?? 0), ban_reason: (ban.reason ?? '').slice(0, 500) } : { banned: 0, banned_until: 0, ban_reason: '' });
  }

  /** Creates an API token for a member (themself, or an admin for anyone); returns it once. */
  async createToken(actor: Viewer, uid: number, description: string): Promise<string> {
    if (actor.uid !== uid && !actor.isAdmin) throw forbidden();
    const user = await this.get(uid);
    if (!user || user.deleted === 1) throw notFound('error:no-user');
    return this.ctx.auth.createToken(uid, description);
  }

  /** A page of members (their brief and join date), for the users list. */
  async list(order: 'joindate' | 'postcount' | 'reputation' | 'lastonline', page: number, perPage: number) {
    const [rows, count] = await Promise.all([store.listUsers(this.ctx.db, order, (page - 1) * perPage, perPage), store.countUsers(this.ctx.db)]);
    return { rows, count };
  }

  /** The members active in the online window (ONLINE_WINDOW_MS), at most `limit` (the dashboard's count). */
  async onlineUids(limit = 10_000): Promise<number[]> {
    return store.activeSince(this.ctx.db, Date.now() - ONLINE_WINDOW_MS, limit);
  }

  /** A member's newest topics in the given categories (their topics feed). */
  async topicsOf(uid: number, cids: number[], limit: number): Promise<TopicRow[]> {
    return (await topicList(this.ctx.db, 'topics', uid, cids, 0, limit)).rows;
  }

  /** The names and addresses a member's account has had (the moderators' info page). */
  async identityHistory(user: UserRow): Promise<{ usernames: credentials.HistoryValue[]; emails: credentials.HistoryValue[] }> {
    return credentials.identityHistory(this.ctx.db, user);
  }

  /** A member's former usernames, newest first (the edit/username page). */
  async usernameHistory(uid: number): Promise<{ username: string; changed: number }[]> {
    return credentials.usernameHistory(this.ctx.db, uid);
  }

  /** Refuses (error:invalid-password) unless the password is the member's. */
  async assertCurrentPassword(user: UserRow, password: unknown): Promise<void> {
    return credentials.assertPassword(user, password);
  }

  /** Starts an email change: the new address gets a confirmation mail (NodeBB's POST /users/{uid}/emails). */
  async requestEmailChange(actor: Viewer, uid: number, body: Parameters<typeof credentials.requestEmailChange>[3]): Promise<{ pending: string | null; email: string | null }> {
    return credentials.requestEmailChange(this.ctx, actor, uid, body);
  }

  /** Confirms an address the member proved they read (the mail domain's confirmation link). */
  async confirmAddress(uid: number, email: string, claim: (w: Writer) => Promise<void>): Promise<'confirmed' | 'changed' | false> {
    return credentials.confirmAddress(this.ctx, uid, email, claim);
  }

  /** Members whose username contains the text, best matches first (search, user pickers). */
  async searchUids(text: string, limit: number): Promise<number[]> {
    return store.searchUids(this.ctx.db, text, limit);
  }

  /** Adds to a member's counters inside a content transaction. */
  async bump(db: Queryable, uid: number, field: 'postcount' | 'topiccount' | 'reputation', by: number): Promise<void> {
    await store.bumpUser(db, uid, field, by);
  }

  /** Counts a member's new post and records its time, inside the post's transaction. */
  async recordPost(w: Writer, uid: number, time: number): Promise<void> {
    await store.recordPost(w, uid, time);
  }

  /** The viewer follows (on) or unfollows a member. */
  async follow(viewer: Viewer, uid: number, on: boolean): Promise<void> {
    return setUserFollow(this.ctx, viewer, uid, on);
  }

  /** True when the viewer follows the member (false for guests). */
  async isFollowing(viewer: Viewer, uid: number): Promise<boolean> {
    return store.isFollowing(this.ctx.db, viewer.uid, uid);
  }

  /** The viewer blocks (on) or unblocks a member (blocks.ts). */
  async block(viewer: Viewer, uid: number, on: boolean): Promise<void> {
    return blocks.setBlock(this.ctx, viewer, uid, on);
  }

  /** Of `uids`, those who blocked `target`. */
  async blockersAmong(uids: number[], target: number): Promise<Set<number>> {
    return blocks.blockersAmong(this.ctx.db, uids, target);
  }

  /** The uids a member has blocked. */
  async blockedBy(uid: number): Promise<number[]> {
    return blocks.blockedBy(this.ctx.db, uid);
  }

  /** Of `uids`, those `uid` has blocked. */
  async blockedAmong(uid: number, uids: number[]): Promise<Set<number>> {
    if (!uids.length || !(await this.blockers.get('all', () => blocks.allBlockers(this.ctx.db))).has(uid)) return new Set();
    return blocks.blockedAmong(this.ctx.db, uid, uids);
  }

  /** Of `uids`, those who follow `target`. */
  async followersAmong(uids: number[], target: number): Promise<Set<number>> {
    return blocks.followersAmong(this.ctx.db, uids, target);
  }
}

// A valid argon2id hash of a random string, so unknown usernames cost the same as wrong passwords.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$8S0rX7FlyfHeJcq6uCxxOQ0uROdwY0vhE0mbsTsVrsE';

/** Only local uploads or http(s) pictures; anything else is dropped. */
function safePicture(url: string): string {
  const u = url.trim();
  if (u === '') return '';
  if (/^\/(?!\/)[\w\-./]+$/.test(u)) return u;
  try {
    const parsed = new URL(u);
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') return parsed.toString();
  } catch {
    // fall through
  }
  throw badRequest('error:invalid-data');
}
