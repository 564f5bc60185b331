import type { AppContext } from '../context.js';
import { pruneFinished } from './store.js';

const HOUR = 60 * 60 * 1000;
// Finished one-off runs are kept this long for diagnosis.
const KEEP_FINISHED_MS = 7 * 24 * HOUR;

/** The forum's own recurring jobs: clean-ups that must run once across processes. */
export function registerCoreJobs(ctx: AppContext): void {
  ctx.jobs.define('sessions.prune', async () => ctx.auth.pruneSessions(), { every: HOUR, leaseMs: 10 * 60 * 1000 });
  ctx.jobs.define('jobs.prune', async () => pruneFinished(ctx.db, Date.now() - KEEP_FINISHED_MS), { every: 24 * HOUR });
}
