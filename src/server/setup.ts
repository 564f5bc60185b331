import type { AppContext } from './context.js';
import { migrate } from './db/index.js';
import { getSetting, putSetting } from './domains/settings/store.js';
import { ADMINISTRATORS } from './domains/groups/service.js';
import type { Viewer } from './domains/privileges/service.js';

/** Opens, migrates and prepares the database: system groups and default grants, once. */
export async function prepareDatabase(ctx: AppContext): Promise<string[]> {
  const applied = await migrate(ctx);
  const installed = await getSetting(ctx.db, 'installed');
  if (!installed) {
    await ctx.db.transaction().execute(async (tx) => {
      await ctx.groups.ensureSystemGroups(tx);
      await ctx.privileges.grantGlobalDefaults(tx);
      await putSetting(tx, 'installed', String(Date.now()));
    });
    // The forum's web-push (VAPID) key pair is made at setup; a forum set up before it gets one on first use.
    await ctx.push.ensureKeys();
  }
  return applied;
}

/** The system acting as an administrator (setup, CLI). */
export const SYSTEM: Viewer = { uid: 0, groups: [ADMINISTRATORS], isAdmin: true, isGlobalMod: true };

/**
 * First-run setup: creates the first administrator and a first category when the forum has
 * no administrator yet. Returns the admin's uid, or null when one already existed.
 */
export async function setupForum(ctx: AppContext, admin: { username: string; email: string; password: string }): Promise<number | null> {
  const admins = await ctx.groups.members(ADMINISTRATORS);
  if (admins.length) return null;
  const user = await ctx.users.create(admin, { admin: true });
  if ((await ctx.categories.count()) === 0) {
    await ctx.categories.create(SYSTEM, {
      name: 'General Discussion',
      description: 'A place to talk about whatever you want',
      icon: 'fa-comments',
      bgColor: '#2c7be5',
    });
  }
  return user.uid;
}
