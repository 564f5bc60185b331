import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError } from './errors.js';

/** Seconds a client is told to wait before trying again while the forum is in maintenance. */
export const MAINTENANCE_RETRY_AFTER = 120;

/** Paths every visitor may still reach in maintenance: signing in (so an administrator can), the client's config, files. */
const OPEN =
  /^\/(?:login(?:\/.*)?|api\/login|api\/v3\/utilities\/login|api\/config|assets\/.*|language\/.*|favicon\.ico|manifest\.webmanifest|sw\.js|socket\.io\/.*)(?:\?.*)?$/;

/**
 * Maintenance mode, the server's side of the `maintenanceMode` setting (the admin's switch
 * under Settings › Advanced, and what a restore turns on while it runs): everyone but
 * administrators gets a 503 with Retry-After, pages as the maintenance error page and the
 * API as its envelope (`[[error:maintenance-mode]]`). Registered after authentication, so an
 * administrator's session is known; sign-in stays open. Every process reads the setting
 * (cached, dropped in every process when it changes).
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
    if (!(await ctx.settings.get()).maintenanceMode || req.viewer?.isAdmin) return false;
    if (OPEN.test(req.url.slice(base.length) || '/')) return false;
    reply.header('retry-after', String(MAINTENANCE_RETRY_AFTER)).header('cache-control', 'no-store');
    throw new AppError('error:maintenance-mode', 503);
  };
}
