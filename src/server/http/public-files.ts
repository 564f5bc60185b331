import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { languageGeneration, publicDir, servedNamespace } from '../i18n.js';

/**
 * Registers the files every visitor may fetch: the client's hashed assets (scripts, styles,
 * skins, the icon sprite), the service worker and the language files. They are the same for
 * everyone, so no session is looked up for them (a member's page load would otherwise cost
 * three queries per asset). Call inside its own child scope: the onRoute hook marks every
 * route registered there, and only there, `skipAuth`.
 */
export async function registerPublicFiles(files: FastifyInstance, distDir: string): Promise<void> {
  files.addHook('onRoute', (route) => {
    route.config = { ...route.config, skipAuth: true };
  });
  const clientDir = path.join(distDir, 'client');
  if (existsSync(path.join(clientDir, 'assets'))) {
    await files.register(fastifyStatic, {
      root: path.join(clientDir, 'assets'),
      prefix: '/assets/',
      immutable: true,
      maxAge: '365d',
      cacheControl: true,
      decorateReply: false,
      index: false,
    });
  }
  const swFile = path.join(clientDir, 'service-worker.js');
  if (existsSync(swFile)) {
    // Served from the forum root, so that the worker's scope covers every page.
    const sw = readFileSync(swFile, 'utf8');
    files.withTypeProvider<TypeBoxTypeProvider>().get('/service-worker.js', {
      schema: { response: { 200: Type.String() }, hide: true },
      handler: async (_req, reply) => reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').send(sw),
    });
  }
  // The forum's icon until an admin uploads one (the head links it, entry-server.tsx): without
  // one, browsers ask for /favicon.ico and log its 404 on every first page load.
  const icon = readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8');
  files.withTypeProvider<TypeBoxTypeProvider>().get('/favicon.svg', {
    schema: { response: { 200: Type.String() }, hide: true },
    handler: async (_req, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'").send(icon),
  });
  registerLanguageFiles(files);
}

const served = new Map<string, string>();
let servedGeneration = languageGeneration();

/**
 * The language files, at `{asset_base_url}/language/{lang}/{ns}.json` (spec §5) and at
 * `/language/…`: each namespace with en-GB's text for any key its language lacks
 * (i18n.ts servedNamespace). Asked for with the cache buster (`?v=`), it is cached for a year:
 * a new build or new files come with a new buster.
 */
function registerLanguageFiles(files: FastifyInstance): void {
  const handler = async (req: FastifyRequest<{ Params: { lang: string; file: string }; Querystring: { v?: string } }>, reply: FastifyReply) => {
    const { lang, file } = req.params;
    const ns = file.endsWith('.json') ? file.slice(0, -5) : '';
    if (servedGeneration !== languageGeneration()) {
      served.clear();
      servedGeneration = languageGeneration();
    }
    const key = `${lang}\u0001${ns}`;
    let body = served.get(key);
    if (body === undefined) {
      const data = /^[\w-]+$/.test(ns) ? servedNamespace(lang, ns) : undefined;
      if (!data) return reply.code(404).type('application/json; charset=utf-8').send('{"error":"Not Found"}');
      body = JSON.stringify(data);
      served.set(key, body);
    }
    const cache = req.query.v ? 'public, max-age=31536000, immutable' : 'public, max-age=3600';
    return reply.type('application/json; charset=utf-8').header('cache-control', cache).send(body);
  };
  const schema = {
    params: Type.Object({ lang: Type.String({ maxLength: 16 }), file: Type.String({ maxLength: 64 }) }),
    querystring: Type.Object({ v: Type.Optional(Type.String({ maxLength: 64 })) }),
    response: { 200: Type.String(), 404: Type.String() },
    hide: true,
  };
  const typed = files.withTypeProvider<TypeBoxTypeProvider>();
  typed.get('/assets/language/:lang/:file', { schema }, handler);
  typed.get('/language/:lang/:file', { schema }, handler);
}
