import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { defaultBody } from '../topics/schemas.js';
import { deleteMember, deleteMembers, type DeleteDeps, type DeletionKind } from './delete.js';
import { Id } from '../../http/input.js';
import { UidParams } from './schemas.js';

/** NodeBB sends the member's password in the DELETE's body. */
const DeleteBody = Type.Optional(Type.Object({ password: Type.Optional(Type.String({ maxLength: 1024 })) }));

/**
 * DELETE /api/v3/users/:uid/account (keep the content) and /api/v3/users/:uid (the account and
 * its content), as NodeBB's write API. DELETE …/content (content only, for moderators) is the
 * moderation domain's.
 */
export function registerDeletionRoutes(app: FastifyInstance, ctx: DeleteDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const routes: [string, DeletionKind][] = [
    ['/api/v3/users/:uid', 'both'],
    ['/api/v3/users/:uid/account', 'account'],
  ];
  r.delete('/api/v3/users', {
    schema: { body: Type.Object({ uids: Type.Array(Id(), { minItems: 1, maxItems: 100 }) }), response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      await deleteMembers(ctx, req.viewer, req.body.uids, req.ip);
      return ok({});
    },
  });
  for (const [url, kind] of routes) {
    r.delete(url, {
      schema: { params: UidParams, body: DeleteBody, response: { 200: Envelope(Empty) }, tags: ['users'] },
      preValidation: defaultBody,
      handler: async (req) => {
        await deleteMember(ctx, req.viewer, req.params.uid, kind, { password: req.body?.password, viaToken: viaToken(req), ip: req.ip });
        return ok({});
      },
    });
  }
}

function viaToken(req: FastifyRequest): boolean {
  return req.authKind === 'token';
}
