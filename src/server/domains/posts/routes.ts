import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import type { Viewer } from '../privileges/service.js';
import { defaultBody, NoBody } from '../topics/schemas.js';
import { DiffsSchema, EditBody, PidParams, PostViewSchema, PreviewBody, VoteBody } from './schemas.js';

type PidReq = { params: { pid: number } };

/** /api/v3/posts routes: thin — parse, call one service, present. */
export function registerPostRoutes(app: FastifyInstance, ctx: AppContext): void {
  const tags = ['posts'];
  const pidOf = (req: unknown) => (req as PidReq).params.pid;
  const emptyWrite = { params: PidParams, body: NoBody, response: { 200: Envelope(Empty) }, tags };

  app.get('/api/v3/posts/:pid', {
    schema: { params: PidParams, response: { 200: Envelope(PostViewSchema) }, tags },
    handler: async (req) => ok(await ctx.posts.view(req.viewer, pidOf(req))),
  });

  app.get('/api/v3/posts/:pid/raw', {
    schema: { params: PidParams, response: { 200: Envelope(Type.Object({ content: Type.String() })) }, tags },
    handler: async (req) => ok(await ctx.posts.raw(req.viewer, pidOf(req))),
  });

  app.put('/api/v3/posts/:pid', {
    schema: { params: PidParams, body: EditBody, response: { 200: Envelope(PostViewSchema) }, tags },
    handler: async (req) => {
      const pid = pidOf(req);
      await ctx.posts.edit(req.viewer, pid, req.body as { content: string; title?: string; tags?: string[] });
      return ok(await ctx.posts.view(req.viewer, pid));
    },
  });

  app.delete('/api/v3/posts/:pid', {
    schema: emptyWrite,
        preValidation: defaultBody,
    handler: async (req) => {
      await ctx.posts.purge(req.viewer, pidOf(req));
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
          await action(req.viewer, pidOf(req), on);
          return ok({});
        },
      });
    }
  }

  app.put('/api/v3/posts/:pid/vote', {
    schema: { params: PidParams, body: VoteBody, response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await ctx.posts.vote(req.viewer, pidOf(req), (req.body as { delta: number }).delta);
      return ok({});
    },
  });

  app.delete('/api/v3/posts/:pid/vote', {
    schema: emptyWrite,
        preValidation: defaultBody,
    handler: async (req) => {
      await ctx.posts.vote(req.viewer, pidOf(req), 0);
      return ok({});
    },
  });

  app.get('/api/v3/posts/:pid/diffs', {
    schema: { params: PidParams, response: { 200: Envelope(DiffsSchema) }, tags },
    handler: async (req) => ok(await ctx.posts.diffs(req.viewer, pidOf(req))),
  });

  app.post('/api/v3/posts/preview', {
    schema: { body: PreviewBody, response: { 200: Envelope(Type.Object({ html: Type.String() })) }, tags },
    handler: async (req) => ok(await ctx.posts.preview(req.viewer, (req.body as { content: string }).content)),
  });
}
