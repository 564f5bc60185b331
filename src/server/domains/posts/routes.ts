import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import type { Viewer } from '../privileges/service.js';
import { defaultBody, NoBody } from '../topics/schemas.js';
import { EditAnswerSchema, PostObjectSchema, PostSummarySchema } from '../../../shared/schemas/post.js';
import { Id, Timestamp } from '../../http/input.js';
import { categoryPosts, recentPosts, postFullSummary, postIndex, postObject, postReplies, postSummary } from './read.js';
import { registerPostToolRoutes } from './tools/routes.js';
import { DiffsSchema, EditBody, PidParams, PreviewBody, VoteBody } from './schemas.js';

/** /api/v3/posts routes: thin — parse, call one service, present. */
export function registerPostRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['posts'];
  const emptyWrite = { params: PidParams, body: NoBody, response: { 200: Envelope(Empty) }, tags };

  app.get('/api/v3/posts/:pid', {
    schema: { params: PidParams, response: { 200: Envelope(PostSummarySchema) }, tags },
    handler: async (req) => ok(await postSummary(ctx, req.viewer, req.params.pid)),
  });

  app.get('/api/v3/posts/:pid/index', {
    schema: { params: PidParams, response: { 200: Envelope(Type.Object({ index: Type.Number() })) }, tags },
    handler: async (req) => ok({ index: await postIndex(ctx, req.viewer, req.params.pid) }),
  });

  app.get('/api/v3/posts/:pid/summary', {
    schema: { params: PidParams, response: { 200: Envelope(PostObjectSchema) }, tags },
    handler: async (req) => ok(await postFullSummary(ctx, req.viewer, req.params.pid)),
  });

  // The replies as the topic page shows its posts (PostView, typed in src/shared/types.ts).
  app.get('/api/v3/posts/:pid/replies', {
    schema: { params: PidParams, response: { 200: Envelope(Type.Object({ replies: Type.Array(Type.Object({ pid: Type.Number() }, { additionalProperties: true })) })) }, tags },
    handler: async (req) => ok({ replies: await postReplies(ctx, req.viewer, req.params.pid) }),
  });

  app.get('/api/v3/categories/:cid/posts', {
    schema: { params: Type.Object({ cid: Id() }), response: { 200: Envelope(Type.Object({ posts: Type.Array(PostObjectSchema) })) }, tags: ['categories'] },
    handler: async (req) => ok({ posts: await categoryPosts(ctx, req.viewer, req.params.cid) }),
  });

  app.get('/api/recent/posts/:term', {
    schema: { params: Type.Object({ term: Type.String({ maxLength: 20 }) }), response: { 200: Type.Array(PostObjectSchema) }, tags },
    handler: async (req) => recentPosts(ctx, req.viewer, req.params.term),
  });

  app.get('/api/v3/posts/:pid/raw', {
    schema: { params: PidParams, response: { 200: Envelope(Type.Object({ content: Type.String() })) }, tags },
    handler: async (req) => ok(await ctx.posts.raw(req.viewer, req.params.pid)),
  });

  app.put('/api/v3/posts/:pid', {
    schema: { params: PidParams, body: EditBody, response: { 200: Envelope(EditAnswerSchema) }, tags },
    handler: async (req) => {
      const { post, topic } = await ctx.posts.edit(req.viewer, req.params.pid, req.body);
      return ok({ ...(await postObject(ctx, req.viewer, post, topic)), edited: Number(post.edited), deleterUid: post.deleter_uid });
    },
  });

  app.delete('/api/v3/posts/:pid', {
    schema: emptyWrite,
        preValidation: defaultBody,
    handler: async (req) => {
      await ctx.posts.purge(req.viewer, req.params.pid);
      return ok({});
    },
  });

  const toggles: [string, (v: Viewer, pid: number, on: boolean) => Promise<unknown>][] = [
    ['state', (v, pid, on) => (on ? ctx.posts.restore(v, pid) : ctx.posts.delete(v, pid))],
    ['bookmark', (v, pid, on) => ctx.posts.bookmark(v, pid, on)],
  ];
  for (const [name, action] of toggles) {
    for (const on of [true, false]) {
      app.route({
        method: on ? 'PUT' : 'DELETE',
        url: `/api/v3/posts/:pid/${name}`,
        schema: emptyWrite,
        preValidation: defaultBody,
        handler: async (req) => {
          await action(req.viewer, req.params.pid, on);
          return ok({});
        },
      });
    }
  }

  app.put('/api/v3/posts/:pid/vote', {
    schema: { params: PidParams, body: VoteBody, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await ctx.posts.vote(req.viewer, req.params.pid, req.body.delta);
      return ok({});
    },
  });

  app.delete('/api/v3/posts/:pid/vote', {
    schema: emptyWrite,
        preValidation: defaultBody,
    handler: async (req) => {
      await ctx.posts.vote(req.viewer, req.params.pid, 0);
      return ok({});
    },
  });

  app.get('/api/v3/posts/:pid/diffs', {
    schema: { params: PidParams, response: { 200: Envelope(DiffsSchema) }, tags },
    handler: async (req) => ok(await ctx.posts.diffs(req.viewer, req.params.pid)),
  });

  app.get('/api/v3/posts/:pid/diffs/:since', {
    schema: { params: Type.Object({ ...PidParams.properties, since: Timestamp() }), response: { 200: Envelope(PostObjectSchema) }, tags },
    handler: async (req) => ok(await ctx.posts.version(req.viewer, req.params.pid, req.params.since)),
  });

  app.put('/api/v3/posts/:pid/diffs/:since', {
    schema: { params: Type.Object({ ...PidParams.properties, since: Timestamp() }), body: NoBody, response: { 200: Envelope(Empty) }, tags },
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.posts.restoreVersion(req.viewer, req.params.pid, req.params.since);
      return ok({});
    },
  });

  app.delete('/api/v3/posts/:pid/diffs/:timestamp', {
    schema: { params: Type.Object({ ...PidParams.properties, timestamp: Timestamp() }), body: NoBody, response: { 200: Envelope(DiffsSchema) }, tags },
    preValidation: defaultBody,
    handler: async (req) => ok(await ctx.posts.deleteVersion(req.viewer, req.params.pid, req.params.timestamp)),
  });

  app.post('/api/v3/posts/preview', {
    schema: { body: PreviewBody, response: { 200: Envelope(Type.Object({ html: Type.String() })) }, tags },
    handler: async (req) => ok(await ctx.posts.preview(req.viewer, req.body.content)),
  });

  // Move posts, change owner, voters (topic tools).
  registerPostToolRoutes(scope, ctx);
}
