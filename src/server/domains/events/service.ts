import type { Db, Queryable } from '../../db/index.js';

/** The audit log: who did what, when, from where. */
export class EventsService {
  constructor(private readonly db: Db) {}

  /** Records an event (inside the caller's transaction when given). */
  async log(type: string, uid: number, data: Record<string, unknown> = {}, ip = '', db: Queryable = this.db): Promise<void> {
    await db.insertInto('events').values({ type, uid, ip, data: JSON.stringify(data), created: Date.now() }).execute();
  }

  /** The newest events, newest first. */
  async recent(limit = 50, type?: string) {
    let q = this.db.selectFrom('events').selectAll().orderBy('id', 'desc').limit(limit);
    if (type) q = q.where('type', '=', type);
    const rows = await q.execute();
    return rows.map((r) => ({ ...r, data: JSON.parse(r.data) as Record<string, unknown> }));
  }
}
