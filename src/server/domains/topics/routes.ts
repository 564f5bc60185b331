import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { requestLanguage } from '../../http/language.js';
import { postObject, postObjects } from '../posts/read.js';
import { PostObjectSchema } from '../../../shared/schemas/post.js';
import { notFound } from '../../http/errors.js';
import { pageNumber, pageSizes, pagination } from '../../http/pagination.js';
import { ReplyAnswerSchema } from '../../../shared/schemas/post.js';
import { TagRefSchema } from '../tags/schemas.js';
import { queuedAnswer } from '../postqueue/presenter.js';
import { QueuedAnswerSchema } from '../postqueue/schemas.js';
import type { Viewer } from '../privileges/service.js';
import { assertReadable, loadTopic, member } from './access.js';
import { registerTopicToolRoutes } from './tools/routes.js';
import { presentSlim, presentTopics } from './presenter.js';
import { CreateBody, defaultBody, PageQuery, CreatedTopicSchema, NoBody, OptionalTagsBody, ReplyBody, TagsBody, TidParams, TopicSlimSchema } from './schemas.js';

/** /api/v3/topics routes: thin — parse, call one service, present. */
export function registerTopicRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['topics'];
  const emptyWrite = { params: TidParams, body: NoBody, response: { 200: Envelope(Empty) }, tags };

  app.post('/api/v3/topics', {
    schema: { body: CreateBody, response: { 200: Envelope(Type.Union([CreatedTopicSchema, QueuedAnswerSchema])) }, tags },
    handler: async (req) => {
      // A new member's topic may wait in the post queue (NodeBB answers queued: true).
      const submitted = await ctx.postQueue.submitTopic(req.viewer, req.body, req.ip);
      if (submitted.queued) return ok(queuedAnswer(submitted.id, submitted.type, requestLanguage(req, await ctx.settings.get())));
      const { topic, post } = submitted;
      const [[summary], mainPost] = await Promise.all([presentTopics(ctx, req.viewer, [topic]), postObject(ctx, req.viewer, post, topic)]);
      return ok({ ...summary!, mainPost: { ...mainPost, index: 0 } });
    },
  });

  app.get('/api/v3/topics/:tid', {
    schema: { params: TidParams, response: { 200: Envelope(TopicSlimSchema) }, tags },
    handler: async (req) => {
      const topic = await loadTopic(ctx, req.params.tid);
      await assertReadable(ctx, req.viewer, topic);
      return ok((await presentSlim(ctx, [topic]))[0]!);
    },
  });

  app.post('/api/v3/topics/:tid', {
    schema: { params: TidParams, body: ReplyBody, response: { 200: Envelope(Type.Union([ReplyAnswerSchema, QueuedAnswerSchema])) }, tags },
    handler: async (req) => {
      const written = await ctx.postQueue.submitReply(req.viewer, req.params.tid, req.body, req.ip);
      if (written.queued) return ok(queuedAnswer(written.id, written.type, requestLanguage(req, await ctx.settings.get())));
      return ok({ ...(await postObject(ctx, req.viewer, written.post, written.topic)), index: written.index });
    },
  });

  app.delete('/api/v3/topics/:tid', {
    schema: emptyWrite,
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.topics.purge(req.viewer, req.params.tid);
      return ok({});
    },
  });

  // Each pair is PUT (on) / DELETE (off) on the same sub-resource, as NodeBB names them.
  const toggles: [string, (v: Viewer, tid: number, on: boolean) => Promise<unknown>][] = [
    ['state', (v, tid, on) => (on ? ctx.topics.restore(v, tid) : ctx.topics.delete(v, tid))],
    ['lock', (v, tid, on) => ctx.topics.lock(v, tid, on)],
    ['follow', (v, tid, on) => ctx.topics.follow(v, tid, on ? 'follow' : null)],
    ['ignore', (v, tid, on) => ctx.topics.follow(v, tid, on ? 'ignore' : null)],
    ['read', (v, tid, on) => ctx.topics.setRead(v, tid, on)],
  ];
  for (const [name, action] of toggles) {
    for (const on of [true, false]) {
      app.route({
        method: on ? 'PUT' : 'DELETE',
        url: `/api/v3/topics/:tid/${name}`,
        schema: emptyWrite,
        preValidation: defaultBody,
        handler: async (req) => {
          await action(req.viewer, req.params.tid, on);
          return ok({});
        },
      });
    }
  }

  app.put('/api/v3/topics/:tid/tags', {
    schema: { params: TidParams, body: TagsBody, response: { 200: Envelope(Type.Array(TagRefSchema)) }, tags },
    handler: async (req) => {
      const { tid } = req.params;
      await ctx.topics.setTags(req.viewer, tid, req.body.tags);
      return ok((await ctx.tags.forTopics([tid])).get(tid) ?? []);
    },
  });

  // NodeBB's PATCH adds to the topic's tags and answers the topic's tags after.
  app.patch('/api/v3/topics/:tid/tags', {
    schema: { params: TidParams, body: TagsBody, response: { 200: Envelope(Type.Array(TagRefSchema)) }, tags },
    handler: async (req) => {
      const { tid } = req.params;
      await ctx.topics.setTags(req.viewer, tid, req.body.tags, 'add');
      return ok((await ctx.tags.forTopics([tid])).get(tid) ?? []);
    },
  });

  // Unread for every member: moderators of the topic's category.
  app.put('/api/v3/topics/:tid/bump', {
    schema: emptyWrite,
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.topics.bump(req.viewer, req.params.tid);
      return ok({});
    },
  });

  app.delete('/api/v3/topics/:tid/tags', {
    preValidation: defaultBody,
    // NodeBB answers an empty object; the topic's remaining tags are in its TopicObject.
    schema: { params: TidParams, body: OptionalTagsBody, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await ctx.topics.setTags(req.viewer, req.params.tid, req.body?.tags ?? null, 'remove');
      return ok({});
    },
  });

  // NodeBB's GET /api/unread/total: how many topics /unread lists for the member, as text.
  app.get('/api/unread/total', {
    schema: { response: { 200: Type.String() }, tags },
    handler: async (req, reply) => {
      const viewer = member(req.viewer);
      const readable = await ctx.categories.readableCids(viewer);
      const states = await ctx.categories.watchStates(viewer, readable);
      const watchedCids = readable.filter((cid) => ['watching', 'tracking'].includes(states.get(cid)!));
      const { count } = await ctx.topics.list(viewer, { cids: readable, sort: 'recent', page: 1, perPage: 1, unreadOnly: true, watchedCids });
      void reply.header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'private, no-store');
      return String(count);
    },
  });

  // NodeBB's GET /api/topic/teaser/{tid}: the topic's latest visible post, as its PostObject.
  app.get('/api/topic/teaser/:tid', {
    schema: { params: TidParams, response: { 200: PostObjectSchema }, tags },
    handler: async (req) => {
      const topic = await loadTopic(ctx, req.params.tid);
      await assertReadable(ctx, req.viewer, topic);
      const [post] = await postObjects(ctx, req.viewer, [topic.teaser_pid || topic.main_pid]);
      if (!post) throw notFound('error:no-post');
      return post;
    },
  });

  // NodeBB's GET /api/topic/pagination/{tid}: the pagination block of the topic's pages for
  // the reader (their posts per page), ?page= the current one; rel links are the topic's URLs.
  app.get('/api/topic/pagination/:tid', {
    schema: { params: TidParams, querystring: PageQuery, response: { 200: Type.Object({ pagination: Type.Object({}, { additionalProperties: true }) }) }, tags },
    handler: async (req) => {
      const topic = await loadTopic(ctx, req.params.tid);
      await assertReadable(ctx, req.viewer, topic);
      const { postsPerPage } = await pageSizes(ctx, req.viewer);
      const total = await ctx.topics.topicCounts.get(String(topic.tid), () => ctx.posts.countInTopic(topic.tid));
      const pageCount = Math.max(1, Math.ceil(total / postsPerPage));
      const block = pagination(pageNumber(req.query.page), pageCount);
      const base = `${ctx.config.relativePath}/topic/${topic.tid}/${topic.slug}`;
      return { pagination: { ...block, rel: block.rel.map((r) => ({ ...r, href: `${base}${r.href}` })) } };
    },
  });

  // Pin (with an expiry), move, events, merge, fork, editors, the topic picker.
  registerTopicToolRoutes(scope, ctx);
}
