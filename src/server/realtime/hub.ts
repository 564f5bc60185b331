import type { AppContext } from '../context.js';
import type { ActionOptions } from '../hooks/bus.js';
import type { ActionHooks } from '../hooks/types.js';
import type { Viewers } from './audience.js';
import type { Presence } from './presence.js';
import type { Io } from './server.js';

/** What the hook bridges need: the server, who is who, presence, and a place to run pushes. */
export interface Hub {
  ctx: AppContext;
  io: Io;
  viewers: Viewers;
  presence: Presence;
  /** Runs a push after the hook returns, so a request never waits on fan-out; errors are logged. */
  later(work: Promise<unknown>): void;
}

/**
 * Subscribes a bridge to an action hook; the push runs in the background. `inline` starts it at
 * commit instead of behind the request (see ActionOptions): only for a push whose synchronous
 * part is cheap and that waits for the turn's end before its work (as domains/chats/live.ts's `soon` does).
 */
export function bridge<K extends keyof ActionHooks>(hub: Hub, name: K, push: (data: ActionHooks[K]) => Promise<unknown>, opts: Pick<ActionOptions, 'inline'> = {}): void {
  hub.ctx.hooks.action(name, 'realtime', (data) => hub.later(push(data)), opts);
}
