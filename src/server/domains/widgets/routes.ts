import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { WidgetSaveSchema } from '../../../shared/schemas/widgets.js';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { Id } from '../../http/input.js';
import { widgetsOf } from './service.js';

/**
 * The widgets' write routes (NodeBB saves them through the socket call `admin.widgets.set`):
 * PUT replaces the widgets of the given areas of one template, DELETE removes one widget.
 */
export function registerWidgetRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get('/api/v3/admin/widgets', {
    schema: { response: { 200: Envelope(Type.Object({ widgets: Type.Array(Type.Object({}, { additionalProperties: true })) })) }, tags: ['admin'] },
    handler: async (req) => ok({ widgets: await widgetsOf(ctx).list(req.viewer) }),
  });
  r.put('/api/v3/admin/widgets', {
    schema: { body: WidgetSaveSchema, response: { 200: Envelope(Type.Object({ widgets: Type.Array(Type.Object({}, { additionalProperties: true })) })) }, tags: ['admin'] },
    handler: async (req) => ok({ widgets: await widgetsOf(ctx).save(req.viewer, req.body, req.ip) }),
  });
  r.delete('/api/v3/admin/widgets/:id', {
    schema: { params: Type.Object({ id: Id() }), response: { 200: Envelope(Empty) }, tags: ['admin'] },
    handler: async (req) => {
      await widgetsOf(ctx).delete(req.viewer, req.params.id, req.ip);
      return ok({});
    },
  });
}
