import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { NotificationObjectSchema } from '../../../shared/schemas/notification.js';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { Str } from '../../http/input.js';
import { presentMany, typesOf } from './view.js';

const NidParams = Type.Object({ nid: Str({ minLength: 1, maxLength: 255 }) });
const NoBody = Type.Optional(Type.Object({}));
const ListQuery = Type.Object({ filter: Type.Optional(Str({ maxLength: 64 })) });
// The dropdown list (NodeBB answers its recent ones, unread first).
const LIST_SIZE = 30;

/** /api/v3/notifications routes: the member's own notifications, as NodeBB documents them. */
export function registerNotificationRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['notifications'];

  app.get('/api/v3/notifications', {
    schema: { querystring: ListQuery, response: { 200: Envelope(Type.Object({ unread: Type.Array(NotificationObjectSchema), read: Type.Array(NotificationObjectSchema) })) }, tags },
    handler: async (req) => {
      const types = typesOf(req.query.filter);
      const unread = await ctx.notifications.list(req.viewer, { types, read: 0, page: 1, perPage: LIST_SIZE });
      const read = unread.rows.length < LIST_SIZE ? await ctx.notifications.list(req.viewer, { types, read: 1, page: 1, perPage: LIST_SIZE - unread.rows.length }) : { rows: [] };
      const [u, r] = await Promise.all([presentMany(ctx, unread.rows), presentMany(ctx, read.rows)]);
      return ok({ unread: u, read: r });
    },
  });

  app.get('/api/v3/notifications/count', {
    schema: { response: { 200: Envelope(Type.Object({ unread: Type.Number() })) }, tags },
    handler: async (req) => ok({ unread: await ctx.notifications.unreadCount(req.viewer) }),
  });

  // Palaver's own: NodeBB marks all read through a socket call.
  app.put('/api/v3/notifications/read', {
    schema: { body: NoBody, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await ctx.notifications.markAllRead(req.viewer);
      return ok({});
    },
  });

  app.get('/api/v3/notifications/:nid', {
    schema: { params: NidParams, response: { 200: Envelope(Type.Object({ notification: NotificationObjectSchema })) }, tags },
    handler: async (req) => {
      const row = await ctx.notifications.get(req.viewer, req.params.nid);
      return ok({ notification: (await presentMany(ctx, [row]))[0]! });
    },
  });

  // Palaver's own: NodeBB documents no deletion of one notification.
  app.delete('/api/v3/notifications/:nid', {
    schema: { params: NidParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await ctx.notifications.delete(req.viewer, req.params.nid);
      return ok({});
    },
  });

  for (const [method, read] of [['put', true], ['delete', false]] as const) {
    app[method]('/api/v3/notifications/:nid/read', {
      schema: { params: NidParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
      handler: async (req) => {
        await ctx.notifications.setRead(req.viewer, req.params.nid, read);
        return ok({});
      },
    });
  }
}
