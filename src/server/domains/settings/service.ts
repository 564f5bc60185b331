import { DEFAULT_SETTINGS, type ForumSettings } from '../../../shared/constants.js';
import type { ActionRunner, Writer } from '../../core/action.js';
import type { Cache, CacheRegistry } from '../../core/cache.js';
import { SETTINGS } from '../../core/tags.js';
import type { Db } from '../../db/index.js';
import { assertSettingsChange } from './schema.js';
import { allSettings, putSetting } from './store.js';

// A safety net: a committed change drops every process's entry at once (SETTINGS); the TTL
// covers a change made where no Redis carries the news (`palaver config set` beside a
// SQLite server) and a message lost while a subscriber reconnects.
const TTL_MS = 5000;

/** Forum settings: stored values over defaults, cached until a change drops them. */
export class SettingsService {
  private readonly cache: Cache<0, ForumSettings>;

  constructor(
    private readonly db: Db,
    private readonly actions: ActionRunner,
    registry: CacheRegistry,
  ) {
    this.cache = registry.create({
      name: 'settings',
      keeps: "the forum's settings, stored values over the defaults",
      droppedBy: 'any setting changed (SETTINGS)',
      ttlMs: TTL_MS,
      max: 1,
      tags: () => [SETTINGS],
    });
  }

  /** The current settings. */
  get(): Promise<ForumSettings> {
    return this.cache.get(0, async () => {
      const stored = await allSettings(this.db);
      const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
      for (const [key, raw] of Object.entries(stored)) {
        if (!(key in DEFAULT_SETTINGS)) continue;
        try {
          merged[key] = JSON.parse(raw);
        } catch {
          // A hand-edited row that is not JSON keeps the default.
        }
      }
      return merged as ForumSettings;
    });
  }

  /** The cached settings while fresh, else null (for hooks that must not wait on every request). */
  peek(): ForumSettings | null {
    return this.cache.peek(0) ?? null;
  }

  /**
   * Changes settings; each value must fit the settings' schema (400 with the setting's key
   * otherwise). `audit` writes in the same action (the events log's rows).
   */
  async set(values: Partial<Record<string, unknown>>, audit?: (w: Writer) => Promise<void>): Promise<ForumSettings> {
    assertSettingsChange(values, await this.get());
    // Every process drops its entry once this commits (never inside: a concurrent read could keep the old values).
    await this.actions.run('settings.set', async (w) => {
      for (const [key, value] of Object.entries(values)) await putSetting(w, key, JSON.stringify(value));
      await audit?.(w);
      await w.fire('action:settings.set', { keys: Object.keys(values) });
    });
    return this.get();
  }
}
