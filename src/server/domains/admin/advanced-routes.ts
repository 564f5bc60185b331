import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { csvRow } from '../../http/csv.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { assertAdmin } from '../privileges/service.js';
import { errorCounterOf } from './advanced-errors.js';
import { logRing } from './advanced-logs.js';
import { clearCache } from './advanced-stats.js';

/**
 * The advanced section's writes and export: clear a cache (every process), clear the
 * recorded errors, the errors as CSV (NodeBB's /admin/advanced/errors/export), clear the
 * kept log lines. Also counts every 404 and 5xx answer for the errors page.
 */
export function registerAdvancedRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const counter = errorCounterOf(ctx);
  app.addHook('onResponse', (req, reply, done) => {
    if (reply.statusCode === 404 || reply.statusCode >= 500) counter.record(reply.statusCode, req.url.slice(ctx.config.relativePath.length));
    done();
  });
  app.addHook('onClose', async () => {
    counter.stop();
    await counter.flush().catch(() => undefined);
  });
  r.delete('/api/v3/admin/cache/:name', {
    schema: { params: Type.Object({ name: Type.Union([Type.Literal('guestPages'), Type.Literal('settings'), Type.Literal('privileges'), Type.Literal('widgets'), Type.Literal('statements')]) }), response: { 200: Envelope(Empty) }, tags: ['admin'] },
    handler: async (req) => {
      assertAdmin(req.viewer);
      clearCache(ctx, req.params.name);
      await ctx.events.log('cache-clear', req.viewer.uid, { name: req.params.name }, req.ip);
      return ok({});
    },
  });
  r.delete('/api/v3/admin/errors', {
    schema: { response: { 200: Envelope(Empty) }, tags: ['admin'] },
    handler: async (req) => {
      assertAdmin(req.viewer);
      await counter.clear();
      await ctx.events.log('errors-clear', req.viewer.uid, {}, req.ip);
      return ok({});
    },
  });
  r.delete('/api/v3/admin/logs', {
    schema: { response: { 200: Envelope(Empty) }, tags: ['admin'] },
    handler: async (req) => {
      assertAdmin(req.viewer);
      logRing.clear();
      return ok({});
    },
  });
  r.get('/api/admin/advanced/errors/export', {
    schema: { response: { 200: Type.String() }, tags: ['admin'] },
    handler: async (req, reply) => {
      assertAdmin(req.viewer);
      const rows = [...(await counter.list('not-found', 100_000)), ...(await counter.list('server-error', 100_000))];
      const csv = [csvRow(['status', 'path', 'count', 'lastSeen']), ...rows.map((e) => csvRow([e.status, e.path, e.count, new Date(e.lastSeen).toISOString()]))].join('');
      return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="errors.csv"').send(csv);
    },
  });
}
