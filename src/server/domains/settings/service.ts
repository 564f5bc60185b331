import { DEFAULT_SETTINGS, type ForumSettings } from '../../../shared/constants.js';
import type { SharedCaches } from '../../cache/shared.js';
import type { Db } from '../../db/index.js';
import { runAction } from '../../hooks/action.js';
import { assertSettingsChange } from './schema.js';
import { allSettings, putSetting } from './store.js';

// A safety net: a change clears every process's cache through SharedCaches at once; the TTL
// covers a change made where no Redis carries the news (`palaver config set` beside a
// SQLite server) and a message lost while a subscriber reconnects.
const TTL_MS = 5000;

/** Forum settings: stored values over defaults, cached until a change clears them. */
export class SettingsService {
  private cached: ForumSettings | null = null;
  /** Reads answered from the cache and loads (the admin's cache page). */
  hits = 0;
  misses = 0;
  private loadedAt = 0;
  // Bumped by every clear: a read that began before it must not cache what it read.
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly caches?: SharedCaches,
  ) {
    caches?.register('settings', () => this.invalidate());
  }

  /** The current settings. */
  async get(): Promise<ForumSettings> {
    if (this.cached && Date.now() - this.loadedAt < TTL_MS) {
      this.hits++;
      return this.cached;
    }
    this.misses++;
    const generation = this.generation;
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
    if (generation !== this.generation) return merged as ForumSettings;
    this.cached = merged as ForumSettings;
    this.loadedAt = Date.now();
    return this.cached;
  }

  /** The cached settings while fresh, else null (for hooks that must not wait on every request). */
  peek(): ForumSettings | null {
    return this.cached && Date.now() - this.loadedAt < TTL_MS ? this.cached : null;
  }

  /** Changes settings; each value must fit the settings' schema (400 with the setting's key otherwise). */
  async set(values: Partial<Record<string, unknown>>): Promise<ForumSettings> {
    assertSettingsChange(values, await this.get());
    await runAction(this.db, {
      write: async (tx) => {
        for (const [key, value] of Object.entries(values)) await putSetting(tx, key, JSON.stringify(value));
      },
      // After commit, in every process (a clear inside the transaction could let a concurrent read cache the old values).
      after: () => (this.caches ? this.caches.clear('settings') : this.invalidate()),
    });
    return this.get();
  }

  /** Drops this process's cache (SharedCaches calls it when any process changes a setting). */
  invalidate(): void {
    this.cached = null;
    this.generation += 1;
  }
}
