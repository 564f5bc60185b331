import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { AppContext } from '../context.js';
import { clientConfig } from './client-config.js';
import { Envelope, ok } from './envelope.js';
import { notAuthorised } from './errors.js';
import { openApiDocument } from './openapi.js';

const ConfigSchema = Type.Object(
  { relative_path: Type.String(), csrf_token: Type.String(), 'cache-buster': Type.String(), uid: Type.Number() },
  { additionalProperties: true },
);

/** Cross-cutting routes: client config, ping, the OpenAPI document. */
export function registerMeta(app: FastifyInstance, ctx: AppContext, routes: readonly RouteOptions[]): void {
  app.get('/api/config', {
    schema: { response: { 200: ConfigSchema }, tags: ['meta'] },
    handler: async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return clientConfig(ctx, req, reply);
    },
  });
  // NodeBB's health checks for load balancers and monitors, in text: /ping answers "200" once
  // the database answers (a failing database is a 500), /sping "healthy" from the process alone.
  app.get('/ping', {
    schema: { response: { 200: Type.String() }, tags: ['utilities'] },
    handler: async (_req, reply) => {
      await sql`select 1`.execute(ctx.db);
      void reply.header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-store');
      return '200';
    },
  });
  app.get('/sping', {
    schema: { response: { 200: Type.String() }, tags: ['utilities'] },
    handler: async (_req, reply) => {
      void reply.header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-store');
      return 'healthy';
    },
  });
  app.get('/api/v3/ping', {
    schema: { response: { 200: Envelope(Type.Object({ pong: Type.Boolean() })) }, tags: ['utilities'] },
    handler: async () => ok({ pong: true }),
  });
  app.withTypeProvider<TypeBoxTypeProvider>().post('/api/v3/ping', {
    // NodeBB bounces the payload back as `received`, with the uid the caller resolved to.
    schema: {
      body: Type.Optional(Type.Object({}, { additionalProperties: true })),
      response: { 200: Envelope(Type.Object({ uid: Type.Number(), received: Type.Object({}, { additionalProperties: true }) })) },
      tags: ['utilities'],
    },
    handler: async (req) => {
      if (req.viewer.uid <= 0) throw notAuthorised();
      return ok({ uid: req.viewer.uid, received: req.body ?? {} });
    },
  });
  app.get('/api/v3/openapi.json', {
    schema: { response: { 200: Type.Object({}, { additionalProperties: true }) }, tags: ['meta'], hide: true },
    handler: openApiDocument(routes),
  });
}
