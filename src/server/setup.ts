import { DEFAULT_LANGUAGE } from '../shared/constants.js';
import type { AppContext } from './context.js';
import { migrate } from './db/index.js';
import { claimSetting, getSetting, putSetting, releaseSetting, swapSetting } from './domains/settings/store.js';
import { ADMINISTRATORS } from './domains/groups/service.js';
import type { Viewer } from './domains/privileges/service.js';
import { translate } from './i18n.js';

/** Opens, migrates and prepares the database: system groups and default grants, once. */
export async function prepareDatabase(ctx: AppContext): Promise<string[]> {
  const applied = await migrate(ctx);
  const installed = await getSetting(ctx.db, 'installed');
  if (!installed) {
    // One action: the system groups, their default grants and the mark that says so commit together.
    await ctx.actions.run('setup.install', async (w) => {
      await ctx.groups.ensureSystemGroups(w);
      await ctx.privileges.grantGlobalDefaults(w);
      await putSetting(w, 'installed', String(Date.now()));
    });
    // The forum's web-push (VAPID) key pair is made at setup; a forum set up before it gets one on first use.
    await ctx.push.ensureKeys();
  }
  return applied;
}

/** The system acting as an administrator (setup, CLI). */
export const SYSTEM: Viewer = { uid: 0, groups: [ADMINISTRATORS], isAdmin: true, isGlobalMod: true };

/** The setting that holds the claim on first-run setup (the time it was claimed, ms). */
const SETUP_CLAIM = 'setup:claim';
/** A claim this old with still no administrator was left by a process that died mid-setup: another may take it over. */
export const SETUP_CLAIM_STALE_MS = 2 * 60_000;

/**
 * Claims first-run setup in the database: a row only one process can insert (or, when a claim
 * was left behind by a process that died before any administrator existed, take over by
 * compare-and-swap). Returns the claim's value, or null when another process holds it or has
 * finished setup. Per-process locks cannot do this: two processes starting at once (two
 * `palaver start` with PALAVER_ADMIN_*, two setup forms behind a balancer) each hold their own.
 */
async function claimSetup(ctx: AppContext): Promise<string | null> {
  const mine = String(Date.now());
  return ctx.actions.run('setup.claim', async (w) => {
    if (await claimSetting(w, SETUP_CLAIM, mine)) return mine;
    const held = await getSetting(w.tx, SETUP_CLAIM);
    if (held === undefined || Date.now() - Number(held) < SETUP_CLAIM_STALE_MS) return null;
    if ((await ctx.groups.members(ADMINISTRATORS)).length) return null;
    return (await swapSetting(w, SETUP_CLAIM, held, mine)) ? mine : null;
  });
}

/**
 * First-run setup: creates the first administrator and a first category when the forum has
 * no administrator yet. Returns the admin's uid, or null when one already existed or another
 * process is setting the forum up now (the claim is the database's: claimSetup). A refused
 * account (bad username, password…) gives the claim back, so setup can be tried again.
 */
export async function setupForum(ctx: AppContext, admin: { username: string; email: string; password: string }, lang: string = DEFAULT_LANGUAGE): Promise<number | null> {
  if ((await ctx.groups.members(ADMINISTRATORS)).length) return null;
  const claim = await claimSetup(ctx);
  if (!claim) return null;
  let user;
  try {
    // An administrator made before the claim existed (a forum set up by an older version, or by hand).
    if ((await ctx.groups.members(ADMINISTRATORS)).length) return null;
    user = await ctx.users.create(admin, { admin: true });
  } catch (err) {
    await ctx.actions.run('setup.release', (w) => releaseSetting(w, SETUP_CLAIM, claim));
    throw err;
  }
  if ((await ctx.categories.count()) === 0) {
    await ctx.categories.create(SYSTEM, {
      // Named in the language the forum is set up in (the setup page's; en-GB from the CLI).
      name: translate('admin-setup:general-name', [], lang),
      description: translate('admin-setup:general-description', [], lang),
      icon: 'fa-comments',
      bgColor: '#2c7be5',
    });
  }
  return user.uid;
}
