import type { AppContext } from '../../context.js';

/** Tells a member their request to join a group was accepted (through the notifications service). */
export function registerGroupListeners(ctx: Pick<AppContext, 'hooks' | 'notifications'>): void {
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
