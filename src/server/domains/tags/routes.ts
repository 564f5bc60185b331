import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { cleanUpTag } from '../../../shared/validation.js';
import type { AppContext } from '../../context.js';
import { defaultBody, NoBody } from '../topics/schemas.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { notFound } from '../../http/errors.js';
import { TagParams, TagRefSchema } from './schemas.js';

/** /api/v3/tags routes (registered by the topic routes, which own the content area's wiring). */
export function registerTagRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  for (const [method, on] of [['put', true], ['delete', false]] as const) {
    r[method]('/api/v3/tags/:tag/follow', {
      schema: { params: TagParams, body: NoBody, response: { 200: Envelope(Empty) }, tags: ['tags'] },
      preValidation: defaultBody,
      handler: async (req) => {
        await ctx.privileges.assert(req.viewer, 'view:tags');
        await ctx.tags.follow(req.viewer.uid, req.params.tag, on);
        return ok({});
      },
    });
  }
  r.get('/api/v3/tags/:tag', {
    schema: { params: TagParams, response: { 200: Envelope(TagRefSchema) }, tags: ['tags'] },
    handler: async (req) => {
      await ctx.privileges.assert(req.viewer, 'view:tags');
      const tag = await ctx.tags.get(cleanUpTag(req.params.tag, Number.MAX_SAFE_INTEGER));
      if (!tag) throw notFound('error:no-tag');
      return ok(tag);
    },
  });
}
