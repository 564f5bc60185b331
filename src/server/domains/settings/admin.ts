import { SECRET_SETTINGS, type ForumSettings } from '../../../shared/constants.js';
import type { AppContext } from '../../context.js';
import { forbidden, notAuthorised } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { assertSettingKey, assertSettingValue, coerceSetting } from './schema.js';

/** 401 for a guest, 403 for anyone but an administrator. */
export function assertAdmin(viewer: Viewer): void {
  if (viewer.uid <= 0 && !viewer.isAdmin) throw notAuthorised();
  if (!viewer.isAdmin) throw forbidden();
}

/** What changing a setting uses of the application. */
export type SettingsAdminDeps = Pick<AppContext, 'settings' | 'events'>;

/**
 * Changes one setting from a raw value (text from the command line or NodeBB's string body,
 * or JSON): checks the key, reads the value into the setting's type, validates it by the
 * schema, saves it through the settings service (which clears every process's cache) and
 * records who changed what in the audit log. Returns the saved value.
 */
export async function changeSetting(ctx: SettingsAdminDeps, actor: Viewer, key: string, raw: unknown, ip = ''): Promise<unknown> {
  assertAdmin(actor);
  assertSettingKey(key);
  const value = coerceSetting(key, raw);
  assertSettingValue(key, value);
  const before = (await ctx.settings.get())[key];
  const saved = (await ctx.settings.set({ [key]: value } as Partial<ForumSettings>))[key];
  // A secret (the SMTP password) is recorded as changed, never by value.
  const shown = (v: unknown) => (SECRET_SETTINGS.includes(key) ? (v ? '********' : '') : v);
  await ctx.events.log('config-change', actor.uid, { key, from: shown(before), to: shown(saved) }, ip);
  return saved;
}
