import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { publicDir } from '../i18n.js';

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
  await files.register(fastifyStatic, {
    root: path.join(publicDir, 'language'),
    prefix: '/language/',
    maxAge: '1h',
    decorateReply: false,
    index: false,
  });
}
