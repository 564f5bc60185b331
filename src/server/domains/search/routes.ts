import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { defaultBody, NoBody } from '../topics/schemas.js';

const CategoryHit = Type.Object({
  cid: Type.Integer(),
  name: Type.String(),
  level: Type.Integer(),
  icon: Type.String(),
  bgColor: Type.String(),
  color: Type.String(),
  parentCid: Type.Integer(),
  imageClass: Type.Union([Type.Literal('auto'), Type.Literal('cover'), Type.Literal('contain')]),
  selected: Type.Boolean(),
});

const CategorySearchQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 255 })),
  query: Type.Optional(Type.String({ maxLength: 1000 })),
  // NodeBB reflects these back ("selected"); a single value or a comma list.
  parentCid: Type.Optional(Type.String({ maxLength: 1000 })),
  selectedCids: Type.Optional(Type.String({ maxLength: 1000 })),
  categoryTopicSort: Type.Optional(Type.String({ maxLength: 50 })),
  direction: Type.Optional(Type.String({ maxLength: 5 })),
});

/** /api/v3/search routes of the search domain (chat searches live with chats). */
export function registerSearchRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  // Palaver's own (NodeBB's dbsearch plugin rebuilds over its socket): queue a rebuild of the index.
  r.post('/api/v3/admin/search/reindex', {
    schema: { body: NoBody, response: { 200: Envelope(Empty) }, tags: ['admin'] },
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.search.queueReindex(req.viewer, req.ip);
      return ok({});
    },
  });
  r.get('/api/v3/search/categories', {
    schema: { querystring: CategorySearchQuery, response: { 200: Envelope(Type.Object({ categories: Type.Array(CategoryHit) })) }, tags: ['search'] },
    handler: async (req) => {
      const rows = await ctx.search.categories(req.viewer, req.query.search ?? '');
      const all = await ctx.categories.list(req.viewer);
      const depth = new Map<number, number>();
      for (const c of all) depth.set(c.cid, c.parent_cid && depth.has(c.parent_cid) ? depth.get(c.parent_cid)! + 1 : 0);
      const selected = new Set([...(req.query.selectedCids ?? '').split(','), ...(req.query.parentCid ?? '').split(',')].map(Number).filter((n) => n > 0));
      return ok({
        categories: rows.map((c) => ({ cid: c.cid, name: c.name, level: depth.get(c.cid) ?? 0, icon: c.icon, bgColor: c.bg_color, color: c.color, parentCid: c.parent_cid, imageClass: 'cover' as const, selected: selected.has(c.cid) })),
      });
    },
  });
}
