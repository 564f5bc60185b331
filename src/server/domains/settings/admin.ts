import { SECRET_SETTINGS, type ForumSettings } from '../../../shared/constants.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import { assertAdmin, type Viewer } from '../privileges/service.js';
import { assertSettingKey, assertSettingValue, coerceSetting, fromNodebbSetting } from './schema.js';


/** What changing a setting uses of the application. */
export type SettingsAdminDeps = Pick<AppContext, 'settings' | 'events'>;

/**
 * Changes one setting from a raw value (text from the command line or NodeBB's string body,
 * or JSON): checks the key, reads the value into the setting's type, validates it by the
 * schema, saves it through the settings service (which clears every process's cache) and
 * records who changed what in the audit log. Returns the saved value.
 */
export async function changeSetting(ctx: SettingsAdminDeps, actor: Viewer, name: string, given: unknown, ip = ''): Promise<unknown> {
  assertAdmin(actor);
  // NodeBB's key for the setting is as good as ours (schema.ts NODEBB_SETTING_NAMES).
  const { key, value: raw } = fromNodebbSetting(name, given);
  assertSettingKey(key);
  const value = coerceSetting(key, raw);
  assertSettingValue(key, value);
  const before = (await ctx.settings.get())[key];
  // A secret (the SMTP password) is recorded as changed, never by value; the record commits with the change.
  const shown = (v: unknown) => (SECRET_SETTINGS.includes(key) ? (v ? '********' : '') : v);
  const saved = (await ctx.settings.set({ [key]: value } as Partial<ForumSettings>, (w) => ctx.events.log('config-change', actor.uid, { key, from: shown(before), to: shown(value) }, ip, w)))[key];
  return saved;
}

/**
 * Changes several settings at once (one admin settings page's save): every key and value is
 * checked first (types, ranges, a minimum against its maximum) and nothing is saved when one
 * is refused; the 400 names the first refused key. Saved in one transaction, each change
 * recorded in the audit log (a secret by "changed" only). Returns the keys that changed.
 */
export async function changeSettings(ctx: SettingsAdminDeps, actor: Viewer, raw: Record<string, unknown>, ip = ''): Promise<string[]> {
  assertAdmin(actor);
  const values: Record<string, unknown> = {};
  for (const [name, given] of Object.entries(raw)) {
    const { key, value } = fromNodebbSetting(name, given);
    assertSettingKey(key);
    values[key] = coerceSetting(key, value);
    assertSettingValue(key, values[key]);
  }
  const before = (await ctx.settings.get()) as unknown as Record<string, unknown>;
  const changed = Object.keys(values).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(values[k]));
  if (!changed.length) return [];
  // set() checks the whole change again against the current settings (minimum above maximum) before writing any of it.
  await ctx.settings.set(Object.fromEntries(changed.map((k) => [k, values[k]])), async (w) => {
    for (const key of changed) {
      const shown = (v: unknown) => (SECRET_SETTINGS.includes(key) ? (v ? '********' : '') : v);
      await ctx.events.log('config-change', actor.uid, { key, from: shown(before[key]), to: shown(values[key]) }, ip, w);
    }
  });
  return changed;
}

/** A master API token as the API page lists it (the token itself is shown once, when created). */
export interface MasterToken {
  id: string;
  description: string;
  created: number;
  lastSeen: number;
}

/** What the API tokens use of the application. */
export type TokensDeps = Pick<AppContext, 'actions' | 'auth' | 'events' | 'users'>;

/** The master API tokens (admins). */
export async function listMasterTokens(ctx: TokensDeps, actor: Viewer): Promise<MasterToken[]> {
  assertAdmin(actor);
  return (await ctx.auth.masterTokens()).map((r) => ({ id: r.id, description: r.description, created: r.created, lastSeen: r.last_seen }));
}

/** A token as NodeBB's admin token routes answer it (TokenObject). */
export interface AdminTokenObject {
  uid: number;
  description: string;
  token: string;
  timestamp: number;
  timestampISO: string;
  lastSeen: number | null;
  lastSeenISO: string | null;
}

