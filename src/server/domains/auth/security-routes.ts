import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createHash } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TProperties } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { badRequest, notAuthorised, notFound } from '../../http/errors.js';
import { twoFactor, type TwoFactorVariant } from '../../plugins/two-factor/service.js';
import { UidParams } from '../users/schemas.js';
import { startSession } from './routes.js';
import { clearPendingLogin, PENDING_COOKIE, pendingLogin } from './second-factor.js';
import * as security from './security.js';

const Str = (maxLength: number) => Type.String({ maxLength });
const CodeBody = Type.Object({ code: Str(64), next: Type.Optional(Str(2048)) });
const PasswordBody = Type.Object({ password: Type.Optional(Str(1024)) });
const NextAnswer = Type.Object({ next: Type.String() });
const Emails = Type.Object({ emails: Type.Array(Type.String()) });
/** NodeBB's re-authentication window of its API routes (requireAPIReAuth's two minutes). */
const REAUTH_API_MS = 2 * 60_000;

// WebAuthn's JSON forms (base64url strings), as @simplewebauthn/browser sends them.
const B64 = (maxLength: number) => Type.String({ maxLength, pattern: '^[A-Za-z0-9_-]*$' });
const Extensions = Type.Object({}, { additionalProperties: true });
const Attachment = Type.Optional(Type.String({ maxLength: 32 }));
/** What both ceremonies' answers share: the credential's id and type around the ceremony's own response. */
const Credential = <R extends TProperties>(response: R) =>
  Type.Object({
    id: B64(1024),
    rawId: B64(1024),
    type: Type.Literal('public-key'),
    authenticatorAttachment: Attachment,
    clientExtensionResults: Extensions,
    response: Type.Object(response),
  });
const RegistrationResponse = Credential({
  clientDataJSON: B64(4096),
  attestationObject: B64(65536),
  authenticatorData: Type.Optional(B64(65536)),
  transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 })),
  publicKeyAlgorithm: Type.Optional(Type.Number()),
  publicKey: Type.Optional(B64(8192)),
});
const AuthenticationResponse = Credential({
  clientDataJSON: B64(4096),
  authenticatorData: B64(65536),
  signature: B64(8192),
  userHandle: Type.Optional(B64(1024)),
});
/** The options for navigator.credentials.create() / get(), as @simplewebauthn/server makes them. */
const WebAuthnOptions = Type.Object({ challenge: Type.String() }, { additionalProperties: true });
const SecurityKeySchema = Type.Object({
  id: Type.String(),
  label: Type.String(),
  transports: Type.Array(Type.String()),
  created: Type.Number(),
  createdISO: Type.String(),
  lastUsed: Type.Number(),
  lastUsedISO: Type.String(),
});

/** Only a path inside the forum may be the `next` of a code: never another site. */
function safeNext(ctx: AppContext, next: string | undefined): string {
  const rp = ctx.config.relativePath;
  if (next && /^\/(?![/\\])/.test(next) && !next.includes('\\')) return next.startsWith(`${rp}/`) ? next : `${rp}${next}`;
  return `${rp}/`;
}

/** The owner of a logged-in member's WebAuthn challenge: their session, or their API token's member. */
function challengeOwner(req: FastifyRequest): string {
  return req.sessionHash ? `s:${req.sessionHash}` : `u:${req.viewer.uid}`;
}

function member(req: FastifyRequest) {
  if (req.viewer.uid <= 0) throw notAuthorised();
  return req.viewer;
}

/**
 * Account security: the second login step and the admin re-authentication (/login/2fa/totp,
 * /login/2fa/backup, /login/2fa/authn), sessions, API tokens, email change, two-factor
 * enrolment and security keys.
 */
