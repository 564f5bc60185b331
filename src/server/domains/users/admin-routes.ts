import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { Str } from '../../http/input.js';
import { defaultBody, NoBody } from '../topics/schemas.js';
import { adminConfirmEmail, adminForcePasswordReset, saveCustomFields, usersCsv } from './admin-users.js';
import { UidParams } from './schemas.js';

const FieldSchema = Type.Object({
  key: Str({ maxLength: 50 }),
  name: Str({ maxLength: 200 }),
  type: Type.Union([Type.Literal('text'), Type.Literal('url'), Type.Literal('number'), Type.Literal('select')]),
  options: Type.Array(Str({ maxLength: 200 }), { maxItems: 100 }),
  visibility: Type.Union([Type.Literal('all'), Type.Literal('loggedin'), Type.Literal('privileged')]),
});

/**
 * The admin's member routes: confirm an address (NodeBB's POST /users/{uid}/emails/{email}/confirm),
 * force a password reset, the admin-defined profile fields and the CSV export
 * (NodeBB's GET /api/admin/users/csv). Ban, unban, delete and group membership are the
 * existing /api/v3 routes.
 */
export function registerAdminUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post('/api/v3/users/:uid/emails/:email/confirm', {
    schema: { params: Type.Object({ uid: UidParams.properties.uid, email: Str({ maxLength: 1024 }) }), body: NoBody, response: { 200: Envelope(Empty) }, tags: ['users'] },
    preValidation: defaultBody,
    handler: async (req) => {
      await adminConfirmEmail(ctx, req.viewer, req.params.uid, req.params.email);
      return ok({});
    },
  });
  r.post('/api/v3/users/:uid/password/reset', {
    schema: { params: UidParams, body: NoBody, response: { 200: Envelope(Empty) }, tags: ['users'] },
    preValidation: defaultBody,
    handler: async (req) => {
      await adminForcePasswordReset(ctx, req.viewer, req.params.uid, req.ip);
      return ok({});
    },
  });
  r.put('/api/v3/admin/users/custom-fields', {
    schema: { body: Type.Object({ fields: Type.Array(FieldSchema, { maxItems: 100 }) }), response: { 200: Envelope(Type.Object({ fields: Type.Array(FieldSchema) })) }, tags: ['admin'] },
    handler: async (req) => ok({ fields: await saveCustomFields(ctx, req.viewer, req.body.fields, req.ip) }),
  });
  r.get('/api/admin/users/csv', {
    schema: { response: { 200: Type.Unsafe<NodeJS.ReadableStream>({ type: 'string', description: 'every member as CSV' }) }, tags: ['admin'] },
    handler: async (req, reply) => {
      const stream = usersCsv(ctx, req.viewer);
      void reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="users.csv"').header('cache-control', 'no-store');
      return reply.send(stream);
    },
  });
}
