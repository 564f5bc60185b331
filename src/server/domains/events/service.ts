import type { ActionRunner, Writer } from '../../core/action.js';
import type { Db } from '../../db/index.js';
import { insertEvent } from './store.js';

/**
 * The audit log's event names (NodeBB's where it has one). Domains may log others (a plugin's
 * own); these are the ones the forum writes, listed so the admin page can offer them.
 */
export const EVENT_TYPES = [
  'user-register', 'user-login', 'password-change', 'password-reset-requested', 'password-reset', 'user-delete',
  'user-ban', 'user-unban', 'user-mute', 'user-unmute', 'spam-report',
  'config-change', 'privilege-give', 'privilege-rescind', 'category-purge',
  'chat-room-read', 'chat-room-delete', 'chat-rooms-sort',
  'flag-update', 'flag-note-add', 'flag-note-delete', 'flag-delete', 'flag-auto-hide',
  'topic-move', 'topic-merge', 'topic-fork', 'topic-lock', 'topic-pin', 'topic-delete', 'topic-purge', 'post-move', 'post-change-owner',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

// The data fields that name what an event acted on, most specific first: 'flag:3', 'post:12'…
const TARGET_FIELDS: [string, string][] = [
  ['flagId', 'flag'], ['pid', 'post'], ['tid', 'topic'], ['targetUid', 'user'], ['roomId', 'room'], ['cid', 'category'],
];

/** What an event acted on, from its data ('' when nothing in particular): the log's target column. */
export function eventTarget(data: Record<string, unknown>): string {
  for (const [field, kind] of TARGET_FIELDS) {
    const v = data[field];
    if ((typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^\d+$/.test(v))) return `${kind}:${v}`;
  }
  return '';
}

/** One stored event with its data parsed. */
export interface EventEntry {
  id: number;
  type: string;
  uid: number;
  ip: string;
  target: string;
  created: number;
  data: Record<string, unknown>;
}

/** What the events list may be narrowed by (dates are milliseconds, `end` exclusive). */
export interface EventFilter {
  type?: string;
  uid?: number;
  target?: string;
  start?: number;
  end?: number;
}

/** The audit log: who did what, to what, when, from where. */
export class EventsService {
  constructor(
    private readonly db: Db,
    private readonly actions: ActionRunner,
  ) {}

  /**
   * Records an event in the action's transaction (`w`), so it commits with what it tells of or
   * not at all; without one, in an action of its own. Its target is read from the data.
   */
  async log(type: string, uid: number, data: Record<string, unknown> = {}, ip = '', w?: Writer): Promise<void> {
    const row = { type, uid, ip, data: JSON.stringify(data), target: eventTarget(data), created: Date.now() };
    if (!w) return this.actions.run('event.log', (own) => insertEvent(own, row));
    return insertEvent(w, row);
  }

  /** The newest events, newest first. */
  async recent(limit = 50, type?: string) {
    let q = this.db.selectFrom('events').selectAll().orderBy('id', 'desc').limit(limit);
    if (type) q = q.where('type', '=', type);
    const rows = await q.execute();
    return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }));
  }

  /** A page of events by the filter, newest first, and how many match. */
  async list(filter: EventFilter, offset: number, limit: number): Promise<{ rows: EventEntry[]; count: number }> {
    let base = this.db.selectFrom('events');
    if (filter.type) base = base.where('type', '=', filter.type);
    if (filter.uid !== undefined) base = base.where('uid', '=', filter.uid);
    if (filter.target) base = base.where('target', '=', filter.target);
    if (filter.start !== undefined) base = base.where('created', '>=', filter.start);
    if (filter.end !== undefined) base = base.where('created', '<', filter.end);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('created', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { rows: rows.map((r) => ({ ...r, created: Number(r.created), data: parseData(r.data) })), count: Number(count?.n ?? 0) };
  }

  /** Every event type in the log with its count (the page's type filter). */
  async typeCounts(): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom('events').select(['type', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('type').execute();
    return new Map(rows.map((r) => [r.type, Number(r.n)]));
  }
}

function parseData(raw: string): Record<string, unknown> {
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
