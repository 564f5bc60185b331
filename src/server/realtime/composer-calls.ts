import { Type } from 'typebox';
import type { AppContext } from '../context.js';
import { presentUser } from '../domains/users/presenter.js';
import * as mentionStore from '../plugins/mentions/store.js';
import type { Calls } from './calls.js';

const SUGGESTIONS = 10;

/**
 * The composer's socket calls (spec §7): the mentions plugin's member and group search
 * (the searcher excluded, spec §5) and NodeBB's tag autocomplete.
 */
export function registerComposerCalls(calls: Calls, ctx: AppContext): void {
  calls.add('plugins.mentions.userSearch', Type.Object({ query: Type.String({ maxLength: 100 }), composerObj: Type.Optional(Type.Unknown()) }), async ({ viewer, payload }) => {
    await ctx.privileges.assert(viewer, 'view:users');
    const query = payload.query.trim();
    if (!query) return [];
    return (await mentionStore.searchUsers(ctx.db, query, viewer.uid, SUGGESTIONS)).map((row) => presentUser(row));
  });
  calls.add('plugins.mentions.getTopicUsers', Type.Object({ tid: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }) }), async ({ viewer, payload }) => {
    const topic = await ctx.topics.get(payload.tid);
    if (!topic || !(await ctx.privileges.can(viewer, 'topics:read', topic.cid))) return [];
    return (await mentionStore.topicUsers(ctx.db, topic.tid, 50)).filter((r) => r.uid !== viewer.uid).map((row) => presentUser(row));
  });
  calls.add('plugins.mentions.listGroups', Type.Optional(Type.Unknown()), async ({ viewer }) => {
    await ctx.privileges.assert(viewer, 'view:groups');
    return mentionStore.listGroups(ctx.db, 200);
  });
  calls.add('topics.autocompleteTags', Type.Object({ query: Type.String({ maxLength: 255 }), cid: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 })) }), async ({ viewer, payload }) => {
    await ctx.privileges.assert(viewer, 'view:tags');
    return ctx.tags.autocomplete(payload.query, payload.cid ?? 0, SUGGESTIONS);
  });
}

