import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ANALYTICS_METRICS, type AnalyticsMetric } from '../../../shared/schemas/dashboard.js';
import type { AppContext } from '../../context.js';
import { Envelope, ok } from '../../http/envelope.js';
import { Timestamp } from '../../http/input.js';

/** NodeBB's analytics query: hours or days, the end of the period (ms) and how many buckets. */
const AnalyticsQuery = Type.Object({
  units: Type.Optional(Type.Union([Type.Literal('hours'), Type.Literal('days')])),
  until: Type.Optional(Timestamp()),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

const Series = Type.Array(Type.Number());
const SetParams = Type.Object({ set: Type.Union(ANALYTICS_METRICS.map((m) => Type.Literal(m))) });

function parse(q: { units?: 'hours' | 'days'; until?: number; count?: number }) {
  const units = q.units ?? 'hours';
  return { units, until: q.until ?? Date.now(), count: q.count ?? (units === 'hours' ? 24 : 30) };
}

/**
 * The analytics: page views counted on every page answer (HTML or page data, guest cache hits
 * included: an in-memory increment, never a write), NodeBB's GET /api/admin/analytics and the
 * /api/v3/admin/analytics keys and sets.
 */
export function registerAnalyticsRoutes(scope: FastifyInstance, ctx: AppContext): void {
  scope.addHook('onResponse', (req, reply, done) => {
    if (req.routeOptions.config?.page && reply.statusCode === 200) {
      ctx.analytics.pageView((req.viewer?.uid ?? 0) > 0);
      const url = req.routeOptions.url;
      const term = (req.query as { term?: unknown } | undefined)?.term;
      if (url?.endsWith('/search') && typeof term === 'string' && term.trim()) ctx.analytics.increment('searches');
    }
    done();
  });

  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  r.get('/api/admin/analytics', {
    schema: {
      querystring: AnalyticsQuery,
      response: { 200: Type.Object({ query: Type.Record(Type.String(), Type.Unknown()), result: Type.Record(Type.String(), Series) }) },
      tags: ['admin'],
    },
    handler: async (req) => {
      const { units, until, count } = parse(req.query);
      return { query: req.query, result: await ctx.analytics.series(req.viewer, units, until, count) };
    },
  });
  r.get('/api/v3/admin/analytics', {
    schema: { response: { 200: Envelope(Type.Object({ keys: Type.Array(Type.String()) })) }, tags: ['admin'] },
    handler: async (req) => {
      // Reading the series checks the viewer: only administrators learn the keys.
      await ctx.analytics.series(req.viewer, 'hours', Date.now(), 1);
      return ok({ keys: [...ANALYTICS_METRICS] });
    },
  });
  r.get('/api/v3/admin/analytics/:set', {
    schema: { params: SetParams, querystring: AnalyticsQuery, response: { 200: Envelope(Series) }, tags: ['admin'] },
    handler: async (req) => {
      const { units, until, count } = parse(req.query);
      const all = await ctx.analytics.series(req.viewer, units, until, count);
      return ok(all[req.params.set as AnalyticsMetric]);
    },
  });
}