export function registerSecurityRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const adminReloginMs = async () => (await ctx.settings.get()).adminReloginDuration * 60_000;

  /**
   * The second step's last part, for every variant: `check` proves the factor of the member.
   * Logged in already: the admin re-authentication (spec §6). Otherwise the login waiting in
   * the pending cookie gets its session.
   */
  const secondStep = async (req: FastifyRequest, reply: FastifyReply, variant: TwoFactorVariant, next: string | undefined, check: (uid: number) => Promise<void>) => {
    const pending = pendingLogin(ctx, req);
    if (req.viewer.uid > 0 && req.sessionHash) {
      await check(req.viewer.uid);
      await ctx.auth.markReauthenticated(req.sessionHash, await adminReloginMs());
      await ctx.events.log('two-factor-reauth', req.viewer.uid, { variant }, req.ip);
      return { next: safeNext(ctx, next) };
    }
    if (!pending) throw badRequest('error:two-factor-login-expired');
    const user = await ctx.users.get(pending.uid);
    if (!user || user.deleted === 1) throw badRequest('error:two-factor-login-expired');
    await ctx.users.assertNotBanned(user);
    await check(user.uid);
    clearPendingLogin(ctx, reply);
    await startSession(ctx, req, reply, user, await adminReloginMs(), pending.remember);
    await ctx.events.log('two-factor-login', user.uid, { variant }, req.ip);
    return { next: safeNext(ctx, next) };
  };

  for (const variant of ['totp', 'backup'] as const) {
    r.post(`/login/2fa/${variant}`, {
      schema: { body: CodeBody, response: { 200: NextAnswer }, tags: ['auth'] },
      handler: async (req, reply) =>
        secondStep(req, reply, variant, req.body.next, (uid) => (variant === 'totp' ? twoFactor(ctx).verifyTotp(uid, req.body.code) : twoFactor(ctx).verifyBackup(uid, req.body.code))),
    });
  }

  /**
   * Who is proving a factor here, and the owner of their WebAuthn challenge: the session
   * (re-authentication) or the waiting login (its pending cookie, hashed).
   */
  const prover = async (req: FastifyRequest): Promise<{ uid: number; owner: string }> => {
    if (req.viewer.uid > 0 && req.sessionHash) return { uid: req.viewer.uid, owner: `s:${req.sessionHash}` };
    const pending = pendingLogin(ctx, req);
    const user = pending ? await ctx.users.get(pending.uid) : undefined;
    if (!pending || !user || user.deleted === 1) throw badRequest('error:two-factor-login-expired');
    return { uid: user.uid, owner: `p:${createHash('sha256').update(req.cookies[PENDING_COOKIE]!).digest('base64url')}` };
  };

  // The variants the member proving a factor may use (the login page's links between them).
  r.get('/login/2fa/variants', {
    schema: { response: { 200: Type.Object({ variants: Type.Array(Type.String()) }) }, tags: ['auth'] },
    handler: async (req) => ({ variants: await twoFactor(ctx).variants((await prover(req)).uid) }),
  });
  // WebAuthn (variant `authn`): the options for navigator.credentials.get(), then its answer.
  r.post('/login/2fa/authn/options', {
    schema: { body: Type.Optional(Type.Object({})), response: { 200: WebAuthnOptions }, tags: ['auth'] },
    handler: async (req) => {
      const { uid, owner } = await prover(req);
      return security.securityKeyChallenge(ctx, uid, owner);
    },
  });
  r.post('/login/2fa/authn', {
    schema: { body: Type.Object({ response: AuthenticationResponse, next: Type.Optional(Str(2048)) }), response: { 200: NextAnswer }, tags: ['auth'] },
    handler: async (req, reply) => {
      const { owner } = await prover(req);
      return secondStep(req, reply, 'authn', req.body.next, (uid) => security.verifySecurityKey(ctx, uid, owner, req.body.response as AuthenticationResponseJSON));
    },
  });

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
  // 204 when the address is the member's, 404 when it is not (NodeBB's answers).
  r.get('/api/v3/users/:uid/emails/:email', {
    schema: { params: Type.Object({ uid: UidParams.properties.uid, email: Str(1024) }), response: { 204: Type.Null() }, tags: ['users'] },
    handler: async (req, reply) => {
      if (!(await security.hasEmail(ctx, member(req), req.params.uid, req.params.email))) throw notFound('error:no-email');
      return reply.code(204).send(null);
    },
  });
  // NodeBB's route (src/routes/write/users.js) answers `{ verified: true }` itself, outside the
  // v3 envelope, when the session logged in or re-authenticated within two minutes
  // (requireAPIReAuth), 401 otherwise (a bearer token has no session: 401).
  // Palaver also takes the member's `password`: right, verified (the session's admin
  // re-authentication is left as it is: a password alone does not stand for the second factor);
  // wrong, 403.
  r.post('/api/v3/users/reauth/verify', {
    schema: { body: Type.Optional(PasswordBody), response: { 200: Type.Object({ verified: Type.Boolean() }) }, tags: ['users'] },
    handler: async (req) => {
      const viewer = member(req);
      const password = req.body?.password;
      if (password !== undefined) {
        await security.verifyReauth(ctx, viewer, password);
      } else if (!req.sessionHash || !(await ctx.auth.recentlyAuthenticated(req.sessionHash, REAUTH_API_MS))) {
        throw notAuthorised();
      }
      return { verified: true };
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
  // Security keys (WebAuthn) of the 2factor page: list, add (options, then the browser's answer), rename, remove.
  const KeyParams = Type.Object({ uid: UidParams.properties.uid, id: Type.String({ minLength: 1, maxLength: 1024, pattern: '^[A-Za-z0-9_-]+$' }) });
  const Label = Type.String({ minLength: 1, maxLength: 200 });
  r.get('/api/v3/users/:uid/2fa/authn', {
    schema: { params: UidParams, response: { 200: Envelope(Type.Object({ keys: Type.Array(SecurityKeySchema) })) }, tags: ['users'] },
    handler: async (req) => ok({ keys: await security.listSecurityKeys(ctx, member(req), req.params.uid) }),
  });
  r.post('/api/v3/users/:uid/2fa/authn/options', {
    schema: { params: UidParams, body: Type.Optional(Type.Object({})), response: { 200: Envelope(WebAuthnOptions) }, tags: ['users'] },
    handler: async (req) => ok(await security.securityKeyOptions(ctx, member(req), req.params.uid, challengeOwner(req))),
  });
  r.post('/api/v3/users/:uid/2fa/authn', {
    schema: {
      params: UidParams,
      body: Type.Object({ label: Label, response: RegistrationResponse }),
      response: { 200: Envelope(Type.Object({ key: SecurityKeySchema, backupCodes: Type.Union([Type.Array(Type.String()), Type.Null()]) })) },
      tags: ['users'],
    },
    handler: async (req) => {
      const out = await security.addSecurityKey(ctx, member(req), req.params.uid, challengeOwner(req), req.body.response as RegistrationResponseJSON, req.body.label);
      // The member just proved the key: the admin area is open without asking again at once.
      if (req.sessionHash) await ctx.auth.markReauthenticated(req.sessionHash, await adminReloginMs());
      return ok(out);
    },
  });
  r.put('/api/v3/users/:uid/2fa/authn/:id', {
    schema: { params: KeyParams, body: Type.Object({ label: Label }), response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      await security.renameSecurityKey(ctx, member(req), req.params.uid, req.params.id, req.body.label);
      return ok({});
    },
  });
  r.delete('/api/v3/users/:uid/2fa/authn/:id', {
    schema: { params: KeyParams, body: PasswordBody, response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      await security.removeSecurityKey(ctx, member(req), req.params.uid, req.params.id, req.body.password);
      return ok({});
    },
  });
  r.post('/api/v3/users/:uid/2fa/backup-codes', {
    schema: { params: UidParams, body: PasswordBody, response: { 200: Envelope(Type.Object({ backupCodes: Type.Array(Type.String()) })) }, tags: ['users'] },
    handler: async (req) => ok({ backupCodes: await security.regenerateBackupCodes(ctx, member(req), req.params.uid, req.body.password) }),
  });
}
