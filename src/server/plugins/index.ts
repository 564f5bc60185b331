import type { AppContext } from '../context.js';
import type { HookBus } from '../hooks/bus.js';
import emoji from './emoji/index.js';
import markdown from './markdown/index.js';
import mentions from './mentions/index.js';

/** What a plugin is given: the hook bus and a logger, as a third-party plugin would be. */
export interface PluginApi {
  hooks: HookBus;
  log: AppContext['log'];
  config: Pick<AppContext['config'], 'url' | 'relativePath'>;
  /**
   * Read access for plugins that look members up (mentions): the database for their own
   * read-only queries and the services they ask about members, privileges and topics.
   */
  services: PluginServices;
}

/** What a built-in plugin may read of the application (never writes: it fires hooks instead). */
export type PluginServices = Pick<AppContext, 'db' | 'users' | 'privileges' | 'topics' | 'groups'>;

export interface Plugin {
  id: string;
  init(api: PluginApi): void | Promise<void>;
}

/** Built-in plugins, loaded in this order. */
export const BUILTIN_PLUGINS: Plugin[] = [markdown, mentions, emoji];

/**
 * Built-in plugins an admin may turn off (setting 'plugins:disabled', admin/extend/plugins).
 * markdown is not among them: every post is rendered and sanitised by it.
 */
export const TOGGLEABLE_PLUGINS: readonly string[] = ['emoji', 'mentions'];

/**
 * The hook bus as a plugin that may be turned off sees it: each of its filters passes the
 * data through unchanged, and each of its actions does nothing, while the plugin is listed in
 * 'plugins:disabled' (read from the settings cache, so turning it back on needs no restart).
 */
function gatedHooks(ctx: AppContext, id: string): HookBus {
  if (!TOGGLEABLE_PLUGINS.includes(id)) return ctx.hooks;
  const off = async () => (await ctx.settings.get())['plugins:disabled'].split(',').includes(id);
  return new Proxy(ctx.hooks, {
    get(target, prop) {
      if (prop === 'filter') {
        return ((name, plugin, fn, priority) => target.filter(name, plugin, async (data) => ((await off()) ? data : fn(data)), priority)) as HookBus['filter'];
      }
      if (prop === 'action') {
        return ((name, plugin, fn, opts) =>
          target.action(name, plugin, async (data, run) => {
            if (!(await off())) await fn(data, run);
          }, opts)) as HookBus['action'];
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Loads the built-in plugins; a broken one is logged and skipped, never fatal. */
export async function loadBuiltinPlugins(ctx: AppContext, plugins: Plugin[] = BUILTIN_PLUGINS): Promise<string[]> {
  const loaded: string[] = [];
  for (const plugin of plugins) {
    try {
      await plugin.init({ hooks: gatedHooks(ctx, plugin.id), log: ctx.log, config: { url: ctx.config.url, relativePath: ctx.config.relativePath }, services: ctx });
      loaded.push(plugin.id);
    } catch (err) {
      ctx.hooks.unregisterPlugin(plugin.id);
      ctx.log.error({ err, plugin: plugin.id }, 'plugin failed to load and was skipped');
    }
  }
  return loaded;
}
