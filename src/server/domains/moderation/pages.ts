import type { AccountInfoPage, IpBlacklistPage } from '../../../shared/schemas/moderation.js';
import { notFound } from '../../http/errors.js';
import { definePage } from '../../http/pages.js';
import { presentUser } from '../users/presenter.js';
import { accountFields } from '../users/account-fields.js';

const infoPage = definePage<AccountInfoPage>({
  path: '/user/:userslug/info',
  template: 'account/info',
  requireLogin: true,
  async load({ ctx, viewer, params }) {
    const row = await ctx.users.bySlug(params.userslug!);
    // The owner opens their own page (as NodeBB lets them); anyone else needs view:users:info,
    // checked before anything about the member shows.
    const own = !!row && row.deleted !== 1 && row.uid === viewer.uid;
    const privileged = await ctx.moderation.canViewInfo(viewer);
    if (!own) await ctx.moderation.assertInfo(viewer);
    if (!row || row.deleted === 1) throw notFound('error:no-user');
    if (row.userslug !== params.userslug) return { redirect: `/user/${row.userslug}/info` };
    const [info, sessions, identity] = await Promise.all([ctx.moderation.info(viewer, row), ctx.auth.describeSessions(row.uid, null), ctx.users.identityHistory(row)]);
    const setters = await ctx.users.getMany([...new Set(identity.emails.map((e) => e.byUid))]);
    const value = (v: { value: string; byUid: number; timestamp: number }) => ({ value: v.value, byUid: String(v.byUid), timestamp: v.timestamp, timestampISO: new Date(v.timestamp).toISOString() });
    return {
      // NodeBB's UserObjectFull (users/account-fields.ts), then the page's own fields.
      ...(await accountFields(ctx, viewer, row)),
      title: '[[pages:account/info]]',
      breadcrumbs: [{ text: row.username, url: `/user/${row.userslug}` }, { text: '[[pages:account/info]]' }],
      ...info,
      // What moderators wrote about the member and who else shares their addresses are the moderators' own.
      ...(privileged ? {} : { moderationNotes: [], otherAccounts: [], banReasons: [] }),
      sessions,
      usernames: identity.usernames.map(value),
      // Addresses are for administrators and global moderators, not every holder of view:users:info.
      emails: (viewer.isAdmin || viewer.isGlobalMod ? identity.emails : []).map((e) => {
        const by = setters.get(e.byUid);
        const u = by ? presentUser(by) : null;
        return { ...value(e), byUser: u ? { uid: u.uid, username: u.username, userslug: u.userslug, picture: u.picture ?? '', 'icon:text': u['icon:text'], 'icon:bgColor': u['icon:bgColor'] } : null };
      }),
    };
  },
});

const blacklistPage = definePage<IpBlacklistPage>({
  path: '/ip-blacklist',
  template: 'ip-blacklist',
  requireLogin: true,
  async load({ ctx, viewer }) {
    await ctx.moderation.assertBlacklistAdmin(viewer);
    const view = await ctx.moderation.blacklist.view();
    return { title: '[[pages:ip-blacklist]]', breadcrumbs: [{ text: '[[pages:ip-blacklist]]' }], ...view, canEdit: true };
  },
});

/** The moderation pages: a member's info page and the IP blacklist. */
export const moderationPages = [infoPage, blacklistPage];
