import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../../context.js';
import { Empty, Envelope, ok } from '../../../http/envelope.js';
import { defaultBody, TidParams } from '../schemas.js';
import { deleteEvent, listEvents } from './events.js';
import { listEditors, setEditors } from './editors.js';
import { forkTopic } from './fork.js';
import { mergeTopics } from './merge.js';
import { moveTopic } from './move.js';
import { searchTopics } from './search.js';
import { EditorsBody, EditorsSchema, EventParams, ForkBody, MergeBody, MoveBody, PinBody, TopicEventSchema, TopicRefSchema, TopicSearchQuery } from './schemas.js';

const ref = (t: { tid: number; cid: number; title: string; slug: string }) => ({ tid: t.tid, cid: t.cid, title: t.title, slug: t.slug });

/** The topic tools' routes: NodeBB's pin, move and events, and Palaver's merge, fork, editors and topic picker. */
export function registerTopicToolRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['topics'];

  app.put('/api/v3/topics/:tid/pin', {
    schema: { params: TidParams, body: PinBody, response: { 200: Envelope(Empty) }, tags },
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.topics.pin(req.viewer, req.params.tid, true, req.body?.expiry ?? 0);
      return ok({});
    },
  });
  app.delete('/api/v3/topics/:tid/pin', {
    schema: { params: TidParams, body: Type.Optional(Type.Object({})), response: { 200: Envelope(Empty) }, tags },
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.topics.pin(req.viewer, req.params.tid, false);
      return ok({});
    },
  });

  app.put('/api/v3/topics/:tid/move', {
    schema: { params: TidParams, body: MoveBody, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await moveTopic(ctx, req.viewer, req.params.tid, req.body.cid, req.ip);
      return ok({});
    },
  });

  app.get('/api/v3/topics/:tid/events', {
    schema: { params: TidParams, response: { 200: Envelope(Type.Object({ events: Type.Array(TopicEventSchema) })) }, tags },
    handler: async (req) => ok({ events: await listEvents(ctx, req.viewer, req.params.tid) }),
  });
  app.delete('/api/v3/topics/:tid/events/:eventId', {
    schema: { params: EventParams, body: Type.Optional(Type.Object({})), response: { 200: Envelope(Empty) }, tags },
    preValidation: defaultBody,
    handler: async (req) => {
      await deleteEvent(ctx, req.viewer, req.params.tid, req.params.eventId, req.ip);
      return ok({});
    },
  });

  app.get('/api/v3/topics/:tid/editors', {
    schema: { params: TidParams, response: { 200: Envelope(EditorsSchema) }, tags },
    handler: async (req) => ok({ editors: await listEditors(ctx, req.viewer, req.params.tid) }),
  });
  app.put('/api/v3/topics/:tid/editors', {
    schema: { params: TidParams, body: EditorsBody, response: { 200: Envelope(EditorsSchema) }, tags },
    handler: async (req) => ok({ editors: await setEditors(ctx, req.viewer, req.params.tid, req.body.uids, req.ip) }),
  });

  // Not NodeBB REST routes (NodeBB merges and forks over its socket): Palaver's own paths.
  app.post('/api/v3/topic-tools/merge', {
    schema: { body: MergeBody, response: { 200: Envelope(TopicRefSchema) }, tags },
    handler: async (req) => ok(ref(await mergeTopics(ctx, req.viewer, req.body.tids, req.body.mainTid, req.ip, req.body.newTitle))),
  });
  app.post('/api/v3/topic-tools/fork', {
    schema: { body: ForkBody, response: { 200: Envelope(TopicRefSchema) }, tags },
    handler: async (req) => ok(ref(await forkTopic(ctx, req.viewer, req.body, req.ip))),
  });
  app.get('/api/v3/topic-tools/topics', {
    schema: { querystring: TopicSearchQuery, response: { 200: Envelope(Type.Object({ topics: Type.Array(TopicRefSchema) })) }, tags },
    handler: async (req) => ok({ topics: (await searchTopics(ctx, req.viewer, req.query.term, req.query.exclude)).map(ref) }),
  });
}
