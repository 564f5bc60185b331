import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { badRequest, notAuthorised } from '../../http/errors.js';
import { twoFactor } from '../../plugins/two-factor/service.js';
import { UidParams } from '../users/schemas.js';
import { startSession } from './routes.js';
import { clearPendingLogin, pendingLogin } from './second-factor.js';
import * as security from './security.js';

const Str = (maxLength: number) => Type.String({ maxLength });
const CodeBody = Type.Object({ code: Str(64), next: Type.Optional(Str(2048)) });
const PasswordBody = Type.Object({ password: Type.Optional(Str(1024)) });
const NextAnswer = Type.Object({ next: Type.String() });
const Emails = Type.Object({ emails: Type.Array(Type.String()) });

/** Only a path inside the forum may be the `next` of a code: never another site. */
function safeNext(ctx: AppContext, next: string | undefined): string {
  const rp = ctx.config.relativePath;
  if (next && /^\/(?![/\\])/.test(next) && !next.includes('\\')) return next.startsWith(`${rp}/`) ? next : `${rp}${next}`;
  return `${rp}/`;
}

function member(req: FastifyRequest) {
  if (req.viewer.uid <= 0) throw notAuthorised();
  return req.viewer;
}

/**
 * Account security: the second login step and the admin re-authentication (/login/2fa/totp,
 * /login/2fa/backup), sessions, API tokens, email change and two-factor enrolment.
 */
export function registerSecurityRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const adminReloginMs = async () => (await ctx.settings.get()).adminReloginDuration * 60_000;

  for (const variant of ['totp', 'backup'] as const) {
    r.post(`/login/2fa/${variant}`, {
      schema: { body: CodeBody, response: { 200: NextAnswer }, tags: ['auth'] },
      handler: async (req, reply) => {
        const check = (uid: number) => (variant === 'totp' ? twoFactor(ctx).verifyTotp(uid, req.body.code) : twoFactor(ctx).verifyBackup(uid, req.body.code));
        const pending = pendingLogin(ctx, req);
        if (req.viewer.uid > 0 && req.sessionHash) {
          // Already logged in: the admin re-authentication (spec §6).
          await check(req.viewer.uid);
          await ctx.auth.markReauthenticated(req.sessionHash, await adminReloginMs());
          await ctx.events.log('two-factor-reauth', req.viewer.uid, { variant }, req.ip);
          return { next: safeNext(ctx, req.body.next) };
        }
        if (!pending) throw badRequest('error:two-factor-login-expired');
        const user = await ctx.users.get(pending.uid);
        if (!user || user.deleted === 1) throw badRequest('error:two-factor-login-expired');
        await ctx.users.assertNotBanned(user);
        await check(user.uid);
        clearPendingLogin(ctx, reply);
        await startSession(ctx, req, reply, user, await adminReloginMs());
        await ctx.events.log('two-factor-login', user.uid, { variant }, req.ip);
        return { next: safeNext(ctx, req.body.next) };
      },
    });
  }

  r.delete('/api/v3/users/:uid/sessions/:uuid', {
    schema: { params: Type.Object({ uid: UidParams.properties.uid, uuid: Str(64) }), response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      await security.revokeSession(ctx, member(req), req.params.uid, req.params.uuid);
      return ok({});
    },
  });
  r.delete('/api/v3/users/:uid/sessions', {
    schema: { params: UidParams, response: { 200: Envelope(Type.Object({ revoked: Type.Number() })) }, tags: ['users'] },
    handler: async (req) => ok({ revoked: await security.revokeOtherSessions(ctx, member(req), req.params.uid, req.sessionHash) }),
  });

  r.delete('/api/v3/users/:uid/tokens/:token', {
    schema: { params: Type.Object({ uid: UidParams.properties.uid, token: Str(200) }), response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      await security.revokeToken(ctx, member(req), req.params.uid, req.params.token);
      return ok({});
    },
  });

  r.get('/api/v3/users/:uid/emails', {
    schema: { params: UidParams, response: { 200: Envelope(Emails) }, tags: ['users'] },
    handler: async (req) => {
      const user = await security.securityTarget(ctx, member(req), req.params.uid);
      return ok({ emails: user.email ? [user.email] : [] });
    },
  });
  r.post('/api/v3/users/:uid/emails', {
    schema: {
      params: UidParams,
      body: Type.Object({ email: Str(1024), password: Type.Optional(Str(1024)), skipConfirmation: Type.Optional(Type.Union([Type.Boolean(), Type.Number(), Type.String({ maxLength: 10 })])) }),
      response: { 200: Envelope(Emails) },
      tags: ['users'],
    },
    handler: async (req) => {
      const out = await ctx.users.requestEmailChange(member(req), req.params.uid, req.body);
      // NodeBB's answer, the account's addresses: the old one stays until the new one is confirmed.
      return ok({ emails: out.email ? [out.email] : [] });
    },
  });

  r.post('/api/v3/users/:uid/2fa', {
    schema: { params: UidParams, body: Type.Optional(Type.Object({})), response: { 200: Envelope(Type.Object({ secret: Type.String(), uri: Type.String(), qr: Type.String() })) }, tags: ['users'] },
    handler: async (req) => ok(await security.beginTwoFactor(ctx, member(req), req.params.uid)),
  });
  r.put('/api/v3/users/:uid/2fa', {
    schema: { params: UidParams, body: Type.Object({ code: Str(64) }), response: { 200: Envelope(Type.Object({ backupCodes: Type.Array(Type.String()) })) }, tags: ['users'] },
    handler: async (req) => {
      const backupCodes = await security.confirmTwoFactor(ctx, member(req), req.params.uid, req.body.code);
      // The member just proved the key: the admin area is open without asking again at once.
      if (req.sessionHash) await ctx.auth.markReauthenticated(req.sessionHash, await adminReloginMs());
      return ok({ backupCodes });
    },
  });
  r.delete('/api/v3/users/:uid/2fa', {
    schema: { params: UidParams, body: PasswordBody, response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      await security.disableTwoFactor(ctx, member(req), req.params.uid, req.body.password);
      return ok({});
    },
  });
  r.post('/api/v3/users/:uid/2fa/backup-codes', {
    schema: { params: UidParams, body: PasswordBody, response: { 200: Envelope(Type.Object({ backupCodes: Type.Array(Type.String()) })) }, tags: ['users'] },
    handler: async (req) => ok({ backupCodes: await security.regenerateBackupCodes(ctx, member(req), req.params.uid, req.body.password) }),
  });
}
