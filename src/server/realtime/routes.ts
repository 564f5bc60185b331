import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Id } from '../http/input.js';
import { Type } from 'typebox';
import type { AppContext } from '../context.js';
import { UidParams } from '../domains/users/schemas.js';
import { USER_STATUSES } from '../domains/users/service.js';
import { Envelope, ok } from '../http/envelope.js';
import { notAuthorised, notFound } from '../http/errors.js';
import type { UserStatus } from './events.js';
import type { Presence } from './presence.js';

// Unsafe: a union mapped from the list would type as `never`; the schema is the same.
const Status = Type.Unsafe<UserStatus>(Type.Union(USER_STATUSES.map((s) => Type.Literal(s))));
// Any string reaches the handler, so a wrong status gets its own error key rather than a bare 400.
const UidStatusParams = Type.Object({ uid: Id(), status: Type.String({ maxLength: 20 }) });
const StatusAnswer = Envelope(Type.Object({ uid: Type.Integer(), status: Status }));
// NodeBB's GET answers the status alone (write/users/uid/status.yaml).
const StatusOnly = Envelope(Type.Object({ status: Status }));

/** NodeBB's status routes: read a member's status, check it, and (ours) choose one. */
export function registerStatusRoutes(parent: FastifyInstance, ctx: AppContext, presence: Presence): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/api/v3/users/:uid/status', {
    schema: { params: UidParams, response: { 200: StatusOnly }, tags: ['users'] },
    handler: async (req) => {
      const { uid } = req.params;
      await ctx.privileges.assert(req.viewer, 'view:users');
      const user = await ctx.users.get(uid);
      if (!user) throw notFound('error:no-user');
      return ok({ status: await presence.statusOf(uid, user.status) });
    },
  });

  // 200 when the member's status is the one named, 404 when not: NodeBB's HEAD check.
  app.head('/api/v3/users/:uid/status/:status', {
    schema: { params: UidStatusParams, response: { 200: Type.Null() }, tags: ['users'] },
    handler: async (req, reply) => {
      const { uid, status } = req.params;
      await ctx.privileges.assert(req.viewer, 'view:users');
      const user = await ctx.users.get(uid);
      if (!user || (await presence.statusOf(uid, user.status)) !== status) throw notFound();
      return reply.code(200).send(null);
    },
  });

  app.put('/api/v3/users/:uid/status/:status', {
    schema: { params: UidStatusParams, body: Type.Optional(Type.Object({})), response: { 200: StatusAnswer }, tags: ['users'] },
    handler: async (req) => {
      const { uid, status } = req.params;
      if (req.viewer.uid <= 0) throw notAuthorised();
      const user = await ctx.users.setStatus(req.viewer, uid, status);
      return ok({ uid, status: user.status as UserStatus });
    },
  });
}
