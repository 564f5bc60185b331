import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_FILTERS, type NotificationObject } from '../../../shared/schemas/notification.js';
import { SYSTEM } from '../../setup.js';
import { CACHE_OFF, startTestForum, type TestForum, type TestMember } from '../../test/harness.js';
import { collect, connectLive, nextEvent, delivered, type LiveClient } from '../../test/live-client.js';
import { REGISTERED } from '../groups/service.js';

let forum: TestForum;
let cid: number;
const sockets: LiveClient[] = [];

type Member = TestMember;

const member = (opts: { admin?: boolean } = {}): Promise<Member> => forum.member(opts);

async function live(m: Member): Promise<LiveClient> {
  const socket = await connectLive(m.client);
  sockets.push(socket);
  return socket;
}

/** A topic by `m` in `inCid` (its author follows it). */
async function topicBy(m: Member, inCid = cid) {
  return forum.ctx.topics.create(m.viewer, { cid: inCid, title: `Topic of ${m.user.username}`, content: 'The first post of a topic' });
}

async function reply(m: Member, tid: number) {
  const res = await m.client.post(`/api/v3/topics/${tid}`, { content: 'A reply that is long enough.' });
  expect(res.status).toBe(200);
  // The reply's notifications are after-commit work: let them land, so the
  // next event's notification is newer whatever the database's speed.
  await forum.ctx.hooks.idle();
  return res.body.response as { pid: number };
}

async function list(m: Member): Promise<{ unread: NotificationObject[]; read: NotificationObject[] }> {
  await forum.ctx.hooks.idle();
  const res = await m.client.get('/api/v3/notifications');
  expect(res.status).toBe(200);
  return res.body.response;
}

async function count(m: Member): Promise<number> {
  await forum.ctx.hooks.idle();
  const res = await m.client.get('/api/v3/notifications/count');
  expect(res.status).toBe(200);
  return res.body.response.unread;
}

