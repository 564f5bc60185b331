import type { TopicEventView } from '../../../../shared/types.js';
import type { Writer } from '../../../core/action.js';
import type { Queryable } from '../../../db/index.js';
import { forbidden, notFound } from '../../../http/errors.js';
import type { Viewer } from '../../privileges/service.js';
import { presentUser } from '../../users/presenter.js';
import { assertReadable, loadTopic, member } from '../access.js';
import * as topicStore from '../store.js';
import type { TopicToolsDeps as TopicsDeps } from '../service.js';
import * as store from './events-store.js';
import type { TopicEventRow } from './events-store.js';

/** The kinds of timeline events, with NodeBB's icon for each. */
export const EVENT_ICONS = {
  pin: 'fa-thumb-tack',
  unpin: 'fa-thumb-tack fa-rotate-90',
  lock: 'fa-lock',
  unlock: 'fa-unlock',
  delete: 'fa-trash',
  restore: 'fa-trash-o',
  move: 'fa-arrow-circle-right',
  merge: 'fa-code-fork',
  fork: 'fa-code-fork',
  'forked-from': 'fa-code-fork',
  'posts-moved-out': 'fa-arrow-circle-right',
  'posts-moved-in': 'fa-arrow-circle-left',
  owner: 'fa-user',
  tag: 'fa-tag',
  editors: 'fa-pencil',
} as const;
export type TopicEventType = keyof typeof EVENT_ICONS;

/** What an event may carry besides who and when (stored as JSON). */
export interface TopicEventData {
  count?: number;
  expiry?: number;
  fromName?: string;
  toName?: string;
  username?: string;
  tags?: string[];
  /** The other topic the event names (the fork, the source, the target). */
  otherTid?: number;
  /** A move's categories (for its undo). */
  fromCid?: number;
  toCid?: number;
}

/**
 * Records a timeline event and its audit-log entry, inside the tool's transaction. `tid` is the
 * topic whose timeline shows it; the audit entry is `topic-<type>` with the same details.
 */
export async function recordEvent(ctx: Pick<TopicsDeps, 'events'>, w: Writer, tid: number, type: TopicEventType, uid: number, data: TopicEventData = {}, ip = ''): Promise<void> {
  await store.insertEvent(w, tid, type, uid, { ...data });
  await ctx.events.log(`topic-${type}`, uid, { tid, ...data }, ip, w);
}

// A [[ns:key, args]] argument may hold neither a comma nor a square bracket.
const arg = (s: unknown) => String(s ?? '').replace(/[,[\]]/g, ' ').trim() || '-';

/** The [[topic:…]] text of an event, its arguments from the stored details. */
function eventText(type: string, d: TopicEventData): string {
  switch (type) {
    case 'pin':
      return d.expiry ? `[[topic:event.pinned-until, ${new Date(d.expiry).toISOString().slice(0, 16).replace('T', ' ')}]]` : '[[topic:event.pinned]]';
    case 'move':
      return `[[topic:event.moved, ${arg(d.fromName)}, ${arg(d.toName)}]]`;
    case 'merge':
    case 'fork':
    case 'posts-moved-out':
    case 'posts-moved-in':
      return `[[topic:event.${type}, ${d.count ?? 0}]]`;
    case 'owner':
      return `[[topic:event.owner, ${d.count ?? 0}, ${arg(d.username)}]]`;
    case 'tag':
      return d.tags?.length ? `[[topic:event.tagged, ${arg(d.tags.join(' '))}]]` : '[[topic:event.untagged]]';
    default:
      return `[[topic:event.${type}]]`;
  }
}

function parse(raw: string): TopicEventData {
  try {
    return JSON.parse(raw) as TopicEventData;
  } catch {
    return {};
  }
}

/**
 * Presents events as NodeBB's topic events (one query for their members). With `links`, the
 * page data's `href`/`hrefText` name the other topic when the viewer may read it (one query).
 */
