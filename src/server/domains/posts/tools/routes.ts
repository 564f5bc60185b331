import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../../context.js';
import { Empty, Envelope, ok } from '../../../http/envelope.js';
import { Id } from '../../../http/input.js';
import { UserSummarySchema } from '../../users/schemas.js';
import { PidParams } from '../schemas.js';
import { bulkPostState } from './bulk-state.js';
import { movePosts } from './move.js';
import { changeOwner } from './owner.js';
import { upvoterNames, voters } from './voters.js';

const VotersSchema = Type.Object({
  upvoteCount: Type.Number(),
  downvoteCount: Type.Number(),
  showUpvotes: Type.Boolean(),
  showDownvotes: Type.Boolean(),
  upvoters: Type.Array(UserSummarySchema),
  downvoters: Type.Array(UserSummarySchema),
});

/** The post tools' routes: NodeBB's move, owner and voters, and Palaver's move of several posts. */
export function registerPostToolRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['posts'];

  app.put('/api/v3/posts/:pid/move', {
    schema: { params: PidParams, body: Type.Object({ tid: Id() }), response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await movePosts(ctx, req.viewer, [req.params.pid], req.body.tid, req.ip);
      return ok({});
    },
  });
  // Palaver's own path: the selection of a topic page moves in one transaction.
  app.post('/api/v3/topic-tools/move-posts', {
    schema: { body: Type.Object({ pids: Type.Array(Id(), { minItems: 1, maxItems: 500 }), tid: Id() }), response: { 200: Envelope(Type.Object({ moved: Type.Number() })) }, tags },
    handler: async (req) => ok({ moved: (await movePosts(ctx, req.viewer, req.body.pids, req.body.tid, req.ip)).moved }),
  });

  // Palaver's own paths: a moderator's selection deleted, restored or purged in one request and one transaction.
  for (const op of ['delete', 'restore', 'purge'] as const) {
    app.post(`/api/v3/topic-tools/${op}-posts`, {
      schema: { body: Type.Object({ pids: Type.Array(Id(), { minItems: 1, maxItems: 500 }) }), response: { 200: Envelope(Type.Object({ count: Type.Number() })) }, tags },
      handler: async (req) => ok(await bulkPostState(ctx, req.viewer, req.body.pids, op)),
    });
  }

  app.put('/api/v3/posts/:pid/owner', {
    schema: { params: PidParams, body: Type.Object({ uid: Id() }), response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await changeOwner(ctx, req.viewer, [req.params.pid], req.body.uid, req.ip);
      return ok({});
    },
  });
  app.post('/api/v3/posts/owner', {
    schema: { body: Type.Object({ pids: Type.Array(Id(), { minItems: 1, maxItems: 500 }), uid: Id() }), response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await changeOwner(ctx, req.viewer, req.body.pids, req.body.uid, req.ip);
      return ok({});
    },
  });

  app.get('/api/v3/posts/:pid/voters', {
    schema: { params: PidParams, response: { 200: Envelope(VotersSchema) }, tags },
    handler: async (req) => ok(await voters(ctx, req.viewer, req.params.pid)),
  });
  app.get('/api/v3/posts/:pid/upvoters', {
    schema: { params: PidParams, response: { 200: Envelope(Type.Object({ otherCount: Type.Number(), usernames: Type.Array(Type.String()), cutoff: Type.Number() })) }, tags },
    handler: async (req) => ok(await upvoterNames(ctx, req.viewer, req.params.pid)),
  });
}
