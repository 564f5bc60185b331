import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { Str } from '../../http/input.js';
import { createTag, deleteTags, mergeTags, renameTag } from './admin-tags.js';

const TagName = Str({ minLength: 1, maxLength: 200 });
const AdminTagSchema = Type.Object({ value: Type.String(), valueEscaped: Type.String(), valueEncoded: Type.String(), score: Type.Number() });

/** The admins' tag routes: create, rename, merge, delete (admin/manage/tags). */
export function registerAdminTagRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post('/api/v3/admin/tags', {
    schema: { body: Type.Object({ tag: TagName }), response: { 200: Envelope(AdminTagSchema) }, tags: ['admin'] },
    handler: async (req) => ok(await createTag(ctx, req.viewer, req.body.tag)),
  });
  r.put('/api/v3/admin/tags/:tag', {
    schema: { params: Type.Object({ tag: TagName }), body: Type.Object({ name: TagName }), response: { 200: Envelope(AdminTagSchema) }, tags: ['admin'] },
    handler: async (req) => ok(await renameTag(ctx, req.viewer, req.params.tag, req.body.name)),
  });
  r.post('/api/v3/admin/tags/merge', {
    schema: { body: Type.Object({ tags: Type.Array(TagName, { minItems: 1, maxItems: 100 }), into: TagName }), response: { 200: Envelope(AdminTagSchema) }, tags: ['admin'] },
    handler: async (req) => ok(await mergeTags(ctx, req.viewer, req.body.tags, req.body.into)),
  });
  r.delete('/api/v3/admin/tags', {
    schema: { body: Type.Object({ tags: Type.Array(TagName, { minItems: 1, maxItems: 100 }) }), response: { 200: Envelope(Empty) }, tags: ['admin'] },
    handler: async (req) => {
      await deleteTags(ctx, req.viewer, req.body.tags);
      return ok({});
    },
  });
}
