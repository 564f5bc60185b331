import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { badRequest, notFound } from '../../http/errors.js';
import { TOGGLEABLE_PLUGINS } from '../../plugins/index.js';
import { assertAdmin, type Viewer } from '../privileges/service.js';
import { defaultBody, NoBody } from '../topics/schemas.js';
import { PLUGINS } from './plugins-pages.js';

const PluginParams = Type.Object({ pluginId: Type.String({ minLength: 1, maxLength: 214 }) });

/** A built-in plugin by Palaver's id (`emoji`) or NodeBB's package name (`nodebb-plugin-emoji`), or 404. */
function builtIn(pluginId: string): string {
  const found = PLUGINS.find((p) => p.id === pluginId || p.name === pluginId);
  if (!found) throw notFound('error:no-plugin');
  return found.id;
}

/**
 * Turns a built-in plugin on or off (the setting `plugins:disabled`, read by the hook bus's
 * gate in plugins/index.ts): only the toggleable ones may be turned off; the others are always on.
 */
export async function setPluginActive(ctx: Pick<AppContext, 'events' | 'settings'>, actor: Viewer, pluginId: string, active: boolean, ip = ''): Promise<void> {
  assertAdmin(actor);
  const id = builtIn(pluginId);
  if (!TOGGLEABLE_PLUGINS.includes(id)) {
    if (active) return;
    throw badRequest('error:plugin-cannot-be-disabled');
  }
  const before = (await ctx.settings.get())['plugins:disabled'];
  const off = new Set(before.split(',').filter(Boolean));
  if (active) off.delete(id);
  else off.add(id);
  const value = TOGGLEABLE_PLUGINS.filter((p) => off.has(p)).join(',');
  if (value === before) return;
  await ctx.settings.set({ 'plugins:disabled': value }, (w) => ctx.events.log('config-change', actor.uid, { key: 'plugins:disabled', from: before, to: value }, ip, w));
}

/**
 * NodeBB's admin plugin routes: activate and deactivate act on the built-in plugins; install,
 * uninstall and upgrade answer error:plugins-built-in-only (Palaver runs no third-party plugins yet).
 */
export function registerPluginRoutes(parent: FastifyInstance, ctx: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['admin'];
  app.put('/api/v3/admin/plugins/:pluginId/active', {
    schema: { params: PluginParams, body: Type.Object({ active: Type.Boolean() }), response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await setPluginActive(ctx, req.viewer, req.params.pluginId, req.body.active, req.ip);
      return ok({});
    },
  });
  const refuse = async (req: { viewer: Viewer }) => {
    assertAdmin(req.viewer);
    throw badRequest('error:plugins-built-in-only');
  };
  app.post('/api/v3/admin/plugins/:pluginId', {
    schema: { params: PluginParams, body: Type.Optional(Type.Object({ version: Type.Optional(Type.String({ maxLength: 100 })) })), response: { 200: Envelope(Empty) }, tags },
    handler: refuse,
  });
  app.delete('/api/v3/admin/plugins/:pluginId', { schema: { params: PluginParams, body: NoBody, response: { 200: Envelope(Empty) }, tags }, preValidation: defaultBody, handler: refuse });
  app.put('/api/v3/admin/plugins/:pluginId/upgrade', {
    schema: { params: PluginParams, body: Type.Optional(Type.Object({ version: Type.Optional(Type.String({ maxLength: 100 })) })), response: { 200: Envelope(Empty) }, tags },
    handler: refuse,
  });
}
