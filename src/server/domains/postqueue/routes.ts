import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { defaultBody, NoBody } from '../topics/schemas.js';
import { AcceptedSchema, QueueEditBody, QueueMessageBody, QueueNotifyBody, QueueParams } from './schemas.js';

/** NodeBB's /api/v3/posts/queue/{id} routes: accept, reject (remove), edit, notify the author. */
export function registerPostQueueRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['QueuedPosts'];

  app.post('/api/v3/posts/queue/:id', {
    schema: { params: QueueParams, body: NoBody, response: { 200: Envelope(AcceptedSchema) }, tags },
    preValidation: defaultBody,
    handler: async (req) => ok(await ctx.postQueue.accept(req.viewer, req.params.id)),
  });

  app.delete('/api/v3/posts/queue/:id', {
    schema: { params: QueueParams, body: QueueMessageBody, response: { 200: Envelope(Empty) }, tags },
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.postQueue.reject(req.viewer, req.params.id, req.body?.message ?? '');
      return ok({});
    },
  });

  app.put('/api/v3/posts/queue/:id', {
    schema: { params: QueueParams, body: QueueEditBody, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await ctx.postQueue.edit(req.viewer, req.params.id, req.body);
      return ok({});
    },
  });

  app.post('/api/v3/posts/queue/:id/notify', {
    schema: { params: QueueParams, body: QueueNotifyBody, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await ctx.postQueue.notify(req.viewer, req.params.id, req.body.message);
      return ok({});
    },
  });
}

