import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AppContext } from '../../context.js';
import { cookieOptions } from '../../http/auth.js';
import { clearCookie, setCookie } from '../../http/cookies.js';
import { AppError } from '../../http/errors.js';
import { twoFactor } from '../../plugins/two-factor/service.js';
import { safeEqual } from './service.js';

/** What these functions use of the application. */
type Deps = Pick<AppContext, 'actions' | 'auth' | 'config' | 'db' | 'limiter' | 'settings'>;

/** The cookie that carries a login waiting for its second factor (no session yet). */
export const PENDING_COOKIE = 'palaver.2fa';
/** How long a password-checked login may wait for its code. */
export const PENDING_TTL_MS = 5 * 60_000;

/** What the pending cookie says: the member who gave the right password, and until when. */
export interface PendingLogin {
  uid: number;
  remember: boolean;
}

function sign(ctx: Pick<AppContext, 'config'>, body: string): string {
  return createHmac('sha256', ctx.config.secret).update(`2fa-pending:${body}`).digest('base64url');
}

/** Sets the pending-login cookie after a right password: signed, so it needs no table and works on every process. */
export function setPendingLogin(ctx: Deps, reply: FastifyReply, uid: number, remember: boolean): void {
  const body = `${uid}.${Date.now() + PENDING_TTL_MS}.${remember ? 1 : 0}.${randomBytes(9).toString('base64url')}`;
  setCookie(reply, PENDING_COOKIE, `${body}.${sign(ctx, body)}`, cookieOptions(ctx, PENDING_TTL_MS / 1000));
}

/** The login waiting for its second factor, or null when there is none (or it ran out). */
export function pendingLogin(ctx: Deps, req: FastifyRequest): PendingLogin | null {
  const raw = req.cookies[PENDING_COOKIE];
  const m = raw ? /^(\d{1,10})\.(\d{1,15})\.([01])\.([\w-]{12})\.([\w-]{43})$/.exec(raw) : null;
  if (!m) return null;
  const body = `${m[1]}.${m[2]}.${m[3]}.${m[4]}`;
  if (!safeEqual(sign(ctx, body), m[5]!) || Number(m[2]) < Date.now()) return null;
  return { uid: Number(m[1]), remember: m[3] === '1' };
}

/** Clears the pending-login cookie. */
export function clearPendingLogin(ctx: Deps, reply: FastifyReply): void {
  clearCookie(reply, PENDING_COOKIE, cookieOptions(ctx));
}

/** True when the admin area's paths: the re-authentication guard covers these. */
export function isAdminPath(ctx: Pick<AppContext, 'config'>, url: string): boolean {
  const inner = url.slice(ctx.config.relativePath.length);
  return /^\/(api\/)?admin(\/|$)/.test(inner);
}

/**
 * Spec §6: a member with a two-factor key passes /login/2fa again before entering the admin
 * area, and then stays in for `adminReloginDuration` minutes (the session's reauth_until).
 * Pages are redirected to /login/2fa?next=<the page>; other requests answer 401 with
 * error:two-factor-reauth-required. Members without a key, guests and API tokens pass (the
 * route's own privilege check still applies).
 */
export async function requireAdminReauth(ctx: Deps, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (req.authKind !== 'session' || !req.sessionHash || req.viewer.uid <= 0) return;
  if (!(await twoFactor(ctx).hasKey(req.viewer.uid))) return;
  if ((await ctx.auth.reauthUntil(req.sessionHash)) > Date.now()) return;
  const inner = req.url.slice(ctx.config.relativePath.length);
  const target = `${ctx.config.relativePath}/login/2fa?next=${encodeURIComponent(inner.replace(/^\/api(?=\/)/, ''))}`;
  if (req.method === 'GET' && inner.startsWith('/admin')) {
    await reply.redirect(target, 302);
    return;
  }
  // Page data of an admin page: the same redirect the page router gives (X-Redirect).
  if (req.method === 'GET' && inner.startsWith('/api/admin')) {
    await reply.code(200).header('x-redirect', target).send(JSON.stringify(target));
    return;
  }
  throw new AppError('error:two-factor-reauth-required', 401);
}

/** Puts the re-authentication guard on every admin route registered after this call in the scope. */
export function registerAdminReauth(app: FastifyInstance, ctx: Deps): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const url = route.url;
    if (!url || !isAdminPath(ctx, url)) return;
    const guard = async (req: FastifyRequest, reply: FastifyReply) => requireAdminReauth(ctx, req, reply);
    const existing = route.preHandler;
    route.preHandler = existing ? [guard, ...(Array.isArray(existing) ? existing : [existing])] : [guard];
  });
}
