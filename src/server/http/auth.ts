import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Viewer } from '../domains/privileges/service.js';
import { safeEqual } from '../domains/auth/service.js';
import { clearCookie, setCookie } from './cookies.js';
import { AppError, badRequest } from './errors.js';
import { INT4_MAX } from './input.js';
import { withFields } from './objects.js';

export const SESSION_COOKIE = 'palaver.sid';
export const GUEST_CSRF_COOKIE = 'palaver.csrf';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is asking: uid 0 for guests. */
    viewer: Viewer;
    /** How the request authenticated. */
    authKind: 'guest' | 'session' | 'token';
    /** Hash of the session id, for logout and "keep this session". */
    sessionHash: string | null;
    /** The raw session id (only to derive the CSRF token). */
    sessionId: string | null;
  }
  interface FastifyContextConfig {
    /** Skip authentication entirely (static files). */
    skipAuth?: boolean;
    /** Allow cookie-authenticated writes without a CSRF token (never set on real writes). */
    skipCsrf?: boolean;
  }
}

const GUEST: Viewer = Object.freeze({ uid: 0, groups: ['guests'], isAdmin: false, isGlobalMod: false }) as Viewer;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Cookie options shared by the session and guest CSRF cookies. */
export function cookieOptions(ctx: Pick<AppContext, 'config'>, maxAgeSec?: number) {
  return {
    path: ctx.config.relativePath || '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: ctx.config.url.startsWith('https:'),
    ...(maxAgeSec !== undefined ? { maxAge: maxAgeSec } : {}),
  };
}

/** The CSRF token for this request, setting the guest's double-submit cookie when missing. */
export function csrfToken(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): string {
  if (req.sessionId) return ctx.auth.csrfFor('session', req.sessionId);
  let nonce = req.cookies[GUEST_CSRF_COOKIE];
  if (!nonce) {
    nonce = ctx.auth.newGuestNonce();
    req.cookies[GUEST_CSRF_COOKIE] = nonce;
    setCookie(reply, GUEST_CSRF_COOKIE, nonce, cookieOptions(ctx));
  }
  return ctx.auth.csrfFor('guest', nonce);
}

function takeField(req: FastifyRequest, name: string): unknown {
  const body = req.body as Record<string, unknown> | undefined;
  const query = req.query as Record<string, unknown> | undefined;
  let value: unknown;
  if (body && typeof body === 'object' && name in body) {
    value = body[name];
    delete body[name];
  }
  if (query && typeof query === 'object' && name in query) {
    value ??= query[name];
    delete query[name];
  }
  return value;
}

/**
 * Authenticates every request (bearer token, else session cookie, else guest) and refuses
 * cookie-authenticated writes without a valid CSRF token. Runs before schema validation,
 * so it can take `_uid` and `_csrf` out of the body.
 */
export function registerAuth(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('viewer', null as unknown as Viewer);
  app.decorateRequest('authKind', 'guest');
  app.decorateRequest('sessionHash', null);
  app.decorateRequest('sessionId', null);

  // Callback style: a guest's read (no token, no session cookie, not a write) is settled
  // without a promise; everything else goes through authenticate().
  app.addHook('preValidation', (req, reply, done) => {
    req.viewer = GUEST;
    const unsafe = UNSAFE.has(req.method);
    // NodeBB's clients send many writes with no body at all (tokens, status, moderator):
    // read a missing body as {}, so a route whose fields are all optional accepts it.
    if (req.body === undefined && unsafe) req.body = {};
    if (req.routeOptions.config?.skipAuth) return done();
    if (!unsafe && !req.headers.authorization && !req.cookies[SESSION_COOKIE]) {
      takeField(req, '_csrf');
      takeField(req, '_uid');
      return done();
    }
    authenticate(req, reply).then(() => done(), done);
  });

  const authenticate = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const csrfField = takeField(req, '_csrf');
    const uidField = takeField(req, '_uid');
    const authz = req.headers.authorization;
    if (authz && /^bearer /i.test(authz)) {
      const found = await ctx.auth.resolveToken(authz.slice(7).trim());
      if (!found) throw new AppError('error:invalid-token', 401);
      let uid = found.uid;
      if (found.master) {
        // Only a number or its text: Number() of a 10,000-deep array overflows the stack, and
        // an id past int4 makes PostgreSQL refuse the lookup (issue 17, defect 2).
        uid = typeof uidField === 'number' || typeof uidField === 'string' ? Number(uidField) : NaN;
        if (!Number.isInteger(uid) || uid <= 0 || uid > INT4_MAX) throw badRequest('error:api.master-token-no-uid');
      }
      const user = await ctx.users.get(uid);
      if (!user || user.deleted === 1) {
        // A member's own token outlives nothing: once the account is gone the token is void.
        if (found.master) throw badRequest('error:no-user');
        throw new AppError('error:invalid-token', 401);
      }
      // A banned member acts through no token, their own or a master token naming them:
      // the same 403 and key as a banned member's login.
      await ctx.users.assertNotBanned(user);
      req.authKind = 'token';
      req.viewer = withFields(await ctx.privileges.viewer(uid), { master: found.master, row: user });
      return;
    }
    const sid = req.cookies[SESSION_COOKIE];
    if (sid) {
      const settings = await ctx.settings.get();
      const session = await ctx.auth.resolveSessionWithUser(sid, settings.sessionDays);
      if (session) {
        const user = session.user;
        if (user.deleted !== 1 && !(user.banned === 1 && (user.banned_until === 0 || user.banned_until > Date.now()))) {
          req.authKind = 'session';
          req.sessionHash = session.idHash;
          req.sessionId = sid;
          req.viewer = withFields(await ctx.privileges.viewer(session.uid), { row: user });
        } else {
          await ctx.auth.destroySession(session.idHash, session.uid);
        }
      }
      if (req.authKind !== 'session') clearCookie(reply, SESSION_COOKIE, cookieOptions(ctx));
    }
    if (UNSAFE.has(req.method) && !req.routeOptions.config?.skipCsrf) {
      const sent = (req.headers['x-csrf-token'] as string | undefined) ?? (typeof csrfField === 'string' ? csrfField : undefined);
      const expected = req.sessionId
        ? ctx.auth.csrfFor('session', req.sessionId)
        : req.cookies[GUEST_CSRF_COOKIE]
          ? ctx.auth.csrfFor('guest', req.cookies[GUEST_CSRF_COOKIE]!)
          : null;
      if (!sent || !expected || !safeEqual(sent, expected)) throw new AppError('error:invalid-csrf', 403);
    }
  };
}
