import type { Selectable } from 'kysely';
import type { Writer } from '../../../core/action.js';
import { topicTag } from '../../../core/tags.js';
import type { Queryable } from '../../../db/index.js';
import type { TopicEventsTable } from '../../../db/schema.js';

export type TopicEventRow = Selectable<TopicEventsTable>;

/** Inserts one event of a topic's timeline. */
export async function insertEvent(w: Writer, tid: number, type: string, uid: number, data: Record<string, unknown>, created = Date.now()): Promise<void> {
  w.changed(topicTag(tid));
  await w.tx.insertInto('topic_events').values({ tid, type, uid, data: JSON.stringify(data), created }).execute();
}

/** A topic's events, oldest first. */
export async function eventsOf(db: Queryable, tid: number): Promise<TopicEventRow[]> {
  return db.selectFrom('topic_events').selectAll().where('tid', '=', tid).orderBy('created').orderBy('id').execute();
}

/** A topic's events between two times (inclusive), oldest first: those among a page of posts. */
export async function eventsBetween(db: Queryable, tid: number, from: number, to: number): Promise<TopicEventRow[]> {
  return db.selectFrom('topic_events').selectAll().where('tid', '=', tid).where('created', '>=', from).where('created', '<=', to).orderBy('created').orderBy('id').execute();
}

/** A topic's events of the given kinds, oldest first. */
export async function eventsOfTypes(db: Queryable, tid: number, types: string[]): Promise<TopicEventRow[]> {
  return db.selectFrom('topic_events').selectAll().where('tid', '=', tid).where('type', 'in', types).orderBy('created').orderBy('id').execute();
}

/** Deletes one event of a topic; the number of rows removed. */
export async function deleteEvent(w: Writer, tid: number, id: number): Promise<number> {
  w.changed(topicTag(tid));
  const r = await w.tx.deleteFrom('topic_events').where('tid', '=', tid).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Moves every event of a topic to another (a merged topic's history joins the main one). */
export async function moveEvents(w: Writer, fromTid: number, toTid: number): Promise<void> {
  w.changed(topicTag(fromTid), topicTag(toTid));
  await w.tx.updateTable('topic_events').set({ tid: toTid }).where('tid', '=', fromTid).execute();
}
