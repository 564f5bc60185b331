import type { AppContext } from '../context.js';
import type { Viewer } from '../domains/privileges/service.js';
import type { PostRow, TopicRow } from '../hooks/types.js';
import type { ServerEvent, ServerToClientEvents } from './events.js';
import type { Io } from './server.js';

/**
 * Who each member is (groups, admin): pushes check many members at once. The privileges
 * service keeps each member's groups per process (cleared with 'viewers' in every process).
 */
export class Viewers {
  constructor(private readonly ctx: AppContext) {}

  /** The viewer behind a uid. */
  get(uid: number): Promise<Viewer> {
    return this.ctx.privileges.viewer(uid);
  }
}

/** A question asked once per member before a push reaches their sockets. */
export type Allowed = (viewer: Viewer) => Promise<boolean>;

/** Readers of the category's topic lists (the guardian's rule, as pages ask it). */
export function readsCategory(ctx: AppContext, cid: number): Allowed {
  return async (v) => (await ctx.privileges.guardian(v)).canReadCategory(cid);
}

/** Readers of the topic (a deleted one: only those who may see deleted content). */
export function readsTopic(ctx: AppContext, topic: TopicRow): Allowed {
  return async (v) => (await ctx.privileges.guardian(v)).canReadTopic(topic);
}

/** Readers of the post: its topic, and for a deleted post, deleted content. */
export function readsPost(ctx: AppContext, topic: TopicRow, post: PostRow): Allowed {
  return async (v) => (await ctx.privileges.guardian(v)).canReadPost(topic, post);
}

/**
 * Pushes an event to the sockets in the rooms (on every process) whose member passes
 * `allowed`, asking once per member. The push goes to the chosen sockets' own rooms, so a
 * socket that joined after the check is not reached unchecked.
 */
export async function pushFiltered<E extends ServerEvent>(
  io: Io,
  viewers: Viewers,
  rooms: string[],
  allowed: Allowed,
  event: E,
  ...args: Parameters<ServerToClientEvents[E]>
): Promise<number> {
  const sockets = await io.in(rooms).fetchSockets();
  const verdicts = new Map<number, Promise<boolean>>();
  const ids: string[] = [];
  for (const socket of sockets) {
    const uid = socket.data.uid;
    if (!(uid > 0)) continue;
    let verdict = verdicts.get(uid);
    if (!verdict) verdicts.set(uid, (verdict = viewers.get(uid).then(allowed)));
    if (await verdict) ids.push(socket.id);
  }
  if (ids.length) io.to(ids).emit(event, ...args);
  return ids.length;
}