/**
 * Creates an API token (NodeBB's POST /api/v3/admin/tokens): a master token for uid 0 or none,
 * else a token acting as that member (404 error:no-user when there is none). The token is
 * answered this once (NodeBB's TokenObject); only its hash is kept.
 */
export async function createMasterToken(ctx: TokensDeps, actor: Viewer, input: { uid?: number; description?: string }, ip = ''): Promise<AdminTokenObject> {
  assertAdmin(actor);
  const uid = input.uid ?? 0;
  if (uid > 0 && !(await ctx.users.get(uid))) throw notFound('error:no-user');
  const description = (input.description ?? '').trim();
  // The answer's time is the stored one (the token's row is read back with it).
  const now = Date.now();
  const token = await ctx.auth.createToken(uid, description, now);
  await ctx.events.log('token-create', actor.uid, { master: uid === 0, uid, description }, ip);
  return { uid, description, token, timestamp: now, timestampISO: new Date(now).toISOString(), lastSeen: null, lastSeenISO: null };
}

/** Revokes a master API token by its public id, or any token given itself (404 when there is none). */
export async function revokeMasterToken(ctx: TokensDeps, actor: Viewer, id: string, ip = ''): Promise<void> {
  assertAdmin(actor);
  if (!(await ctx.auth.revokeMasterToken(id))) throw notFound();
  await ctx.events.log('token-revoke', actor.uid, { master: true, id }, ip);
}

/** NodeBB's TokenObject of a stored token; `token` is what the administrator named it by (the token is never stored). */
export function tokenObject(row: { uid: number | null; description: string; created: number; last_seen: number }, token: string): AdminTokenObject {
  const seen = Number(row.last_seen) || null;
  return {
    uid: row.uid ?? 0,
    description: row.description,
    token,
    timestamp: Number(row.created),
    timestampISO: new Date(Number(row.created)).toISOString(),
    lastSeen: seen,
    lastSeenISO: seen ? new Date(seen).toISOString() : null,
  };
}

async function namedToken(ctx: TokensDeps, actor: Viewer, idOrToken: string) {
  assertAdmin(actor);
  const row = await ctx.auth.adminToken(idOrToken);
  if (!row) throw notFound('error:no-token');
  return row;
}

/** NodeBB's GET /api/v3/admin/tokens/{token}: a master token by its public id, or any token given itself (admins). */
export async function getAdminToken(ctx: TokensDeps, actor: Viewer, idOrToken: string): Promise<AdminTokenObject> {
  return tokenObject(await namedToken(ctx, actor, idOrToken), idOrToken);
}

/** NodeBB's PUT /api/v3/admin/tokens/{token}: gives the token to another member (0: master) and/or a new description. */
export async function updateAdminToken(ctx: TokensDeps, actor: Viewer, idOrToken: string, input: { uid?: number; description?: string }, ip = ''): Promise<AdminTokenObject> {
  const row = await namedToken(ctx, actor, idOrToken);
  const uid = input.uid ?? row.uid ?? 0;
  if (uid > 0 && !(await ctx.users.get(uid))) throw notFound('error:no-user');
  const description = input.description === undefined ? row.description : input.description.trim();
  await ctx.actions.run('admin.token-update', (w) => ctx.auth.updateToken(w.tx, row.token_hash, uid, description));
  await ctx.events.log('token-update', actor.uid, { uid, description }, ip);
  return tokenObject({ ...row, uid, description }, idOrToken);
}

/** NodeBB's POST /api/v3/admin/tokens/{token}/roll: a new token for the same member and description; the old one stops working. */
export async function rollAdminToken(ctx: TokensDeps, actor: Viewer, idOrToken: string, ip = ''): Promise<AdminTokenObject> {
  const row = await namedToken(ctx, actor, idOrToken);
  const token = await ctx.actions.run('admin.token-roll', (w) => ctx.auth.rollToken(w.tx, row));
  await ctx.events.log('token-roll', actor.uid, { uid: row.uid ?? 0 }, ip);
  return tokenObject({ ...row, created: Date.now(), last_seen: 0 }, token);
}
