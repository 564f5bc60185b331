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

/** Loads the built-in plugins; a broken one is logged and skipped, never fatal. */
export async function loadBuiltinPlugins(ctx: AppContext, plugins: Plugin[] = BUILTIN_PLUGINS): Promise<string[]> {
  const loaded: string[] = [];
  for (const plugin of plugins) {
    try {
      await plugin.init({ hooks: ctx.hooks, log: ctx.log, config: { url: ctx.config.url, relativePath: ctx.config.relativePath }, services: ctx });
      loaded.push(plugin.id);
    } catch (err) {
      ctx.hooks.unregisterPlugin(plugin.id);
      ctx.log.error({ err, plugin: plugin.id }, 'plugin failed to load and was skipped');
    }
  }
  return loaded;
}
