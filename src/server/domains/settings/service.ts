import { DEFAULT_SETTINGS, type ForumSettings } from '../../../shared/constants.js';
import type { Db } from '../../db/index.js';
import { assertSettingsChange } from './schema.js';
import { allSettings, putSetting } from './store.js';

// Short-lived so that a change made through another process shows within this window.
const TTL_MS = 5000;

/** Forum settings: stored values over defaults, cached briefly. */
export class SettingsService {
  private cached: ForumSettings | null = null;
  private loadedAt = 0;

  constructor(private readonly db: Db) {}

  /** The current settings. */
  async get(): Promise<ForumSettings> {
    if (this.cached && Date.now() - this.loadedAt < TTL_MS) return this.cached;
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
    this.cached = merged as ForumSettings;
    this.loadedAt = Date.now();
    return this.cached;
  }

  /** Changes settings; each value must fit the settings' schema (400 with the setting's key otherwise). */
  async set(values: Partial<Record<string, unknown>>): Promise<ForumSettings> {
    assertSettingsChange(values, await this.get());
    await this.db.transaction().execute(async (tx) => {
      for (const [key, value] of Object.entries(values)) await putSetting(tx, key, JSON.stringify(value));
    });
    this.cached = null;
    return this.get();
  }

  /** Drops the cache (after a change through another process). */
  invalidate(): void {
    this.cached = null;
  }
}
