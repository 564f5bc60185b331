import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { cookieOptions, SESSION_COOKIE } from '../../http/auth.js';
import { clearCookie, setCookie } from '../../http/cookies.js';
import { Envelope, ok } from '../../http/envelope.js';
import { forbidden } from '../../http/errors.js';
import { forumLanguage, guestLanguage } from '../../http/language.js';
import { twoFactor } from '../../plugins/two-factor/service.js';
import { setPendingLogin } from './second-factor.js';
import { hashSecret } from './service.js';
import { presentUserSlim } from '../users/presenter.js';
import type { UserRow } from '../users/store.js';
import { UserObjectSlimSchema } from '../../../shared/schemas/user.js';
import { RegisterAnswer, RegisterBody } from '../registration/schemas.js';
import { withLoginCaptcha } from '../../plugins/captcha/index.js';

// Fields are optional here so that a missing one gets its own error key from the service.
const LoginBody = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 1024 })),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  remember: Type.Optional(Type.Union([Type.Boolean(), Type.String()])),
  // The captcha's solution, asked for after repeated failed logins (plugins/captcha).
  altcha: Type.Optional(Type.String({ maxLength: 4096 })),
  // reCAPTCHA's or hCaptcha's token instead, when the admin chose one of them.
  'g-recaptcha-response': Type.Optional(Type.String({ maxLength: 8192 })),
  'h-captcha-response': Type.Optional(Type.String({ maxLength: 8192 })),
});
const NextSchema = Type.Object({ next: Type.String(), uid: Type.Number() });

/**
 * Starts a session for a member and sets the cookie: sessions and cookies are the HTTP layer's.
 * `reauthMs`: the member just passed their second factor, so the admin area is open that long.
 * `remember` ("remember me" on the login form, as NodeBB's): the cookie lasts the forum's
 * `sessionDays` (NodeBB's loginDays) across browser restarts; without it the cookie is the
 * browser session's and goes when the browser closes.
 */
export async function startSession(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, user: Pick<UserRow, 'uid'>, reauthMs = 0, remember = true): Promise<void> {
  const settings = await ctx.settings.get();
  if (req.sessionHash) await ctx.auth.destroySession(req.sessionHash, req.viewer.uid);
  const id = await ctx.auth.createSession(user.uid, req.ip, req.headers['user-agent'] ?? '', settings.sessionDays);
  if (reauthMs > 0) await ctx.auth.markReauthenticated(hashSecret(id), reauthMs);
  setCookie(reply, SESSION_COOKIE, id, cookieOptions(ctx, remember ? settings.sessionDays * 86400 : undefined));
  await ctx.hooks.fire('action:user.loggedIn', { uid: user.uid, sessionId: id, ip: req.ip });
}

/** Login, logout, registration and password-reset requests (forms and JSON). */
export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  // A member with a two-factor key gets no session from the password alone: a signed cookie
  // remembers the right password for a few minutes and /login/2fa asks for the code.
  const login = async (req: FastifyRequest, reply: FastifyReply, body: { username?: string; password?: string; altcha?: string; 'g-recaptcha-response'?: string; 'h-captcha-response'?: string; remember?: boolean | string }) => {
    const user = await withLoginCaptcha(ctx, req.ip, body, (captcha) => ctx.users.login(body.username ?? '', body.password ?? '', req.ip, captcha));
    const remember = body.remember === true || body.remember === 'on' || body.remember === 'true';
    if (await twoFactor(ctx).hasKey(user.uid)) {
      setPendingLogin(ctx, reply, user.uid, remember);
      return { user, pending: true };
    }
    await startSession(ctx, req, reply, user, 0, remember);
    return { user, pending: false };
  };
  r.post('/login', {
    schema: { body: LoginBody, response: { 200: NextSchema }, tags: ['auth'] },
    handler: async (req, reply) => {
      const { user, pending } = await login(req, reply, req.body);
      if (pending) return { next: `${ctx.config.relativePath}/login/2fa`, uid: 0 };
      return { next: `${ctx.config.relativePath}/`, uid: user.uid };
    },
  });
  r.post('/api/v3/utilities/login', {
    schema: { body: LoginBody, response: { 200: Envelope(UserObjectSlimSchema) }, tags: ['utilities'] },
    handler: async (req, reply) => {
      const { user, pending } = await login(req, reply, req.body);
      // The API answers a member, never a half-logged-in one: the code goes to POST /login/2fa/totp.
      if (pending) throw forbidden('error:two-factor-login-required');
      return ok(presentUserSlim(user));
    },
  });
  r.post('/logout', {
    schema: { body: Type.Optional(Type.Object({})), response: { 200: NextSchema }, tags: ['auth'] },
    handler: async (req, reply) => {
      const uid = req.viewer.uid;
      if (req.sessionHash) {
        await ctx.auth.destroySession(req.sessionHash, uid);
        await ctx.hooks.fire('action:user.loggedOut', { uid, sessionId: req.sessionHash });
      }
      clearCookie(reply, SESSION_COOKIE, cookieOptions(ctx));
      return { next: `${ctx.config.relativePath}/`, uid: 0 };
    },
  });
  r.post('/register', {
    schema: { body: RegisterBody, response: { 200: RegisterAnswer }, tags: ['auth'] },
    handler: async (req, reply) => {
      // The registration domain follows the forum's registration type: a member, or a place in the approval queue.
      // The newcomer keeps reading the language they registered in (the footer's choice or the browser's).
      const settings = await ctx.settings.get();
      const lang = guestLanguage(req, settings);
      const out = await ctx.registration.register(req.body, req.ip, lang !== forumLanguage(settings) ? lang : undefined);
      // "You will receive an email once accepted" only when the forum can send one.
      if (!out.user) return { next: `${ctx.config.relativePath}/`, uid: 0, message: (await ctx.mail.configured()) ? '[[register:registration-added-to-queue]]' : '[[register:registration-added-to-queue-no-mail]]' };
      await startSession(ctx, req, reply, out.user);
      return { next: `${ctx.config.relativePath}/`, uid: out.user.uid };
    },
  });
  r.post('/reset', {
    schema: { body: Type.Object({ email: Type.String({ maxLength: 1024 }) }), response: { 200: Type.Object({ sent: Type.Boolean() }) }, tags: ['auth'] },
    handler: async (req) => {
      await ctx.users.resetRequest(req.body.email, req.ip);
      // The same answer whether or not the address is known, so it reveals no accounts; `sent`
      // is false when the forum cannot send mail (the link waits in the outbox).
      return { sent: await ctx.mail.configured() };
    },
  });
}
