import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { notAuthorised } from '../../http/errors.js';
import { UidParams } from './schemas.js';

const PictureBody = Type.Object({
  type: Type.Optional(Type.Union([Type.Literal('default'), Type.Literal('uploaded'), Type.Literal('external')])),
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  bgColor: Type.Optional(Type.String({ maxLength: 20 })),
});
const CoverBody = Type.Object({ position: Type.String({ maxLength: 40 }) });
const CoverAnswer = Type.Object({ 'cover:url': Type.String(), 'cover:position': Type.String() });

/**
 * The picture and cover routes of a profile: NodeBB's `PUT /users/{uid}/picture` (back to the
 * letter avatar, or a picture by URL), and Palaver's own cover routes (NodeBB moves covers
 * over its socket): `PUT /users/{uid}/cover` moves it, `DELETE` removes it. The cover upload
 * itself is multipart, with the uploads domain's routes.
 */
export function registerProfileRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.put('/api/v3/users/:uid/picture', {
    schema: { params: UidParams, body: PictureBody, response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      if (req.viewer.uid <= 0) throw notAuthorised();
      await ctx.users.choosePicture(req.viewer, req.params.uid, req.body.type ?? 'default', req.body.url ?? '');
      return ok({});
    },
  });
  r.put('/api/v3/users/:uid/cover', {
    schema: { params: UidParams, body: CoverBody, response: { 200: Envelope(CoverAnswer) }, tags: ['users'] },
    handler: async (req) => {
      if (req.viewer.uid <= 0) throw notAuthorised();
      const row = await ctx.users.setCover(req.viewer, req.params.uid, { position: req.body.position });
      return ok({ 'cover:url': row.cover_url, 'cover:position': row.cover_position });
    },
  });
  r.delete('/api/v3/users/:uid/cover', {
    schema: { params: UidParams, response: { 200: Envelope(CoverAnswer) }, tags: ['users'] },
    handler: async (req) => {
      if (req.viewer.uid <= 0) throw notAuthorised();
      const row = await ctx.users.setCover(req.viewer, req.params.uid, { url: '' });
      return ok({ 'cover:url': row.cover_url, 'cover:position': row.cover_position });
    },
  });
}
