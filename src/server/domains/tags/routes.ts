import type { FastifyInstance } from 'fastify';
import { cleanUpTag } from '../../../shared/validation.js';
import type { AppContext } from '../../context.js';
import { Envelope, ok } from '../../http/envelope.js';
import { notFound } from '../../http/errors.js';
import { TagParams, TagRefSchema } from './schemas.js';

/** /api/v3/tags routes (registered by the topic routes, which own the content area's wiring). */
export function registerTagRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/v3/tags/:tag', {
    schema: { params: TagParams, response: { 200: Envelope(TagRefSchema) }, tags: ['tags'] },
    handler: async (req) => {
      await ctx.privileges.assert(req.viewer, 'view:tags');
      const tag = await ctx.tags.get(cleanUpTag((req.params as { tag: string }).tag, Number.MAX_SAFE_INTEGER));
      if (!tag) throw notFound('error:no-tag');
      return ok(tag);
    },
  });
}
