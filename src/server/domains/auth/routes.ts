import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { cookieOptions, SESSION_COOKIE } from '../../http/auth.js';
import { Envelope, ok } from '../../http/envelope.js';
import { enforce } from '../../http/ratelimit.js';
import { presentUser } from '../users/presenter.js';
import type { UserRow } from '../users/store.js';
import { UserSummarySchema } from '../users/schemas.js';

// Fields are optional here so that a missing one gets its own error key from the service.
const LoginBody = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 1024 })),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  remember: Type.Optional(Type.Union([Type.Boolean(), Type.String()])),
});
const RegisterBody = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 1024 })),
  email: Type.Optional(Type.String({ maxLength: 1024 })),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  'password-confirm': Type.Optional(Type.String({ maxLength: 1024 })),
});
const NextSchema = Type.Object({ next: Type.String(), uid: Type.Number() });

/** Starts a session for a member and sets the cookie. */
async function startSession(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, user: UserRow): Promise<void> {
  const settings = await ctx.settings.get();
  if (req.sessionHash) await ctx.auth.destroySession(req.sessionHash);
  const id = await ctx.auth.createSession(user.uid, req.ip, req.headers['user-agent'] ?? '', settings.sessionDays);
  reply.setCookie(SESSION_COOKIE, id, cookieOptions(ctx, settings.sessionDays * 86400));
  await ctx.hooks.fire('action:user.loggedIn', { uid: user.uid, sessionId: id });
}

async function login(ctx: AppContext, req: FastifyRequest<{ Body: { username?: string; password?: string } }>, reply: FastifyReply) {
  const username = (req.body.username ?? '').trim();
  const password = req.body.password ?? '';
  await enforce(ctx.limiter, `login:ip:${req.ip}`, ctx.config.rateLimits.login, 60, 'error:too-many-login-attempts');
  await enforce(ctx.limiter, `login:user:${username.toLowerCase()}`, ctx.config.rateLimits.login, 60, 'error:too-many-login-attempts');
  const user = await ctx.users.verifyLogin(username, password);
  await startSession(ctx, req, reply, user);
  await ctx.events.log('user-login', user.uid, {}, req.ip);
  return user;
}

/** Login, logout, registration and password-reset requests (forms and JSON). */
export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/login', {
    schema: { body: LoginBody, response: { 200: NextSchema }, tags: ['auth'] },
    handler: async (req, reply) => {
      const user = await login(ctx, req as FastifyRequest<{ Body: { username?: string; password?: string } }>, reply);
      return { next: `${ctx.config.relativePath}/`, uid: user.uid };
    },
  });
  app.post('/api/v3/utilities/login', {
    schema: { body: LoginBody, response: { 200: Envelope(UserSummarySchema) }, tags: ['utilities'] },
    handler: async (req, reply) => {
      const user = await login(ctx, req as FastifyRequest<{ Body: { username?: string; password?: string } }>, reply);
      return ok(presentUser(user));
    },
  });
  app.post('/logout', {
    schema: { body: Type.Optional(Type.Object({})), response: { 200: NextSchema }, tags: ['auth'] },
    handler: async (req, reply) => {
      const uid = req.viewer.uid;
      if (req.sessionHash) {
        await ctx.auth.destroySession(req.sessionHash);
        await ctx.hooks.fire('action:user.loggedOut', { uid, sessionId: req.sessionHash });
      }
      reply.clearCookie(SESSION_COOKIE, cookieOptions(ctx));
      return { next: `${ctx.config.relativePath}/`, uid: 0 };
    },
  });
  app.post('/register', {
    schema: { body: RegisterBody, response: { 200: NextSchema }, tags: ['auth'] },
    handler: async (req, reply) => {
      await enforce(ctx.limiter, `register:ip:${req.ip}`, ctx.config.rateLimits.register, 3600);
      const user = await ctx.users.register(req.body as Parameters<AppContext['users']['register']>[0], req.ip);
      await startSession(ctx, req, reply, user);
      return { next: `${ctx.config.relativePath}/`, uid: user.uid };
    },
  });
  app.post('/reset', {
    schema: { body: Type.Object({ email: Type.String({ maxLength: 1024 }) }), response: { 200: Type.Object({ sent: Type.Boolean() }) }, tags: ['auth'] },
    handler: async (req) => {
      await enforce(ctx.limiter, `reset:ip:${req.ip}`, ctx.config.rateLimits.register, 3600);
      await ctx.users.requestPasswordReset((req.body as { email: string }).email, req.ip);
      // The same answer whether or not the address is known, so it reveals no accounts.
      return { sent: true };
    },
  });
}
