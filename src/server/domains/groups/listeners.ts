import type { AppContext } from '../../context.js';
import { presentBadge } from './presenter.js';

/**
 * The groups domain's listeners: members' badges for any page that shows authors (one query for
 * all of them), and the notification that a membership request was accepted.
 */
export function registerGroupListeners(ctx: Pick<AppContext, 'groups' | 'hooks' | 'notifications'>): void {
  ctx.hooks.filter('filter:users.badges', 'groups', async (data) => {
    const rows = await ctx.groups.badgesOf(data.uids);
    for (const [uid, groups] of rows) data.badges.set(uid, groups.map(presentBadge));
    return data;
  });

  ctx.hooks.action('action:group.accept', 'groups', async ({ groupName, slug, uid, by }) => {
    await ctx.notifications.notify({
      type: 'group-request',
      mergeKey: `group:accepted:${groupName}:${uid}`,
      subject: { type: 'group', id: 0 },
      from: by,
      path: `/groups/${slug}`,
      bodyKey: 'notifications:group-request-accepted',
      params: [groupName],
      uids: [uid],
    });
  });
}
