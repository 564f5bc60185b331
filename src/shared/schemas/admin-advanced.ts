import type { PageBase } from '../types.js';

/** GET /api/admin/advanced/cache. */
export interface AdminCachePage extends PageBase {
  caches: { name: string; length: number; max: number; hits: number; misses: number; hitRatio: string; ttl: number; enabled: boolean }[];
}

export interface AdminErrorEntry {
  value: string;
  score: number;
  lastSeen: number;
  lastSeenISO: string;
}

/** GET /api/admin/advanced/errors (NodeBB: `not-found` as {value: path, score: count}). */
export interface AdminErrorsPage extends PageBase {
  'not-found': AdminErrorEntry[];
  'server-error': AdminErrorEntry[];
}

/** GET /api/admin/advanced/logs (NodeBB's `data`: the log's text). */
export interface AdminLogsPage extends PageBase {
  data: string;
  lines: number;
}

/** GET /api/admin/advanced/database. */
export interface AdminDatabasePage extends PageBase {
  database: { dialect: string; version: string; size: number; tables: { name: string; rows: number }[]; settings: { name: string; value: string }[] };
  redis: Record<string, string> | null;
}
