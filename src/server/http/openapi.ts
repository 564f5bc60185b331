import type { SwaggerOptions } from '@fastify/swagger';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';

/** The OpenAPI document's own fields (@fastify/swagger's `openapi` option). */
const OPENAPI_OPTIONS: SwaggerOptions = {
  openapi: {
    info: { title: 'Palaver API', version: '3.0.0', description: 'Palaver write API (/api/v3) and page data (/api/<path>).' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  },
};

/**
 * The forum's OpenAPI document (`GET /api/v3/openapi.json`), made from its routes when first
 * asked for. @fastify/swagger registered on the forum itself cost every start some 100 ms on a
 * 2-core machine (its own modules and their dependencies, and the hooks it adds), for a document
 * few processes are ever asked for. Here it runs once, on a Fastify instance of its own that only
 * holds the forum's routes (their methods, URLs, schemas and config; a handler that never runs),
 * so the document is the one it made on the forum: every route but the HEAD routes Fastify adds
 * beside each GET, as @fastify/swagger leaves out by default.
 */
export function openApiDocument(routes: readonly RouteOptions[]): () => Promise<unknown> {
  let doc: Promise<unknown> | null = null;
  const build = async () => {
    const { default: swagger } = await import('@fastify/swagger');
    const shadow: FastifyInstance = Fastify({ exposeHeadRoutes: false });
    // Nothing is ever validated or serialised here: the schemas are only read.
    shadow.setValidatorCompiler(() => () => true);
    shadow.setSerializerCompiler(() => (data) => JSON.stringify(data));
    await shadow.register(swagger, OPENAPI_OPTIONS);
    const never = async () => null;
    for (const r of routes) {
      if (r.method === 'HEAD') continue;
      shadow.route({ method: r.method, url: r.url, schema: r.schema, config: r.config, constraints: r.constraints, handler: never });
    }
    await shadow.ready();
    const document = shadow.swagger();
    await shadow.close();
    return document;
  };
  return () => {
    doc ??= build().catch((err: unknown) => {
      doc = null;
      throw err;
    });
    return doc;
  };
}
