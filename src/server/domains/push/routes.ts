import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { PUSH_LIMITS, PushDeviceSchema, VapidKeySchema } from '../../../shared/schemas/push.js';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { Id, Str, Timestamp } from '../../http/input.js';

const SubscribeBody = Type.Object({
  subscription: Type.Object({
    endpoint: Str({ minLength: 1, maxLength: PUSH_LIMITS.endpoint }),
    expirationTime: Type.Optional(Type.Union([Timestamp(), Type.Null()])),
    keys: Type.Object({
      p256dh: Str({ minLength: 1, maxLength: PUSH_LIMITS.p256dh }),
      auth: Str({ minLength: 1, maxLength: PUSH_LIMITS.auth }),
    }),
  }),
});
const EndpointBody = Type.Object({ endpoint: Str({ minLength: 1, maxLength: PUSH_LIMITS.endpoint }) });
const IdParams = Type.Object({ id: Id() });
const NoBody = Type.Optional(Type.Object({}));

/**
 * Web push under NodeBB's plugin prefix (`/api/v3/plugins/web-push/…`): the public VAPID key,
 * and the viewer's browser subscriptions (subscribe, unsubscribe this browser, list, remove one).
 */
export function registerPushRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['web-push'];
  const base = '/api/v3/plugins/web-push';

  app.get(`${base}/vapid`, {
    schema: { response: { 200: Envelope(VapidKeySchema) }, tags },
    handler: async () => ok({ publicKey: await ctx.push.publicKey() }),
  });

  app.get(`${base}/subscriptions`, {
    schema: { response: { 200: Envelope(Type.Object({ devices: Type.Array(PushDeviceSchema) })) }, tags },
    handler: async (req) => ok({ devices: await ctx.push.ownDevices(req.viewer) }),
  });

  app.post(`${base}/subscription`, {
    schema: { body: SubscribeBody, response: { 200: Envelope(Type.Object({ id: Type.Number() })) }, tags },
    handler: async (req) => {
      const ua = typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : '';
      return ok({ id: await ctx.push.subscribe(req.viewer, req.body.subscription, ua) });
    },
  });

  // Palaver's own: a push to the viewer's browsers, to see that it arrives.
  app.post(`${base}/test`, {
    schema: { body: NoBody, response: { 200: Envelope(Type.Object({ devices: Type.Number() })) }, tags },
    handler: async (req) => ok({ devices: await ctx.push.sendTest(req.viewer) }),
  });

  app.delete(`${base}/subscription`, {
    schema: { body: EndpointBody, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await ctx.push.unsubscribe(req.viewer, req.body.endpoint);
      return ok({});
    },
  });

  app.delete(`${base}/subscriptions/:id`, {
    schema: { params: IdParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await ctx.push.remove(req.viewer, req.params.id);
      return ok({});
    },
  });
}
