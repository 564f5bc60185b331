import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { presentWritten, viewPost } from '../posts/read.js';
import { PostViewSchema } from '../posts/schemas.js';
import type { Viewer } from '../privileges/service.js';
import { TagRefSchema } from '../tags/schemas.js';
import { assertReadable, loadTopic } from './access.js';
import { presentTopics } from './presenter.js';
import { CreateBody, defaultBody, CreatedTopicSchema, NoBody, OptionalTagsBody, ReplyBody, TagsBody, TidParams, TopicSummarySchema } from './schemas.js';

type TidReq = { params: { tid: number } };

async function presentOne(ctx: AppContext, viewer: Viewer, tid: number) {
  const topic = await loadTopic(ctx, tid);
  return (await presentTopics(ctx, viewer, [topic]))[0]!;
}

/** /api/v3/topics routes: thin — parse, call one service, present. */
export function registerTopicRoutes(app: FastifyInstance, ctx: AppContext): void {
  const tags = ['topics'];
  const emptyWrite = { params: TidParams, body: NoBody, response: { 200: Envelope(Empty) }, tags };

  app.post('/api/v3/topics', {
    schema: { body: CreateBody, response: { 200: Envelope(CreatedTopicSchema) }, tags },
    handler: async (req) => {
      const body = req.body as { cid: number; title: string; content: string; tags?: string[] };
      const { topic, post } = await ctx.topics.create(req.viewer, body, req.ip);
      const [summary] = await presentTopics(ctx, req.viewer, [topic]);
      return ok({ ...summary!, mainPost: await viewPost(ctx, req.viewer, post.pid) });
    },
  });

  app.get('/api/v3/topics/:tid', {
    schema: { params: TidParams, response: { 200: Envelope(TopicSummarySchema) }, tags },
    handler: async (req) => {
      const { tid } = (req as unknown as TidReq).params;
      await assertReadable(ctx, req.viewer, await loadTopic(ctx, tid));
      return ok(await presentOne(ctx, req.viewer, tid));
    },
  });

  app.post('/api/v3/topics/:tid', {
    schema: { params: TidParams, body: ReplyBody, response: { 200: Envelope(PostViewSchema) }, tags },
    handler: async (req) => {
      const { tid } = (req as unknown as TidReq).params;
      const written = await ctx.posts.reply(req.viewer, tid, req.body as { content: string; toPid?: number }, req.ip);
      return ok(await presentWritten(ctx, req.viewer, written));
    },
  });

  app.delete('/api/v3/topics/:tid', {
    schema: emptyWrite,
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.topics.purge(req.viewer, (req as unknown as TidReq).params.tid);
      return ok({});
    },
  });

  // Each pair is PUT (on) / DELETE (off) on the same sub-resource, as NodeBB names them.
  const toggles: [string, (v: Viewer, tid: number, on: boolean) => Promise<unknown>][] = [
    ['state', (v, tid, on) => (on ? ctx.topics.restore(v, tid) : ctx.topics.delete(v, tid))],
    ['lock', (v, tid, on) => ctx.topics.lock(v, tid, on)],
    ['pin', (v, tid, on) => ctx.topics.pin(v, tid, on)],
    ['follow', (v, tid, on) => ctx.topics.follow(v, tid, on ? 'follow' : null)],
    ['ignore', (v, tid, on) => ctx.topics.follow(v, tid, on ? 'ignore' : null)],
  ];
  for (const [name, action] of toggles) {
    for (const on of [true, false]) {
      app.route({
        method: on ? 'PUT' : 'DELETE',
        url: `/api/v3/topics/:tid/${name}`,
        schema: emptyWrite,
        preValidation: defaultBody,
        handler: async (req) => {
          await action(req.viewer, (req as unknown as TidReq).params.tid, on);
          return ok({});
        },
      });
    }
  }

  app.put('/api/v3/topics/:tid/tags', {
    schema: { params: TidParams, body: TagsBody, response: { 200: Envelope(Type.Array(TagRefSchema)) }, tags },
    handler: async (req) => {
      const { tid } = (req as unknown as TidReq).params;
      await ctx.topics.setTags(req.viewer, tid, (req.body as { tags: string[] }).tags);
      return ok((await ctx.tags.forTopics([tid])).get(tid) ?? []);
    },
  });

  app.delete('/api/v3/topics/:tid/tags', {
    preValidation: defaultBody,
    schema: { params: TidParams, body: OptionalTagsBody, response: { 200: Envelope(Type.Array(TagRefSchema)) }, tags },
    handler: async (req) => {
      const { tid } = (req as unknown as TidReq).params;
      const listed = (req.body as { tags?: string[] } | undefined)?.tags;
      await ctx.topics.setTags(req.viewer, tid, listed ?? null, true);
      return ok((await ctx.tags.forTopics([tid])).get(tid) ?? []);
    },
  });
}
