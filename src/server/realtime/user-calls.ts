import { Type } from 'typebox';
import type { AppContext } from '../context.js';
import type { Calls } from './calls.js';
import type { UserStatus } from './events.js';

/** user.setStatus: NodeBB's socket call, kept for old clients; the REST route replaces it. */
export function registerUserCalls(calls: Calls, ctx: AppContext): void {
  calls.add(
    'user.setStatus',
    Type.String({ maxLength: 20 }),
    async ({ viewer, payload }) => {
      const user = await ctx.users.setStatus(viewer, viewer.uid, payload);
      return { uid: user.uid, status: user.status as UserStatus };
    },
    'PUT /api/v3/users/:uid/status/:status',
  );
}