beforeAll(async () => {
  forum = await startTestForum();
  cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Open' })).cid;
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => {
  await forum?.close();
});

describe('reply in a watched topic', () => {
  it('reaches the follower: list, count and a live event with the count on every open tab', async () => {
    const [alice, bob] = [await member(), await member()];
    const { topic } = await topicBy(alice);
    const [tab1, tab2] = [await live(alice), await live(alice)];
    const arrived = [nextEvent<NotificationObject>(tab1, 'event:new_notification'), nextEvent<NotificationObject>(tab2, 'event:new_notification')];
    const counted = nextEvent<number>(tab1, 'event:notifications.updateCount');
    const { pid } = await reply(bob, topic.tid);
    const [first, second] = await Promise.all(arrived);
    expect(first).toMatchObject({ type: 'new-reply', pid, tid: topic.tid, path: `/post/${pid}`, read: false, from: bob.user.uid, mergeId: `new_post:tid:${topic.tid}` });
    expect(first.bodyShort).toBe(`[[notifications:user-posted-to, ${bob.user.username}, ${topic.title}]]`);
    expect(first.user?.username).toBe(bob.user.username);
    expect(second.nid).toBe(first.nid);
    expect(await counted).toBe(1);
    const { unread } = await list(alice);
    expect(unread.map((n) => n.nid)).toEqual([first.nid]);
    expect(await count(alice)).toBe(1);
    // The replier is never told about their own reply (they follow the topic now).
    expect((await list(bob)).unread).toEqual([]);
  });

  it('merges two replies into one notification ("alice and bob"), moved to the top', async () => {
    const [owner, alice, bob, carol] = [await member(), await member(), await member(), await member()];
    const { topic } = await topicBy(owner);
    const other = await topicBy(owner);
    await reply(alice, topic.tid);
    await reply(carol, other.topic.tid);
    await reply(bob, topic.tid);
    const { unread } = await list(owner);
    expect(unread).toHaveLength(2);
    expect(unread[0]!.tid).toBe(topic.tid);
    expect(unread[0]!.bodyShort).toBe(`[[notifications:user-posted-to-dual, ${bob.user.username}, ${alice.user.username}, ${topic.title}]]`);
    // A third sender: "bob and 2 others"; the same sender again is not counted twice.
    await reply(carol, topic.tid);
    await reply(bob, topic.tid);
    const merged = (await list(owner)).unread[0]!;
    expect(merged.bodyShort).toBe(`[[notifications:user-posted-to-multiple, ${bob.user.username}, 2, ${topic.title}]]`);
    expect(await count(owner)).toBe(2);
  });

  it('keeps the merged text once read; a new reply then makes it unread with the merge restarted', async () => {
    const [owner, alice, bob, carol] = [await member(), await member(), await member(), await member()];
    const { topic } = await topicBy(owner);
    await reply(alice, topic.tid);
    await reply(bob, topic.tid);
    const nid = (await list(owner)).unread[0]!.nid;
    expect((await owner.client.put(`/api/v3/notifications/${nid}/read`)).status).toBe(200);
    const after = await list(owner);
    expect(after.unread).toEqual([]);
    expect(after.read[0]!.bodyShort).toContain('user-posted-to-dual');
    await reply(carol, topic.tid);
    const again = (await list(owner)).unread;
    expect(again.map((n) => n.nid)).toEqual([nid]);
    expect(again[0]!.bodyShort).toBe(`[[notifications:user-posted-to, ${carol.user.username}, ${topic.title}]]`);
  });

  it('a flood of 50 replies leaves one notification per reader', async () => {
    const [owner, watcher] = [await member(), await member()];
    const { topic } = await topicBy(owner);
    await forum.ctx.topics.follow(watcher.viewer, topic.tid, 'follow');
    const posters = await Promise.all(Array.from({ length: 5 }, () => member()));
    for (let i = 0; i < 50; i++) await reply(posters[i % 5]!, topic.tid);
    await forum.ctx.hooks.idle();
    const rows = await forum.ctx.db.selectFrom('notifications').select(['uid', 'from_count']).where('merge_key', '=', `new_post:tid:${topic.tid}`).execute();
    // The followers, the owner and the watcher: one row each, the five senders merged.
    expect(rows.map((r) => r.uid).sort((a, b) => a - b)).toEqual([owner.user.uid, watcher.user.uid].sort((a, b) => a - b));
    expect(rows.find((r) => r.uid === owner.user.uid)!.from_count).toBe(5);
    expect((await list(watcher)).unread[0]!.bodyShort).toContain('-multiple');
  });

  it('counts 25 senders while the row keeps only the newest 20 of them', async () => {
    const owner = await member();
    const { topic } = await topicBy(owner);
    const senders = await Promise.all(Array.from({ length: 25 }, async () => forum.ctx.privileges.viewer((await forum.createUser()).uid)));
    for (const v of senders) await forum.ctx.posts.reply(v, topic.tid, { content: 'A reply that is long enough.' });
    await forum.ctx.hooks.idle();
    const row = await forum.ctx.db.selectFrom('notifications').selectAll().where('uid', '=', owner.user.uid).executeTakeFirstOrThrow();
    expect(row.from_count).toBe(25);
    expect(row.from_uids.length).toBe(1 + 11 * 20);
    expect(row.from_uids.startsWith(`,${String(senders[24]!.uid).padStart(10, '0')},`)).toBe(true);
    const last = (await forum.ctx.users.get(senders[24]!.uid))!;
    expect((await list(owner)).unread[0]!.bodyShort).toBe(`[[notifications:user-posted-to-multiple, ${last.username}, 24, ${topic.title}]]`);
  });

  it('tells nobody who may not read the category, nor a member who ignores the topic', async () => {
    const staffCid = (await forum.ctx.categories.create(SYSTEM, { name: 'Staff' })).cid;
    const [owner, outsider, ignorer] = [await member({ admin: true }), await member(), await member()];
    const { topic } = await topicBy(owner, staffCid);
    await forum.ctx.topics.follow(outsider.viewer, topic.tid, 'follow');
    await forum.ctx.privileges.take(staffCid, ['read', 'topics:read'], REGISTERED);
    await reply(owner, topic.tid);
    const openTopic = (await topicBy(owner)).topic;
    await forum.ctx.topics.follow(ignorer.viewer, openTopic.tid, 'ignore');
    const helper = await member();
    await reply(helper, openTopic.tid);
    expect((await list(outsider)).unread).toEqual([]);
    expect((await list(ignorer)).unread).toEqual([]);
    // The admin owner still hears about the open topic's reply.
    expect((await list(owner)).unread.map((n) => n.tid)).toEqual([openTopic.tid]);
  });
  it('forgets a purged topic’s notifications, with the new count live', async () => {
    const [owner, a, admin] = [await member(), await member(), await member({ admin: true })];
    const kept = (await topicBy(owner)).topic;
    const purged = (await topicBy(owner)).topic;
    await reply(a, kept.tid);
    await reply(a, purged.tid);
    expect(await count(owner)).toBe(2);
    const socket = await live(owner);
    const counted = nextEvent<number>(socket, 'event:notifications.updateCount');
    expect((await admin.client.request('DELETE', `/api/v3/topics/${purged.tid}`)).status).toBe(200);
    expect(await counted).toBe(1);
    expect((await list(owner)).unread.map((n) => n.tid)).toEqual([kept.tid]);
  });
});

describe('upvotes and edits by a moderator', () => {
  it('tells the author of upvotes once the threshold is reached, never of a downvote', async () => {
    await forum.ctx.settings.set({ upvoteNotificationThreshold: 2 });
    const [author, v1, v2] = [await member(), await member(), await member()];
    const { post } = await topicBy(author);
    const socket = await live(author);
    const seen = collect<NotificationObject>(socket, 'event:new_notification');
    await forum.ctx.posts.vote(v1.viewer, post.pid, 1);
    await forum.ctx.hooks.idle();
    expect(await count(author)).toBe(0);
    const arrived = nextEvent<NotificationObject>(socket, 'event:new_notification');
    await forum.ctx.posts.vote(v2.viewer, post.pid, 1);
    expect(await arrived).toMatchObject({ type: 'upvote', pid: post.pid, from: v2.user.uid });
    await forum.ctx.posts.vote(v1.viewer, post.pid, -1);
    await delivered(forum, socket);
    expect(seen).toHaveLength(1);
    await forum.ctx.settings.set({ upvoteNotificationThreshold: 1 });
  });

  it('tells the author when a moderator edits their post, not when they edit it themselves', async () => {
    const [author, mod] = [await member(), await member({ admin: true })];
    const { post, topic } = await topicBy(author);
    await forum.ctx.posts.edit(author.viewer, post.pid, { content: 'The author edits their own post' });
    expect((await list(author)).unread).toEqual([]);
    await forum.ctx.posts.edit(mod.viewer, post.pid, { content: 'A moderator edits this post' });
    const [n] = (await list(author)).unread;
    expect(n).toMatchObject({ type: 'post-edit', pid: post.pid, from: mod.user.uid });
    expect(n!.bodyShort).toBe(`[[notifications:moderator-edited-post, ${mod.user.username}, ${topic.title}]]`);
  });
});

describe('watching: new topics and new followers, end to end', () => {
  it('a new topic in a watched category reaches the watcher live, once', async () => {
    const [author, watcher] = [await member(), await member()];
    expect((await watcher.client.put(`/api/v3/categories/${cid}/watch`, { state: 'watching' })).status).toBe(200);
    const socket = await live(watcher);
    const arrived = nextEvent<NotificationObject>(socket, 'event:new_notification');
    const res = await author.client.post('/api/v3/topics', { cid, title: 'A watched new topic', content: 'The first post of a topic' });
    expect(res.status).toBe(200);
    expect(await arrived).toMatchObject({ type: 'new-topic', tid: res.body.response.tid, from: author.user.uid });
    const { unread } = await list(watcher);
    expect(unread.filter((n) => n.tid === res.body.response.tid)).toHaveLength(1);
    expect(unread[0]!.bodyShort).toBe(`[[notifications:user-posted-topic, ${author.user.username}, A watched new topic]]`);
    expect((await list(author)).unread.filter((n) => n.type === 'new-topic')).toEqual([]);
    await watcher.client.put(`/api/v3/categories/${cid}/watch`, { state: 'notwatching' });
  });

  it('a new follower is told to the member followed', async () => {
    const [alice, bob] = [await member(), await member()];
    expect((await alice.client.put(`/api/v3/users/${bob.user.uid}/follow`)).status).toBe(200);
    const [n] = (await list(bob)).unread;
    expect(n).toMatchObject({ type: 'follow', from: alice.user.uid, path: `/user/${alice.user.userslug}` });
  });
});

describe('types fed by other domains through hooks', () => {
  it('mention, new follower and group invite become notifications', async () => {
    const [alice, bob] = [await member(), await member()];
    const { topic, post } = await topicBy(alice);
    await forum.ctx.hooks.fire('action:post.mention', { post, topic, uid: alice.user.uid, uids: [bob.user.uid, alice.user.uid] });
    await forum.ctx.hooks.fire('action:user.follow', { uid: alice.user.uid, followee: bob.user.uid });
    await forum.ctx.hooks.fire('action:group.invite', { groupName: 'Team Red', uid: bob.user.uid, by: alice.user.uid });
    const { unread } = await list(bob);
    expect(unread.map((n) => n.type).sort()).toEqual(['follow', 'group-invite', 'mention']);
    expect(unread.find((n) => n.type === 'follow')!.path).toBe(`/user/${alice.user.userslug}`);
    expect(unread.find((n) => n.type === 'group-invite')!.bodyShort).toBe(`[[notifications:invited-to-group, ${alice.user.username}, Team Red]]`);
    expect((await list(alice)).unread).toEqual([]);
  });

  it('a new flag reaches the moderators', async () => {
    const [admin, flagger] = [await member({ admin: true }), await member()];
    const { topic, post } = await topicBy(flagger);
    await forum.ctx.hooks.fire('action:flag.create', { flagId: 7, uid: flagger.user.uid, cid, type: 'post', targetId: post.pid, tid: topic.tid });
    expect((await list(admin)).unread.map((n) => [n.type, n.path])).toContainEqual(['new-post-flag', '/flags/7']);
    expect((await list(flagger)).unread).toEqual([]);
  });
});

describe('routes', () => {
  it('marks one read and unread, all read, and deletes, with the live count', async () => {
    const [owner, a, b] = [await member(), await member(), await member()];
    const t1 = (await topicBy(owner)).topic;
    const t2 = (await topicBy(owner)).topic;
    await reply(a, t1.tid);
    await reply(b, t2.tid);
    const [n2, n1] = (await list(owner)).unread;
    const socket = await live(owner);
    const counted = nextEvent<number>(socket, 'event:notifications.updateCount');
    expect((await owner.client.put(`/api/v3/notifications/${n1!.nid}/read`)).status).toBe(200);
    expect(await counted).toBe(1);
    expect((await owner.client.get(`/api/v3/notifications/${n1!.nid}`)).body.response.notification).toMatchObject({ nid: n1!.nid, read: true, readClass: '' });
    expect((await owner.client.request('DELETE', `/api/v3/notifications/${n1!.nid}/read`)).status).toBe(200);
    expect(await count(owner)).toBe(2);
    expect((await owner.client.put('/api/v3/notifications/read')).status).toBe(200);
    expect(await count(owner)).toBe(0);
    expect((await owner.client.request('DELETE', `/api/v3/notifications/${n2!.nid}`)).status).toBe(200);
    expect((await owner.client.get(`/api/v3/notifications/${n2!.nid}`)).status).toBe(404);
    expect((await list(owner)).read.map((n) => n.nid)).toEqual([n1!.nid]);
  });

  it('answers 404 for unknown ids and for another member’s, 401 for guests', async () => {
    const [owner, a, other] = [await member(), await member(), await member()];
    await reply(a, (await topicBy(owner)).topic.tid);
    const [n] = (await list(owner)).unread;
    for (const path of [`/api/v3/notifications/${n!.nid}`, '/api/v3/notifications/999999', '/api/v3/notifications/uploads:export:1']) {
      const res = await other.client.get(path);
      expect(res.status).toBe(404);
      expect(res.body.status.key).toBe('error:no-notification');
    }
    expect((await other.client.put(`/api/v3/notifications/${n!.nid}/read`)).status).toBe(404);
    expect((await other.client.request('DELETE', `/api/v3/notifications/${n!.nid}`)).status).toBe(404);
    expect((await list(owner)).unread).toHaveLength(1);
    const guest = forum.client();
    expect((await guest.get('/api/v3/notifications/count')).status).toBe(401);
    expect((await guest.get('/api/notifications')).status).toBe(401);
  });

  it('serves the page data with filters and pagination', async () => {
    const [owner, a] = [await member(), await member()];
    const { post } = await topicBy(owner);
    await reply(a, (await topicBy(owner)).topic.tid);
    await forum.ctx.posts.vote(a.viewer, post.pid, 1);
    await forum.ctx.hooks.idle();
    const all = await owner.client.get('/api/notifications');
    expect(all.status).toBe(200);
    expect(all.body.template.name).toBe('notifications');
    const key = (n: NotificationObject) => n.bodyShort.slice(2).split(',')[0];
    expect(all.body.notifications.map(key)).toEqual(['notifications:upvoted-your-post-in', 'notifications:user-posted-to']);
    // NodeBB's page lists fewer fields than the API's NotificationObject.
    expect(Object.keys(all.body.notifications[0]).sort()).toEqual(['bodyShort', 'datetime', 'datetimeISO', 'from', 'image', 'importance', 'nid', 'path', 'read', 'readClass', 'user']);
    expect(all.body.unreadNids).toHaveLength(2);
    expect(all.body.moderatorFilters).toEqual([]);
    expect(all.body.regularFilters.find((f: { filter: string }) => f.filter === 'upvote')).toMatchObject({ count: 1, selected: false });
    const replies = await owner.client.get('/api/notifications?filter=new-reply');
    expect(replies.body.notifications.map(key)).toEqual(['notifications:user-posted-to']);
    expect(replies.body.selectedFilter).toMatchObject({ filter: 'new-reply', selected: true });
    expect(replies.body.pagination).toMatchObject({ currentPage: 1, pageCount: 1 });
    expect((await owner.client.get('/api/notifications?page=3')).status).toBe(404);
    expect((await owner.client.get('/api/notifications?page=x')).status).toBe(400);
  });

  it('counts on the page (total, unread, each filter’s unread) are those plain queries give, and the kept page changes at once on a new notification, a read, a deletion or a sender’s new name', async () => {
    const [owner, a, b] = [await member(), await member(), await member()];
    const types = ['new-reply', 'new-topic', 'mention', 'quote', 'upvote', 'follow'] as const;
    const send = (i: number, from: Member) =>
      forum.ctx.notifications.notify({ type: types[i % types.length]!, mergeKey: `kept:${i}`, subject: { type: 'topic', id: i }, from: from.user.uid, path: `/topic/${i}`, bodyKey: 'notifications:user-posted-to', params: [`Topic ${i}`], uids: [owner.user.uid] });
    for (let i = 0; i < 25; i++) await send(i, i % 2 ? a : b);
    const db = forum.ctx.db;
    for (const { id } of await db.selectFrom('notifications').select('id').where('uid', '=', owner.user.uid).where('type', 'in', ['mention', 'follow']).execute()) {
      await db.updateTable('notifications').set({ read: 1 }).where('id', '=', id).execute();
    }
    type Filter = { filter: string; count: number };
    const page = async (query = '') => {
      const res = await owner.client.get(`/api/notifications${query}`);
      expect(res.status).toBe(200);
      return res.body as { notifications: NotificationObject[]; unreadNids: string[]; filters: Filter[]; pagination: { pageCount: number } };
    };
    // What the page shows, against plain queries of the table.
    const check = async () => {
      const rows = await db.selectFrom('notifications').selectAll().where('uid', '=', owner.user.uid).orderBy('created', 'desc').orderBy('id', 'desc').execute();
      const shown = await page();
      expect(shown.notifications.map((n) => n.nid)).toEqual(rows.slice(0, 20).map((r) => String(r.id)));
      expect(shown.notifications.map((n) => n.read)).toEqual(rows.slice(0, 20).map((r) => r.read === 1));
      expect(shown.unreadNids).toEqual(rows.slice(0, 20).filter((r) => r.read === 0).map((r) => String(r.id)));
      expect(shown.pagination.pageCount).toBe(Math.max(1, Math.ceil(rows.length / 20)));
      const unread = rows.filter((r) => r.read === 0);
      for (const f of shown.filters) {
        const of = NOTIFICATION_FILTERS.find((d) => d.filter === f.filter)!;
        expect(f.count, f.filter).toBe(unread.filter((r) => !of.types.length || (of.types as string[]).includes(r.type)).length);
        const filtered = await page(`?filter=${f.filter}`);
        const total = rows.filter((r) => !of.types.length || (of.types as string[]).includes(r.type)).length;
        expect(filtered.pagination.pageCount, f.filter).toBe(Math.max(1, Math.ceil(total / 20)));
      }
      return { shown, rows };
    };
    let { shown } = await check();
    expect(shown.filters.find((f) => f.filter === 'mention')!.count).toBe(4); // the four quotes: the mentions are read
    // The page is kept: asked again, it is the same.
    expect((await page()).notifications).toEqual(shown.notifications);
    // A new notification shows at once.
    const [added] = await send(99, a);
    ({ shown } = await check());
    expect(shown.notifications[0]!.nid).toBe(String(added!.id));
    // A read, an unread, all read, a deletion: each at once.
    expect((await owner.client.put(`/api/v3/notifications/${added!.id}/read`)).status).toBe(200);
    ({ shown } = await check());
    expect(shown.notifications[0]).toMatchObject({ nid: String(added!.id), read: true });
    expect((await owner.client.request('DELETE', `/api/v3/notifications/${added!.id}/read`)).status).toBe(200);
    expect((await check()).shown.notifications[0]).toMatchObject({ read: false });
    expect((await owner.client.put('/api/v3/notifications/read')).status).toBe(200);
    ({ shown } = await check());
    expect(shown.unreadNids).toEqual([]);
    expect((await owner.client.request('DELETE', `/api/v3/notifications/${added!.id}`)).status).toBe(200);
    expect((await check()).shown.notifications.map((n) => n.nid)).not.toContain(String(added!.id));
    // A sender's new name.
    const sender = (await page()).notifications[0]!.user!.uid;
    await db.updateTable('users').set({ username: 'renamed-sender' }).where('uid', '=', sender).execute();
    expect((await page()).notifications[0]!.user).toMatchObject({ uid: sender, username: 'renamed-sender' });
  });

  it.skipIf(CACHE_OFF)("a kept page is dropped by a write to its member's notifications, not by another member's", async () => {
    const [owner, other, sender] = [await member(), await member(), await member()];
    const send = (to: Member, i: number) =>
      forum.ctx.notifications.notify({ type: 'new-reply', mergeKey: `per-member:${to.user.uid}:${i}`, subject: { type: 'topic', id: i }, from: sender.user.uid, path: `/topic/${i}`, bodyKey: 'notifications:user-posted-to', params: [`Topic ${i}`], uids: [to.user.uid] });
    const [first] = await send(owner, 1);
    const nids = async () => ((await owner.client.get('/api/notifications')).body as { notifications: NotificationObject[] }).notifications.map((n) => n.nid);
    expect(await nids()).toEqual([String(first!.id)]);
    // A change no write hook sees (raw SQL): the owner's notification gone. Their kept page still shows it…
    await sql`delete from notifications where id = ${first!.id}`.execute(forum.ctx.db);
    // …while another member is notified (that write drops the other member's pages only).
    await send(other, 2);
    expect(await nids()).toEqual([String(first!.id)]);
    // A write to the owner's notifications drops theirs: read again, without the deleted one.
    const [second] = await send(owner, 3);
    expect(await nids()).toEqual([String(second!.id)]);
  });
});

