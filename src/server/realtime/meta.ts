import { Type } from 'typebox';
import type { AppContext } from '../context.js';
import type { Viewer } from '../domains/privileges/service.js';
import { assertReadable } from '../domains/topics/access.js';
import { serverHostname } from '../http/client-config.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import type { Calls } from './calls.js';
import { parsePageRoom, userRoom } from './rooms.js';
import type { LiveSocket } from './session.js';

const Nothing = Type.Union([Type.Undefined(), Type.Null(), Type.Object({})]);
const EnterPayload = Type.Object({ enter: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])) });

/** Refuses a page room the member may not enter: unknown names, others' rooms, unreadable content. */
async function assertMayEnter(ctx: AppContext, viewer: Viewer, name: string): Promise<void> {
  const room = parsePageRoom(name);
  if (!room) throw badRequest('error:invalid-room', name);
  if (room.kind === 'user' && room.id !== viewer.uid) throw forbidden('error:not-allowed');
  if (room.kind === 'category') await ctx.categories.readable(viewer, room.id);
  if (room.kind === 'topic') {
    const topic = await ctx.topics.get(room.id);
    if (!topic) throw notFound('error:no-topic');
    await assertReadable(ctx, viewer, topic);
  }
}

/** Leaves the socket's page room; its own member room stays joined even if it was the page room. */
async function leaveCurrent(socket: LiveSocket): Promise<void> {
  const current = socket.data.currentRoom;
  socket.data.currentRoom = null;
  if (current && current !== userRoom(socket.data.uid)) await socket.leave(current);
}

/** meta.reconnected, meta.rooms.enter and meta.rooms.leaveCurrent (spec §4, §7). */
export function registerMetaCalls(calls: Calls, ctx: AppContext): void {
  calls.add('meta.reconnected', Nothing, async () => ({ 'cache-buster': ctx.config.cacheBuster, hostname: serverHostname }));

  // The room changes only once the new one is allowed, so a refused enter leaves the socket where it was.
  calls.add('meta.rooms.enter', EnterPayload, async ({ socket, viewer, payload }) => {
    const name = payload.enter ?? '';
    if (name) await assertMayEnter(ctx, viewer, name);
    if (name === socket.data.currentRoom) return;
    await leaveCurrent(socket);
    if (!name) return;
    await socket.join(name);
    socket.data.currentRoom = name;
  });

  calls.add('meta.rooms.leaveCurrent', Nothing, async ({ socket }) => leaveCurrent(socket));
}
