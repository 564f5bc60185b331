import type { PageBase } from '../../../shared/types.js';
import { AppError, notFound } from '../../http/errors.js';
import { pathId } from '../../http/input.js';
import { definePage } from '../../http/pages.js';
import { messageById } from './message-store.js';

/**
 * NodeBB's /message/{mid}: the chat message's canonical address, the member's own chats page
 * opened at the message (`/user/<slug>/chats/<roomId>/<index from 1>`). Only for a reader of
 * the message (a member of its room who may see it, as GET /api/v3/chats/{roomId}/messages/{mid}
 * decides); anyone else gets the 404 of a missing one.
 */
const messagePage = definePage<PageBase>({
  path: '/message/:mid',
  template: 'chats',
  requireLogin: true,
  async load({ ctx, viewer, params }) {
    const mid = pathId(params.mid);
    const row = mid === null ? undefined : await messageById(ctx.db, mid);
    if (!row) throw notFound('error:invalid-mid');
    // Someone else's message answers as a missing one: its existence is not for them to learn.
    await ctx.chats.getMessage(viewer, row.room_id, row.mid).catch((err: unknown) => {
      throw err instanceof AppError && err.status === 403 ? notFound('error:invalid-mid') : err;
    });
    const me = await ctx.users.ofViewer(viewer);
    return { redirect: `/user/${me?.userslug ?? ''}/chats/${row.room_id}/${Number(row.idx) + 1}` };
  },
});

export const messagePages = [messagePage];