export async function presentEvents(ctx: TopicsDeps, viewer: Viewer, rows: TopicEventRow[], links = false): Promise<TopicEventView[]> {
  if (!rows.length) return [];
  const users = await ctx.users.getMany([...new Set(rows.map((r) => r.uid))]);
  const data = rows.map((r) => parse(r.data));
  const others = new Map<number, { href: string; title: string }>();
  if (links) {
    const tids = [...new Set(data.map((d) => d.otherTid).filter((t): t is number => typeof t === 'number'))];
    for (const t of await topicStore.byTids(ctx.db, tids)) {
      if (t.deleted === 1 || t.scheduled === 1 || !(await ctx.privileges.can(viewer, 'topics:read', t.cid))) continue;
      others.set(t.tid, { href: `/topic/${t.tid}/${t.slug}`, title: t.title });
    }
  }
  return rows.map((r, i) => {
    const u = presentUser(users.get(r.uid), r.uid);
    const other = data[i]!.otherTid !== undefined ? others.get(data[i]!.otherTid!) : undefined;
    return {
      id: r.id,
      type: r.type,
      timestamp: Number(r.created),
      timestampISO: new Date(Number(r.created)).toISOString(),
      icon: EVENT_ICONS[r.type as TopicEventType] ?? 'fa-circle',
      text: eventText(r.type, data[i]!),
      uid: r.uid,
      user: { uid: u.uid, username: u.username, displayname: u.displayname, userslug: u.userslug, picture: u.picture || null, 'icon:text': u['icon:text'], 'icon:bgColor': u['icon:bgColor'] },
      ...(other ? { href: other.href, hrefText: other.title } : {}),
    };
  });
}

/** The event kinds an undo reverses, by family: a family's latest event is the one undone. */
const UNDO_FAMILIES: Record<string, string> = { pin: 'pin', unpin: 'pin', lock: 'lock', unlock: 'lock', delete: 'state', restore: 'state', move: 'move' };

/**
 * Gives the topic's moderators the undo of each family's latest event (pin/unpin, lock/unlock,
 * delete/restore, move) when it is among the page's events and the topic is still as that event
 * left it: the undo is the opposite tool, recorded as an event of its own. One query, for
 * moderators only.
 */
export async function attachUndo(
  db: Queryable,
  topic: Pick<topicStore.TopicRow, 'tid' | 'cid' | 'pinned' | 'locked' | 'deleted'>,
  events: TopicEventView[],
): Promise<void> {
  if (!events.some((e) => UNDO_FAMILIES[e.type])) return;
  const latest = new Map<string, TopicEventRow>();
  for (const row of await store.eventsOfTypes(db, topic.tid, Object.keys(UNDO_FAMILIES))) latest.set(UNDO_FAMILIES[row.type]!, row);
  const base = `/topics/${topic.tid}`;
  for (const e of events) {
    const family = UNDO_FAMILIES[e.type];
    if (!family || latest.get(family)?.id !== e.id) continue;
    if (e.type === 'pin' && topic.pinned === 1) e.undo = { method: 'DELETE', path: `${base}/pin` };
    else if (e.type === 'unpin' && topic.pinned !== 1) e.undo = { method: 'PUT', path: `${base}/pin` };
    else if (e.type === 'lock' && topic.locked === 1) e.undo = { method: 'DELETE', path: `${base}/lock` };
    else if (e.type === 'unlock' && topic.locked !== 1) e.undo = { method: 'PUT', path: `${base}/lock` };
    else if (e.type === 'delete' && topic.deleted === 1) e.undo = { method: 'PUT', path: `${base}/state` };
    else if (e.type === 'restore' && topic.deleted !== 1) e.undo = { method: 'DELETE', path: `${base}/state` };
    else if (e.type === 'move') {
      const d = parse(latest.get(family)!.data);
      if (typeof d.fromCid === 'number' && d.toCid === topic.cid) e.undo = { method: 'PUT', path: `${base}/move`, body: { cid: d.fromCid } };
    }
  }
}

/** A topic's events for a reader of the topic (GET /api/v3/topics/:tid/events). */
export async function listEvents(ctx: TopicsDeps, viewer: Viewer, tid: number): Promise<TopicEventView[]> {
  const topic = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, topic);
  return presentEvents(ctx, viewer, await store.eventsOf(ctx.db, tid));
}

/** Deletes one event from a topic's timeline: administrators and global moderators. */
export async function deleteEvent(ctx: TopicsDeps, viewer: Viewer, tid: number, id: number, ip = ''): Promise<void> {
  member(viewer);
  const topic = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, topic);
  if (!viewer.isAdmin && !viewer.isGlobalMod) throw forbidden();
  await ctx.actions.run('topic.delete-event', async (w) => {
    if (!(await store.deleteEvent(w, tid, id))) throw notFound('error:no-event');
    await ctx.events.log('topic-event-delete', viewer.uid, { tid, eventId: id }, ip, w);
    // Open topic pages reload their timeline.
    await w.fire('action:topic.tools', { tids: [tid], uid: viewer.uid, tool: 'event-delete' });
  });
}
