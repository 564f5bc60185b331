import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { ForumSettings as Settings } from '../../shared/constants.js';
import type { Viewer } from '../domains/privileges/service.js';
import { AppError } from './errors.js';

/** Seconds a client is told to wait before trying again while the forum is in maintenance. */
export const MAINTENANCE_RETRY_AFTER = 120;

/** Paths every visitor may still reach in maintenance: signing in (so an administrator can), the client's config, files. */
const OPEN =
  /^\/(?:login(?:\/.*)?|api\/login|api\/v3\/utilities\/login|api\/config|assets\/.*|language\/.*|favicon\.ico|manifest\.webmanifest|sw\.js|socket\.io\/.*)(?:\?.*)?$/;

/** The groups the admin lets use the forum in maintenance (`groupsExemptFromMaintenanceMode`). */
function exemptGroups(s: Pick<Settings, 'groupsExemptFromMaintenanceMode'>): string[] {
  return s.groupsExemptFromMaintenanceMode.split(',').map((g) => g.trim()).filter(Boolean);
}

/**
 * Whether maintenance mode keeps this viewer out: the mode is on and they are neither an
 * administrator nor a member of a group the admin listed (NodeBB's groupsExemptFromMaintenanceMode).
 */
export function heldByMaintenance(s: Pick<Settings, 'maintenanceMode' | 'groupsExemptFromMaintenanceMode'>, viewer: Viewer | undefined): boolean {
  if (!s.maintenanceMode || viewer?.isAdmin) return false;
  if (!viewer || viewer.uid <= 0) return true;
  const exempt = exemptGroups(s);
  return !viewer.groups.some((g) => exempt.includes(g));
}

/** The error a held request or socket call gets: 503 `error:maintenance-mode`. */
export const maintenanceError = () => new AppError('error:maintenance-mode', 503);

/**
 * Maintenance mode, the server's side of the `maintenanceMode` setting (the admin's switch
 * under Settings › Advanced, and what a restore turns on while it runs): everyone but
 * administrators and the exempt groups gets a 503 with Retry-After, pages as the maintenance
 * error page (with the admin's `maintenanceModeMessage`) and the API as its envelope
 * (`[[error:maintenance-mode]]`); socket calls are refused the same way (realtime/calls.ts).
 * Registered after authentication, so the viewer is known; sign-in stays open. Every process
 * reads the setting (cached, dropped in every process when it changes).
 */
export function registerMaintenance(app: FastifyInstance, ctx: AppContext): void {
  const base = ctx.config.relativePath;
  // Callback style: with fresh cached settings and the mode off (nearly every request) this
  // costs a branch, not a promise.
  app.addHook('preValidation', (req, reply, done) => {
    const s = ctx.settings.peek();
    if (s && !s.maintenanceMode) return done();
    gate(req, reply).then((answered) => (answered ? undefined : done()), done);
  });
  const gate = async (req: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    if (!heldByMaintenance(await ctx.settings.get(), req.viewer)) return false;
    if (OPEN.test(req.url.slice(base.length) || '/')) return false;
    reply.header('retry-after', String(MAINTENANCE_RETRY_AFTER)).header('cache-control', 'no-store');
    throw maintenanceError();
  };
}
