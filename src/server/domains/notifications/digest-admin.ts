import { sql } from 'kysely';
import type { AdminDigestDelivery } from '../../../shared/schemas/admin-people.js';
import type { Queryable } from '../../db/index.js';
import { badRequest, notFound } from '../../http/errors.js';
import { assertAdmin, type Viewer } from '../privileges/service.js';
import { presentUser } from '../users/presenter.js';
import { DIGEST_PERIOD_MS, DIGEST_TOPICS, digestFreqOf } from './digest.js';
import { parseSettings } from './schemas.js';
import type { NotificationsDeps } from './service.js';


// The digest_sends reads of the admin page (the table is this domain's: see store.ts digestCandidates).
async function deliveryRows(db: Queryable, offset: number, limit: number) {
  return db
    .selectFrom('users as u')
    .leftJoin('digest_sends as d', 'd.uid', 'u.uid')
    .selectAll('u')
    .select('d.last_sent')
    .where('u.deleted', '=', 0)
    .orderBy('u.uid')
    .offset(offset)
    .limit(limit)
    .execute();
}

async function countMembers(db: Queryable): Promise<number> {
  const r = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('deleted', '=', 0).executeTakeFirst();
  return Number(r?.n ?? 0);
}

async function lastDigest(db: Queryable): Promise<number> {
  const r = await db.selectFrom('digest_sends').select(sql<number | null>`max(last_sent)`.as('m')).executeTakeFirst();
  return Number(r?.m ?? 0);
}

/** admin/manage/digest: each member's digest frequency and last digest, the forum's default and the last digest sent. */
export async function digestOverview(ctx: NotificationsDeps, viewer: Viewer, page: number, perPage: number) {
  assertAdmin(viewer);
  const s = await ctx.settings.get();
  const rows = await deliveryRows(ctx.db, (page - 1) * perPage, perPage);
  const delivery = rows.map((r): AdminDigestDelivery => {
    const p = presentUser(r);
    const own = parseSettings(r.settings).dailyDigestFreq;
    return {
      uid: p.uid,
      username: p.username,
      userslug: p.userslug,
      displayname: p.displayname,
      picture: p.picture || null,
      'icon:text': p['icon:text'],
      'icon:bgColor': p['icon:bgColor'],
      lastDelivery: r.last_sent ? new Date(Number(r.last_sent)).toISOString() : '',
      setting: typeof own === 'string' ? own : '',
      isLocal: true,
    };
  });
  const last = await lastDigest(ctx.db);
  return { delivery, count: await countMembers(ctx.db), default: s.dailyDigestFreq, lastRun: last ? new Date(last).toISOString() : '' };
}

/**
 * Sends one member's digest now, whatever their schedule (an admin's "send now"): the topics
 * since their last digest (or one period of their frequency, a day when they get none), of
 * the categories they may read. False when there was nothing to send or no confirmed address.
 */
async function sendOne(ctx: NotificationsDeps, uid: number, now: number): Promise<boolean> {
  const user = await ctx.users.get(uid);
  if (!user || user.deleted) return false;
  if (!user.email || !user.email_confirmed) return false;
  const s = await ctx.settings.get();
  const f = digestFreqOf(user.settings, s.dailyDigestFreq);
  const freq = f === 'off' ? 'day' : f;
  const last = await ctx.db.selectFrom('digest_sends').select('last_sent').where('uid', '=', uid).executeTakeFirst();
  const since = last ? Number(last.last_sent) : now - DIGEST_PERIOD_MS[freq];
  const viewer = await ctx.privileges.viewer(uid);
  const cids = await ctx.categories.readableCids(viewer);
  if (!cids.length) return false;
  const { topics } = await ctx.topics.list(viewer, { cids, sort: 'popular', page: 1, perPage: DIGEST_TOPICS, since });
  if (!topics.length) return false;
  await ctx.db
    .insertInto('digest_sends')
    .values({ uid, last_sent: now })
    .onConflict((oc) => oc.column('uid').doUpdateSet({ last_sent: now }))
    .execute();
  const url = ctx.config.url;
  await ctx.mail.enqueue(user, {
    template: 'digest',
    freq,
    topics: topics.map((t) => ({ title: t.title, url: `${url}/topic/${t.slug}`, postcount: t.postcount })),
    settings: `${url}/user/${user.userslug}/settings`,
  });
  return true;
}

/**
 * "Send now" (NodeBB's admin digest resend): to one member, or to every member who gets
 * digests (their frequency, or the forum's default, is not off). Returns how many were queued.
 */
export async function sendDigestNow(ctx: NotificationsDeps, viewer: Viewer, uid: number | undefined, now = Date.now()): Promise<number> {
  assertAdmin(viewer);
  if (uid !== undefined) {
    const user = await ctx.users.get(uid);
    if (!user || user.deleted) throw notFound('error:no-user');
    if (!user.email || !user.email_confirmed) throw badRequest('error:email-not-confirmed');
    return (await sendOne(ctx, uid, now)) ? 1 : 0;
  }
  const s = await ctx.settings.get();
  let sent = 0;
  let after = 0;
  for (;;) {
    const batch = await ctx.db
      .selectFrom('users')
      .select(['uid', 'settings'])
      .where('uid', '>', after)
      .where('deleted', '=', 0)
      .where('email_confirmed', '=', 1)
      .orderBy('uid')
      .limit(500)
      .execute();
    if (!batch.length) break;
    after = batch[batch.length - 1]!.uid;
    for (const m of batch) {
      if (digestFreqOf(m.settings, s.dailyDigestFreq) === 'off') continue;
      if (await sendOne(ctx, m.uid, now)) sent += 1;
    }
  }
  return sent;
}
