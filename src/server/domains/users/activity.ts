import type { FastifyBaseLogger } from 'fastify';
import type { ActionRunner } from '../../core/action.js';
import type { ActivityNote, AuthService } from '../auth/service.js';
import { writeLastOnline } from './store.js';

/**
 * A member's activity is written at most once per this interval: "last online" and a session's
 * "last active" are as fresh as this, and a busy member costs one write per interval, not one
 * per request.
 */
export const ACTIVITY_WRITE_MS = 60_000;
/** How long noted activity waits in memory before its batch is written. */
const FLUSH_MS = 5_000;
/** A member counts as online this long after their last activity (lists, widget, dashboard). */
export const ONLINE_WINDOW_MS = 5 * 60_000;

/** What the recorder uses: the action runner, the sessions' batch write, the log. */
interface ActivityDeps {
  actions: ActionRunner;
  auth: Pick<AuthService, 'touchSessions'>;
  log: FastifyBaseLogger;
}

/**
 * Presence that follows activity: every signed-in page load, API call and socket call is noted
 * in memory (AuthService hands each one over), and a timer writes what was noted in one action:
 * members' `lastonline` and their sessions' `last_seen` (with the rolled expiry). Nothing is
 * written in the request. Each process writes its own members; the writes only move times
 * forward, so several processes agree.
 */
export class ActivityRecorder {
  private users = new Map<number, number>();
  private sessions = new Map<string, readonly [uid: number, at: number]>();
  private days = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: ActivityDeps) {}

  /** Notes a signed-in request; queued only when what its rows say is older than the write interval. */
  note(n: ActivityNote): void {
    const now = Date.now();
    const seen = Math.min(n.sessionSeen, n.userSeen ?? n.sessionSeen);
    if (now - seen < ACTIVITY_WRITE_MS) return;
    this.users.set(n.uid, now);
    this.sessions.set(n.idHash, [n.uid, now]);
    this.days = n.days;
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush().catch((err: unknown) => this.ctx.log.error({ err }, 'activity flush failed'));
      }, FLUSH_MS);
      this.timer.unref();
    }
  }

  /** How many members' activity waits to be written. */
  pending(): number {
    return this.users.size;
  }

  /** Writes the noted activity in one action. */
  async flush(): Promise<void> {
    if (!this.users.size && !this.sessions.size) return;
    const users = [...this.users];
    const sessions = [...this.sessions].map(([idHash, [uid, at]]) => [idHash, uid, at] as const);
    this.users.clear();
    this.sessions.clear();
    await this.ctx.actions.run('user.activity', async (w) => {
      await writeLastOnline(w, users);
      await this.ctx.auth.touchSessions(w, sessions, this.days);
    });
  }

  /** Stops the timer (at shutdown, after the last flush). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
