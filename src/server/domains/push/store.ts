import type { Selectable } from 'kysely';
import type { Writer } from '../../core/action.js';
import { memberTag } from '../../core/tags.js';
import type { Queryable } from '../../db/index.js';
import type { PushSubscriptionsTable, PushVapidTable } from '../../db/schema.js';

export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;
export type VapidRow = Selectable<PushVapidTable>;

/** The forum's VAPID key pair, if made. */
export async function vapid(db: Queryable): Promise<VapidRow | undefined> {
  return db.selectFrom('push_vapid').selectAll().where('id', '=', 1).executeTakeFirst();
}

/** Stores a key pair unless one exists (two processes making one at once keep the first). */
export async function insertVapid(w: Writer, keys: { publicKey: string; privateKey: string }, now: number): Promise<void> {
  await w.tx
    .insertInto('push_vapid')
    .values({ id: 1, public_key: keys.publicKey, private_key: keys.privateKey, created: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/**
 * Saves a browser's subscription for a member. The endpoint is the browser's: subscribing it
 * again (new keys, or another member logged in there) replaces the row. Returns its id.
 */
export async function upsert(
  w: Writer,
  s: { uid: number; endpoint: string; p256dh: string; auth: string; userAgent: string; now: number },
): Promise<number> {
  w.changed(memberTag(s.uid));
  const row = await w.tx
    .insertInto('push_subscriptions')
    .values({ uid: s.uid, endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth, user_agent: s.userAgent, created: s.now })
    .onConflict((oc) => oc.column('endpoint').doUpdateSet({ uid: s.uid, p256dh: s.p256dh, auth: s.auth, user_agent: s.userAgent, created: s.now }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A member's subscriptions, newest first. */
export async function ofMember(db: Queryable, uid: number): Promise<PushSubscriptionRow[]> {
  return db.selectFrom('push_subscriptions').selectAll().where('uid', '=', uid).orderBy('created', 'desc').orderBy('id', 'desc').execute();
}

/** The subscriptions of several members in one query. */
export async function ofMembers(db: Queryable, uids: number[]): Promise<PushSubscriptionRow[]> {
  if (!uids.length) return [];
  return db.selectFrom('push_subscriptions').selectAll().where('uid', 'in', uids).orderBy('id').execute();
}

/** One subscription by id. */
export async function byId(db: Queryable, id: number): Promise<PushSubscriptionRow | undefined> {
  return db.selectFrom('push_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Deletes a subscription by id; false when it was gone already. */
export async function remove(w: Writer, uid: number, id: number): Promise<boolean> {
  w.changed(memberTag(uid));
  const res = await w.tx.deleteFrom('push_subscriptions').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Deletes a member's subscription by its endpoint; false when they had none there. */
export async function removeByEndpoint(w: Writer, uid: number, endpoint: string): Promise<boolean> {
  w.changed(memberTag(uid));
  const res = await w.tx.deleteFrom('push_subscriptions').where('uid', '=', uid).where('endpoint', '=', endpoint).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Deletes a subscription only if it still has these keys (a browser may have subscribed it again since the failed send). */
export async function removeStale(w: Writer, sub: { id: number; uid: number; endpoint: string; p256dh: string }): Promise<void> {
  w.changed(memberTag(sub.uid));
  const { id, endpoint, p256dh } = sub;
  await w.tx.deleteFrom('push_subscriptions').where('id', '=', id).where('endpoint', '=', endpoint).where('p256dh', '=', p256dh).execute();
}

/** Keeps a member's newest `keep` subscriptions and deletes the rest. */
export async function trim(w: Writer, uid: number, keep: number): Promise<void> {
  const old = await w.tx
    .selectFrom('push_subscriptions')
    .select('id')
    .where('uid', '=', uid)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1000)
    .execute();
  if (old.length)
    await w.tx
      .deleteFrom('push_subscriptions')
      .where(
        'id',
        'in',
        old.map((r) => r.id),
      )
      .execute();
}
