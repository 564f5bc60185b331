import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { Envelope, ok } from '../../http/envelope.js';
import { presentWritten } from './presenter.js';
import { CategoryWriteSchema, CidParams, CopySettingsBody } from './schemas.js';

/**
 * The admin category page's own write (NodeBB does it over its socket): copy another category's
 * settings, and with `privileges` its grants. Create, edit, reorder and delete use the v3
 * /categories routes. The service checks that the actor is an administrator.
 */
export function registerAdminCategoryRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  r.post('/api/v3/admin/categories/:cid/copy-settings', {
    schema: { params: CidParams, body: CopySettingsBody, response: { 200: Envelope(CategoryWriteSchema) }, tags: ['admin'] },
    handler: async (req) => {
      const { fromCid, privileges, parent } = req.body;
      const row = await ctx.categories.copySettings(req.viewer, req.params.cid, fromCid, { privileges, parent }, req.ip);
      const s = await ctx.settings.get();
      return ok(presentWritten(row, { minTags: s.minimumTagsPerTopic, maxTags: s.maximumTagsPerTopic }));
    },
  });
}
