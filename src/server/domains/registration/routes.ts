import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { notAuthorised } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { UidParams } from '../users/schemas.js';

const UsernameParams = Type.Object({ username: Type.String({ minLength: 1, maxLength: 200 }) });

function member(v: Viewer): Viewer {
  if (v.uid <= 0) throw notAuthorised();
  return v;
}

/** Invitations, consent, the registration queue's accept/reject and its spam report. */
export function registerRegistrationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  // NodeBB's availability check, which its registration form asks as the name is typed: 200
  // when the name is taken (a member's, or held by a waiting registration), 404 when it is free.
  // Names are public on profiles; this says no more than a refused registration would.
  r.head('/api/v3/users/bySlug/:userslug', {
    schema: { params: Type.Object({ userslug: Type.String({ minLength: 1, maxLength: 1024 }) }), tags: ['users'] },
    handler: async (req, reply) => reply.code((await ctx.registration.nameTaken(req.params.userslug)) ? 200 : 404).send(),
  });
  r.post('/api/v3/users/:uid/invites', {
    schema: {
      params: UidParams,
      body: Type.Object({ emails: Type.String({ maxLength: 10_000 }), groupsToJoin: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 50 })) }),
      response: { 200: Envelope(Empty) },
      tags: ['users'],
    },
    handler: async (req) => {
      await ctx.registration.invite(member(req.viewer), req.params.uid, req.body.emails, req.body.groupsToJoin ?? []);
      return ok({});
    },
  });
  r.get('/api/v3/users/:uid/invites/groups', {
    schema: { params: UidParams, response: { 200: Envelope(Type.Array(Type.String())) }, tags: ['users'] },
    handler: async (req) => ok(await ctx.registration.inviteGroups(req.viewer, req.params.uid)),
  });
  r.put('/api/v3/users/:uid/consent', {
    schema: { params: UidParams, body: Type.Optional(Type.Object({ tos: Type.Optional(Type.Boolean()) })), response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      await ctx.registration.giveConsent(member(req.viewer), req.params.uid, req.body?.tos ?? false);
      return ok({});
    },
  });
  r.put('/api/v3/admin/registration-queue/:username', {
    schema: { params: UsernameParams, body: Type.Optional(Type.Object({})), response: { 200: Envelope(Type.Object({ uid: Type.Number() })) }, tags: ['admin'] },
    handler: async (req) => ok({ uid: (await ctx.registration.accept(member(req.viewer), req.params.username, req.ip)).uid }),
  });
  r.delete('/api/v3/admin/registration-queue/:username', {
    schema: { params: UsernameParams, response: { 200: Envelope(Empty) }, tags: ['admin'] },
    handler: async (req) => {
      await ctx.registration.reject(member(req.viewer), req.params.username, req.ip);
      return ok({});
    },
  });
  r.post('/api/user/:username/spam-be-gone/report/queue', {
    // No body (the spec's call) blocks both; the admin's page may keep either out.
    schema: { params: UsernameParams, body: Type.Optional(Type.Object({ blockIp: Type.Optional(Type.Boolean()), blockEmail: Type.Optional(Type.Boolean()) })), response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      await ctx.registration.reportQueued(member(req.viewer), req.params.username, req.ip, { ip: req.body?.blockIp, email: req.body?.blockEmail });
      return ok({});
    },
  });
}
