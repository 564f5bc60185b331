import { Readable } from 'node:stream';
import { ADMIN_USER_FILTERS, ADMIN_USER_SEARCH_BY, ADMIN_USER_SORTS, type AdminUserRow, type CustomUserField } from '../../../shared/schemas/admin-people.js';
import { memberTag } from '../../core/tags.js';
import { csvRow, type CsvValue } from '../../http/csv.js';
import { badRequest, forbidden, notAuthorised, notFound } from '../../http/errors.js';
import { assertAdmin, type Viewer } from '../privileges/service.js';
import type { UsersDeps } from './service.js';
import { presentUser } from './presenter.js';
import { customFieldDefs } from './profile.js';
import * as store from './store.js';
import type { UserRow } from './store.js';


/** An administrator or a global moderator (what admin/manage/users shows them). */
export function assertStaff(viewer: Viewer): void {
  if (viewer.uid <= 0 && !viewer.isAdmin) throw notAuthorised();
  if (!viewer.isAdmin && !viewer.isGlobalMod) throw forbidden();
}

/** The admins' list query read from the page's query string; anything unknown falls back to NodeBB's defaults. */
export function readAdminUserQuery(q: Record<string, string>): store.AdminUserQuery {
  const pick = <T extends string>(list: readonly T[], v: string | undefined, d: T): T => ((list as readonly string[]).includes(v ?? '') ? (v as T) : d);
  const filters = (q.filters ?? '').split(',').map((f) => f.trim()).filter((f) => (ADMIN_USER_FILTERS as readonly string[]).includes(f));
  return {
    query: (q.query ?? '').slice(0, 200),
    searchBy: pick(ADMIN_USER_SEARCH_BY, q.searchBy, 'username'),
    sortBy: pick(ADMIN_USER_SORTS, q.sortBy, 'joindate'),
    reverse: q.reverse === 'true' || q.reverse === '1',
    filters: [...new Set(filters)],
  };
}

/** One row of the admins' table. */
export function presentAdminUser(row: UserRow, admins: Set<number>): AdminUserRow {
  return {
    ...presentUser(row),
    email: row.email ?? '',
    'email:confirmed': row.email_confirmed === 1,
    joindate: row.joindate,
    joindateISO: new Date(row.joindate).toISOString(),
    lastonline: row.lastonline,
    lastonlineISO: new Date(row.lastonline || row.joindate).toISOString(),
    banned_until: row.banned_until,
    banReason: row.ban_reason,
    isAdmin: admins.has(row.uid),
  };
}

/** A page of members for admin/manage/users (admins and global moderators). */
export async function adminUserList(ctx: UsersDeps, viewer: Viewer, q: store.AdminUserQuery, page: number, perPage: number) {
  assertStaff(viewer);
  // By address: the members the moderation domain saw there (logins and posts).
  if (q.searchBy === 'ip' && q.query.trim()) q = { ...q, uids: await ctx.moderation.uidsAt(q.query.trim()) };
  const { rows, count } = await store.adminUsers(ctx.db, q, (page - 1) * perPage, perPage);
  const admins = new Set(await ctx.groups.members('administrators'));
  return { users: rows.map((r) => presentAdminUser(r, admins)), count };
}

/** Marks a member's current address confirmed (an admin's "validate email"). */
export async function adminConfirmEmail(ctx: UsersDeps, viewer: Viewer, uid: number, email?: string): Promise<void> {
  assertAdmin(viewer);
  const user = await ctx.users.get(uid);
  if (!user) throw notFound('error:no-user');
  if (!user.email) throw badRequest('error:no-email-to-confirm');
  if (email !== undefined && email.toLowerCase() !== user.email.toLowerCase()) throw badRequest('error:invalid-email');
  await ctx.actions.run('user.confirm-email', async (w) => {
    await store.updateUser(w.tx, uid, { email_confirmed: 1 });
    w.changed(memberTag(uid));
    await ctx.events.log('email-confirmed-by-admin', viewer.uid, { targetUid: uid, email: user.email }, '', w);
    await w.fire('action:user.update', { user: { ...user, email_confirmed: 1 }, fields: ['email:confirmed'] });
  });
}

/**
 * An admin's "force password reset": every session and token of the member ends at once, and
 * the reset link goes by mail (the mail domain hears `action:user.resetRequested`).
 */
export async function adminForcePasswordReset(ctx: UsersDeps, viewer: Viewer, uid: number, ip: string): Promise<void> {
  assertAdmin(viewer);
  const user = await ctx.users.get(uid);
  if (!user || user.deleted) throw notFound('error:no-user');
  if (!user.email) throw badRequest('error:no-email-to-confirm');
  await ctx.actions.run('user.force-password-reset', async (w) => {
    await ctx.auth.destroySessionsOf(uid, undefined, w.tx);
    await ctx.auth.revokeTokensOf(uid, w.tx);
    await ctx.events.log('password-reset-forced', viewer.uid, { targetUid: uid }, ip, w);
    await w.fire('action:user.resetRequested', { user, ip });
  });
}

const CSV_FIELDS = ['uid', 'username', 'userslug', 'email', 'email:confirmed', 'joindate', 'lastonline', 'postcount', 'reputation', 'banned'] as const;

/** Every member as CSV (NodeBB's /api/admin/users/csv), streamed 500 rows at a time, with a header line. */
export function usersCsv(ctx: UsersDeps, viewer: Viewer): Readable {
  assertAdmin(viewer);
  async function* lines() {
    yield csvRow(CSV_FIELDS);
    let after = 0;
    for (;;) {
      const rows = await store.usersAfter(ctx.db, after, 500);
      if (!rows.length) return;
      after = rows[rows.length - 1]!.uid;
      yield rows
        .map((r) => {
          const banned = r.banned === 1 && (r.banned_until === 0 || r.banned_until > Date.now());
          const v: Record<(typeof CSV_FIELDS)[number], CsvValue> = {
            uid: r.uid, username: r.username, userslug: r.userslug, email: r.email ?? '', 'email:confirmed': r.email_confirmed,
            joindate: new Date(r.joindate).toISOString(), lastonline: r.lastonline ? new Date(r.lastonline).toISOString() : '',
            postcount: r.postcount, reputation: r.reputation, banned: banned ? 1 : 0,
          };
          return csvRow(CSV_FIELDS.map((f) => v[f]));
        })
        .join('');
    }
  }
  return Readable.from(lines());
}

/** The admin-defined profile fields as the editor shows them. */
export function customFieldsOf(raw: string): CustomUserField[] {
  return customFieldDefs(raw).map((d) => ({ key: d.key, name: d.name, type: d.type, options: d.options, visibility: d.visibility }));
}

/**
 * Saves the whole list of admin-defined profile fields (the editor's add, edit, reorder and
 * delete): each key well formed and unique, a select with options; the audit log records it.
 */
export async function saveCustomFields(ctx: UsersDeps, viewer: Viewer, fields: CustomUserField[], ip: string): Promise<CustomUserField[]> {
  assertAdmin(viewer);
  const seen = new Set<string>();
  const clean: CustomUserField[] = fields.map((f, i) => {
    const key = f.key.trim();
    if (!/^[a-z0-9_-]{1,50}$/i.test(key)) throw badRequest('error:custom-field-invalid-key', i + 1);
    if (seen.has(key.toLowerCase())) throw badRequest('error:custom-field-duplicate-key', key);
    seen.add(key.toLowerCase());
    const name = f.name.trim();
    if (!name) throw badRequest('error:custom-field-name-required', key);
    const options = f.type === 'select' ? f.options.map((o) => o.trim()).filter(Boolean) : [];
    if (f.type === 'select' && !options.length) throw badRequest('error:custom-field-options-required', key);
    return { key, name, type: f.type, options, visibility: f.visibility };
  });
  const json = JSON.stringify(clean);
  if (json.length > 20_000) throw badRequest('error:custom-fields-too-long');
  const before = (await ctx.settings.get()).customUserFields;
  await ctx.settings.set({ customUserFields: json });
  await ctx.events.log('config-change', viewer.uid, { key: 'customUserFields', from: before, to: json }, ip);
  return clean;
}
