import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgres, startTestForum, type TestForum } from '../../test/harness.js';
import { importNodebb, type ImportResult } from './run.js';
import { openSource, type NodebbSource } from './source.js';
import { loadNodebbPostgres, readDump, scratchRedis, type DumpLine } from './test-kit.js';

/**
 * The committed fixture (a real NodeBB 4.11.2 forum, fixtures/seed-nodebb.mjs) imported into
 * this run's database (SQLite, or PostgreSQL with DATABASE_URL), read from NodeBB's Redis
 * layout and from its PostgreSQL layout. A few bad records are added to the fixture: the
 * summary must name them.
 */
const BAD: DumpLine[] = [
  { k: 'post:9001', t: 'hash', v: { pid: '9001', tid: '4242', uid: '2', content: 'A post of a missing topic', timestamp: '1796652500000' } },
  { k: 'user:9002', t: 'hash', v: { uid: '9002', username: 'bad-email', userslug: 'bad-email', email: 'not-an-address', joindate: '1796652400000' } },
  { k: 'post:9003', t: 'hash', v: { pid: '9003', tid: '2', uid: '777', content: 'A post of a member who is gone', timestamp: '1796652600000' } },
  // Another member under alice's slug: the database refuses the row, the import goes on.
  { k: 'user:9005', t: 'hash', v: { uid: '9005', username: 'Alice', userslug: 'alice', joindate: '1796652800000' } },
  // Bob's settings as NodeBB keeps them (strings), one out of range, one unknown value.
  {
    k: 'user:3:settings',
    t: 'hash',
    v: {
      topicPostSort: 'newest_to_oldest',
      followTopicsOnReply: '1',
      postsPerPage: '500',
      openSidebars: 'bogus',
      userLang: 'fr',
      timezone: 'Europe/Paris',
      notificationType_upvote: 'none',
      'notificationType_new-reply': 'bogus',
      dailyDigestFreq: 'week',
    },
  },
  // What NodeBB keeps beside its main records (the layouts of NodeBB 4.11's src/): a custom
  // profile field, a ban lifted, API tokens, a followed tag, an upload's owner, a room's notification setting.
  { k: 'user-custom-fields', t: 'zset', v: [['favourite-switch', 0]] },
  {
    k: 'user-custom-field:favourite-switch',
    t: 'hash',
    v: { key: 'favourite-switch', name: 'Favourite switch', type: 'select', 'select-options': 'Blue\nBrown\nRed', visibility: 'loggedin' },
  },
  { k: 'uid:7:bans:timestamp', t: 'zset', v: [['uid:7:ban:1796652500000', 1796652500000]] },
  {
    k: 'uid:7:ban:1796652500000',
    t: 'hash',
    v: { type: 'ban', uid: '7', timestamp: '1796652500000', expire: '1796652600000', reason: 'Spam links', fromUid: '1' },
  },
  { k: 'uid:7:unbans:timestamp', t: 'zset', v: [['uid:7:unban:1796652550000', 1796652550000]] },
  { k: 'uid:7:unban:1796652550000', t: 'hash', v: { uid: '7', timestamp: '1796652550000', reason: 'Said sorry', fromUid: '1' } },
  {
    k: 'tokens:createtime',
    t: 'zset',
    v: [
      ['a1b2c3d4-alice-bot-token', 1796652400000],
      ['e5f6a7b8-master-token', 1796652400001],
      ['c9d0e1f2-gone-member', 1796652400002],
    ],
  },
  { k: 'token:a1b2c3d4-alice-bot-token', t: 'hash', v: { uid: '2', description: "Alice's bot", timestamp: '1796652400000' } },
  { k: 'token:e5f6a7b8-master-token', t: 'hash', v: { uid: '0', description: 'Backups', timestamp: '1796652400001' } },
  { k: 'token:c9d0e1f2-gone-member', t: 'hash', v: { uid: '777', description: '', timestamp: '1796652400002' } },
  { k: 'tokens:lastSeen', t: 'zset', v: [['a1b2c3d4-alice-bot-token', 1796652900000]] },
  { k: 'uid:2:followed_tags', t: 'zset', v: [['keyboards', 1796652450000]] },
  { k: 'uid:3:uploads', t: 'zset', v: [['files/1700000000000-my cat.png', 1700000000000]] },
  { k: 'chat:room:2:notification:settings', t: 'hash', v: { '2': '1', '4': '2' } },
  // Carol's posts waiting for a moderator (NodeBB's post queue): a reply and a new topic.
  {
    k: 'post:queue',
    t: 'zset',
    v: [
      ['reply-1796652900000', 1796652900000],
      ['topic-1796652900001', 1796652900001],
    ],
  },
  {
    k: 'post:queue:reply-1796652900000',
    t: 'hash',
    v: {
      id: 'reply-1796652900000',
      uid: '7',
      type: 'reply',
      data: JSON.stringify({ tid: 3, content: 'Queued reply about **switches**', uid: 7, timestamp: 1796652900000, ip: '10.0.0.6' }),
    },
  },
  {
    k: 'post:queue:topic-1796652900001',
    t: 'hash',
    v: {
      id: 'topic-1796652900001',
      uid: '7',
      type: 'topic',
      data: JSON.stringify({ cid: 5, title: 'A queued topic', content: 'Waiting', tags: ['meta'], uid: 7, timestamp: 1796652900001 }),
    },
  },
  {
    k: 'post:9004',
    t: 'hash',
    v: { pid: '9004', tid: '2', uid: '3', content: 'My cat: ![cat](/assets/uploads/files/1700000000000-my%20cat.png)', timestamp: '1796652700000' },
  },
];
/** NodeBB's public/uploads of the test: a file a post shows and a member's picture. */
const CAT = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
function uploadsDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'nodebb-uploads-'));
  mkdirSync(path.join(d, 'files'));
  mkdirSync(path.join(d, 'profile'));
  writeFileSync(path.join(d, 'files', '1700000000000-my cat.png'), CAT);
  writeFileSync(path.join(d, 'profile', 'uid-2-profileavatar.png'), Buffer.concat([CAT, Buffer.from('avatar')]));
  return d;
}
function withBadRecords(lines: DumpLine[]): DumpLine[] {
  const out = lines.map((l) => (l.t === 'zset' ? { ...l, v: [...l.v] } : l)) as DumpLine[];
  out.push(...BAD);
  const z = (k: string) => out.find((l) => l.k === k && l.t === 'zset') as { v: [string, number][] };
  z('posts:pid').v.push(['9001', 1796652500000], ['9003', 1796652600000], ['9004', 1796652700000]);
  const alice = out.find((l) => l.k === 'user:2') as { v: Record<string, string> };
  alice.v = { ...alice.v, uploadedpicture: '/assets/uploads/profile/uid-2-profileavatar.png', 'favourite-switch': 'Brown' };
  z('users:joindate').v.push(['9002', 1796652400000], ['9005', 1796652800000]);
  return out;
}

for (const backend of ['redis', 'postgres'] as const) {
  describe.skipIf(backend === 'postgres' && !process.env.DATABASE_URL)(`palaver import nodebb, from NodeBB's ${backend} layout`, () => {
    let forum: TestForum;
    let src: NodebbSource;
    let from: string;
    let drop: () => Promise<void>;
    let result: ImportResult;
    const dir = mkdtempSync(path.join(tmpdir(), 'palaver-import-'));

    beforeAll(async () => {
      const lines = withBadRecords(readDump());
      if (backend === 'redis') {
        ({ url: from, drop } = await scratchRedis(lines));
      } else {
        ({ url: from, drop } = await freshPostgres(process.env.DATABASE_URL!));
        await loadNodebbPostgres(from, lines);
      }
      forum = await startTestForum();
      src = await openSource(from);
      // Small pages, so every phase runs several batches and checkpoints.
      result = await importNodebb(forum.ctx, src, { from, dir, batch: 3, uploadsDir: uploadsDir() });
    });
    afterAll(async () => {
      await src?.close();
      await forum?.close();
      await drop?.();
      rmSync(dir, { recursive: true, force: true });
    });

    it('keeps every id: members (unicode, right-to-left, no password), categories three deep, topics, posts', async () => {
      const db = forum.ctx.db;
      const users = await db
        .selectFrom('users')
        .select(['uid', 'username', 'userslug', 'email', 'email_confirmed', 'password_hash', 'banned', 'ban_reason'])
        .orderBy('uid')
        .execute();
      const by = (name: string) => users.find((u) => u.username === name)!;
      expect(by('alice')).toMatchObject({ uid: 2, email: 'alice@example.com', email_confirmed: 1 });
      expect(by('alice').password_hash).toMatch(/^sha512:\$2b\$12\$/);
      expect(by('ゆき').uid).toBe(4);
      expect(by('مرحبا').uid).toBe(5);
      // An address waiting for its confirmation comes in unconfirmed.
      expect(by('Bob Smith')).toMatchObject({ uid: 3, email: 'bob@example.com', email_confirmed: 0 });
      expect(by('sso-only')).toMatchObject({ uid: 6, password_hash: null });
      expect(by('troll')).toMatchObject({ uid: 8, banned: 1, ban_reason: 'Trolling in the deep' });
      const bob = await db.selectFrom('users').select('settings').where('uid', '=', 3).executeTakeFirstOrThrow();
      expect(JSON.parse(bob.settings)).toEqual({
        topicPostSort: 'newest_to_oldest',
        followTopicsOnReply: true,
        postsPerPage: 100,
        userLang: 'fr',
        timezone: 'Europe/Paris',
        notificationType_upvote: 'none',
        dailyDigestFreq: 'week',
      });
      const cats = await db.selectFrom('categories').select(['cid', 'parent_cid', 'name', 'slug']).orderBy('cid').execute();
      expect(cats.find((c) => c.cid === 7)).toMatchObject({ parent_cid: 6, name: 'Keyboards ⌨', slug: '7/keyboards' });
      expect(cats.find((c) => c.cid === 6)).toMatchObject({ parent_cid: 5, name: 'Hardware' });
      const topic = await db.selectFrom('topics').selectAll().where('tid', '=', 3).executeTakeFirstOrThrow();
      expect(topic).toMatchObject({ cid: 7, uid: 3, title: 'Mechanical keyboards, revisited', slug: 'mechanical-keyboards-revisited', post_count: 2 });
      const flags = await db.selectFrom('topics').select(['tid', 'pinned', 'locked', 'deleted']).where('tid', 'in', [4, 5, 6]).orderBy('tid').execute();
      expect(flags).toEqual([
        { tid: 4, pinned: 1, locked: 0, deleted: 0 },
        { tid: 5, pinned: 0, locked: 1, deleted: 0 },
        { tid: 6, pinned: 0, locked: 0, deleted: 1 },
      ]);
      expect((await db.selectFrom('topic_tags').select('tag').where('tid', '=', 3).orderBy('tag').execute()).map((t) => t.tag)).toEqual([
        'hardware',
        'keyboards',
      ]);
      expect(await db.selectFrom('tags').select(['tag', 'topic_count']).where('tag', '=', 'meta').executeTakeFirst()).toEqual({ tag: 'meta', topic_count: 2 });
    });

    it("brings posts' edit history, former usernames, flags with their reports and notes, and the forum's settings", async () => {
      const db = forum.ctx.db;
      const edits = await db.selectFrom('post_edits').select(['uid', 'content', 'title', 'edited']).where('pid', '=', 9).orderBy('edited').execute();
      expect(edits.map((e) => e.content)).toEqual(['Which switches do you like?', 'Which switches do you like? (edited once)']);
      expect(edits.map((e) => e.title)).toEqual(['Mechanical keyboards', 'Mechanical keyboards']);
      expect(edits.every((e) => e.uid === 3)).toBe(true);
      const admin = await db.selectFrom('post_edits').select(['uid', 'content']).where('pid', '=', 3).execute();
      expect(admin).toEqual([{ uid: 3, content: 'Thanks @alice, glad to be here.' }]);
      expect(await db.selectFrom('username_history').select('username').where('uid', '=', 3).execute()).toEqual([{ username: 'Bob Smith' }]);
      const flags = await db.selectFrom('flags').select(['flag_id', 'type', 'target_id', 'state']).orderBy('flag_id').execute();
      expect(flags).toEqual([
        { flag_id: 1, type: 'post', target_id: 14, state: 'open' },
        { flag_id: 2, type: 'user', target_id: 8, state: 'resolved' },
      ]);
      expect(await db.selectFrom('flag_reports').select(['reporter_uid', 'reason']).where('flag_id', '=', 1).execute()).toEqual([
        { reporter_uid: 2, reason: 'Spam' },
      ]);
      expect(await db.selectFrom('flag_notes').select(['uid', 'content']).where('flag_id', '=', 1).execute()).toEqual([{ uid: 1, content: 'Looked at it' }]);
      expect((await forum.ctx.settings.get()).siteTitle).toBe('NodeBB');
    });

    it("brings what members kept beside: custom profile fields, ban history, API tokens, followed tags, vote times, upload owners, rooms' notification settings", async () => {
      const db = forum.ctx.db;
      expect(JSON.parse((await forum.ctx.settings.get()).customUserFields)).toEqual([
        { key: 'favourite-switch', name: 'Favourite switch', type: 'select', options: ['Blue', 'Brown', 'Red'], visibility: 'loggedin' },
      ]);
      expect(await db.selectFrom('user_fields').select(['uid', 'field_key', 'value']).execute()).toEqual([
        { uid: 2, field_key: 'favourite-switch', value: 'Brown' },
      ]);
      const history = await db.selectFrom('moderation_actions').select(['uid', 'kind', 'by_uid', 'reason', 'until', 'created']).orderBy('created').execute();
      expect(history).toEqual([
        { uid: 7, kind: 'ban', by_uid: 1, reason: 'Spam links', until: 1796652600000, created: 1796652500000 },
        { uid: 7, kind: 'unban', by_uid: 1, reason: 'Said sorry', until: 0, created: 1796652550000 },
        { uid: 8, kind: 'ban', by_uid: 1, reason: 'Trolling in the deep', until: 1797257372989, created: 1796652573105 },
      ]);
      // The member's token acts as them; the master token has no member; a missing member's is left out.
      const tokens = await db.selectFrom('api_tokens').select(['uid', 'description', 'created', 'last_seen']).orderBy('created').execute();
      expect(tokens).toEqual([
        { uid: 2, description: "Alice's bot", created: 1796652400000, last_seen: 1796652900000 },
        { uid: null, description: 'Backups', created: 1796652400001, last_seen: 0 },
      ]);
      const ping = await fetch(`${forum.baseUrl}/api/v3/ping`, {
        method: 'POST',
        headers: { authorization: 'Bearer a1b2c3d4-alice-bot-token', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(ping.status).toBe(200);
      expect(((await ping.json()) as { response: { uid: number } }).response.uid).toBe(2);
      expect(await db.selectFrom('tag_follows').select(['tag', 'uid', 'created']).execute()).toEqual([{ tag: 'keyboards', uid: 2, created: 1796652450000 }]);
      // Votes and bookmarks at the time the member gave them, not the post's.
      expect(await db.selectFrom('votes').select(['uid', 'created']).where('pid', '=', 3).execute()).toEqual([{ uid: 4, created: 1796652534559 }]);
      expect(await db.selectFrom('bookmarks').select(['uid', 'created']).where('pid', '=', 5).execute()).toEqual([{ uid: 4, created: 1796652535169 }]);
      expect(await db.selectFrom('uploads').select(['name', 'uid']).orderBy('name').execute()).toEqual([
        { name: 'my cat.png', uid: 3 },
        { name: 'uid-2-profileavatar.png', uid: 0 },
      ]);
      const notify = await db.selectFrom('chat_room_members').select(['uid', 'notify']).where('room_id', '=', 2).orderBy('uid').execute();
      expect(notify).toEqual([
        { uid: 2, notify: 0 },
        { uid: 3, notify: 2 },
        { uid: 4, notify: 1 },
      ]);
      const lines = readFileSync(result.summaryFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toContainEqual({ entity: 'api token', id: 'c9d0…', action: 'skipped', reason: 'its member 777 is missing' });
    });

    it("brings members' notifications, merged as NodeBB shows them, and the post queue", async () => {
      const db = forum.ctx.db;
      const alice = await db
        .selectFrom('notifications')
        .select(['type', 'body_key', 'body_params', 'from_uids', 'from_count', 'path', 'read', 'created'])
        .where('uid', '=', 2)
        .orderBy('created', 'desc')
        .execute();
      // Replies to her topic from four members (the fifth reply's was purged with it): one notification, the newest sender first.
      const replies = alice.find((n) => n.body_key === 'notifications:user-posted-to')!;
      expect(replies).toMatchObject({ type: 'new-reply', from_count: 4, body_params: '["Welcome to the old forum"]', read: 0, created: 1796652526660 });
      expect(replies.from_uids.split(',').filter(Boolean).map(Number)).toEqual([7, 5, 4, 3]);
      expect(alice.find((n) => n.type === 'follow')).toMatchObject({
        body_key: 'notifications:user-started-following-you',
        from_count: 1,
        path: '/user/bob-smith',
      });
      expect(alice.filter((n) => n.body_key === 'notifications:new-message-in').length).toBeGreaterThan(0);
      // The group's owner hears of Alice's request to join, with the group's name.
      const admin = await db
        .selectFrom('notifications')
        .select(['body_key', 'body_params', 'from_uid'])
        .where('uid', '=', 1)
        .where('type', '=', 'group-request-membership')
        .execute();
      expect(admin).toEqual([{ body_key: 'notifications:group-request-membership', body_params: '["Keyboard Club"]', from_uid: 2 }]);
      // What the API gives the member: NodeBB's text with the names of today.
      const { client } = await loginAlice(forum);
      const page = await client.request('GET', '/api/notifications');
      expect(page.status).toBe(200);
      expect(JSON.stringify(page.body)).toContain('[[notifications:user-posted-to-multiple, carol, 3, Welcome to the old forum]]');
      const queue = await db.selectFrom('post_queue').select(['uid', 'type', 'cid', 'tid', 'title', 'content', 'tags', 'ip']).orderBy('created').execute();
      expect(queue).toEqual([
        { uid: 7, type: 'reply', cid: 7, tid: 3, title: '', content: 'Queued reply about **switches**', tags: '[]', ip: '10.0.0.6' },
        { uid: 7, type: 'topic', cid: 5, tid: 0, title: 'A queued topic', content: 'Waiting', tags: '["meta"]', ip: '' },
      ]);
    });

    it('serves an old topic URL with its posts, rendered and sanitised, votes and bookmarks counted', async () => {
      const client = forum.client();
      const res = await client.request('GET', '/api/topic/2/welcome-to-the-old-forum');
      expect(res.status).toBe(200);
      const posts = res.body.posts as { pid: number; content: string; votes: number; deleted: number | boolean }[];
      const main = posts.find((p) => p.pid === res.body.mainPid)!;
      expect(main.content).toContain('<strong>everyone</strong>');
      expect(main.votes).toBe(4);
      const all = posts.map((p) => p.content).join('\n');
      expect(all).toContain('こんにちは');
      expect(all).toContain('مرحبا بالجميع');
      expect(all).not.toContain('<script>alert("xss")</script>');
      // The purged post is gone; the deleted one is there, deleted.
      expect(all).not.toContain('This post will be purged.');
      const pids = posts.map((p) => p.pid);
      const purged = await forum.ctx.db.selectFrom('posts').select('pid').where('content', 'like', '%purged%').execute();
      expect(purged).toEqual([]);
      expect(pids).toContain(6);
      expect(pids).not.toContain(7);
      // The old /post/<pid> link finds its topic.
      const post = await client.request('GET', '/api/post/4');
      expect([200, 302, 307]).toContain(post.status);
    });

    it("queues the search index's rebuild; once it has run, imported posts are found", async () => {
      const job = await forum.ctx.db.selectFrom('jobs').select(['name', 'state']).where('name', '=', 'search.reindex').executeTakeFirst();
      expect(job).toBeDefined();
      const indexed = await forum.ctx.search.reindex(() => undefined);
      expect(indexed).toBeGreaterThanOrEqual(14);
      // As a member: NodeBB's global privileges came with the forum, and its guests may not search.
      const { client } = await loginAlice(forum);
      const res = await client.request('GET', '/api/search?term=switches&in=posts');
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body.posts ?? res.body)).toContain('Which switches do you like best?');
    });

    it("copies NodeBB's uploads into the store and rewrites the links to them (posts, pictures)", async () => {
      const db = forum.ctx.db;
      const post = await db.selectFrom('posts').select(['content', 'content_html']).where('pid', '=', 9004).executeTakeFirstOrThrow();
      const m = /\/assets\/uploads\/(files\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png)/.exec(post.content);
      expect(m).not.toBeNull();
      expect(post.content_html).toContain(`/assets/uploads/${m![1]}`);
      expect(await db.selectFrom('upload_refs').select(['path', 'kind']).where('ref_id', '=', 9004).execute()).toEqual([{ path: m![1], kind: 'post' }]);
      const res = await fetch(`${forum.baseUrl}/assets/uploads/${m![1]}`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(CAT);
      const alice = await db.selectFrom('users').select('picture').where('uid', '=', 2).executeTakeFirstOrThrow();
      expect(alice.picture).toMatch(/^\/assets\/uploads\/files\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png$/);
      expect(await db.selectFrom('uploads').select('name').orderBy('name').execute()).toEqual([{ name: 'my cat.png' }, { name: 'uid-2-profileavatar.png' }]);
    });

    it('lets a member log in with the NodeBB password, then holds an argon2 hash; a wrong one fails', async () => {
      const wrong = await forum.client().request('POST', '/login', { username: 'alice', password: 'Nodebb-pass-2!' });
      expect(wrong.status).toBe(403);
      const right = await forum.client().request('POST', '/login', { username: 'alice', password: 'Nodebb-pass-1!' });
      expect(right.status).toBe(200);
      const row = await forum.ctx.db.selectFrom('users').select('password_hash').where('uid', '=', 2).executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      const again = await forum.client().request('POST', '/login', { username: 'alice', password: 'Nodebb-pass-1!' });
      expect(again.status).toBe(200);
      const yuki = await forum.client().request('POST', '/login', { username: 'ゆき', password: 'Nodebb-pass-3!' });
      expect(yuki.status).toBe(200);
      const sso = await forum.client().request('POST', '/login', { username: 'sso-only', password: 'anything-at-all' });
      expect(sso.status).toBe(403);
    });

    it('brings the chats: a direct conversation and a group room a member left, with an edit and a deletion', async () => {
      const db = forum.ctx.db;
      const dm = await db.selectFrom('chat_rooms').selectAll().where('room_id', '=', 1).executeTakeFirstOrThrow();
      expect(dm).toMatchObject({ dm_key: '2:3', message_count: 2 });
      const members = await db.selectFrom('chat_room_members').select('uid').where('room_id', '=', 2).orderBy('uid').execute();
      expect(members.map((m) => m.uid)).toEqual([2, 3, 4]);
      const msgs = await db
        .selectFrom('chat_messages')
        .select(['mid', 'uid', 'idx', 'content', 'edited', 'deleted'])
        .where('room_id', '=', 2)
        .orderBy('idx')
        .execute();
      expect(msgs.map((m) => [m.mid, m.idx])).toEqual([
        [3, 0],
        [4, 1],
        [5, 2],
      ]);
      expect(msgs[1]!.edited).toBeGreaterThan(0);
      // The departed member's message stays, deleted as it was.
      expect(msgs[2]).toMatchObject({ uid: 7, deleted: 1 });
      // Read states as NodeBB had them: Alice read up to her welcome, Bob never opened the room,
      // Yuki read up to her own message (Carol's later one unread).
      const reads = await db.selectFrom('chat_room_members').select(['uid', 'last_read_mid']).where('room_id', '=', 2).orderBy('uid').execute();
      expect(reads).toEqual([
        { uid: 2, last_read_mid: 3 },
        { uid: 3, last_read_mid: 0 },
        { uid: 4, last_read_mid: 4 },
      ]);
      // The topic's timeline and the blacklist came too.
      expect(await db.selectFrom('topic_events').select(['tid', 'type', 'uid']).orderBy('id').execute()).toEqual([
        { tid: 4, type: 'pin', uid: 1 },
        { tid: 5, type: 'lock', uid: 1 },
        { tid: 6, type: 'delete', uid: 1 },
      ]);
      const { client } = await loginAlice(forum);
      const page = await client.request('GET', '/api/chats/1');
      expect(page.status).toBe(200);
      expect(JSON.stringify(page.body)).toContain('Hi Bob, private hello');
    });

    it('lists every bad record in the summary file with its reason, and imported the rest', async () => {
      const lines = readFileSync(result.summaryFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toContainEqual({ entity: 'post', id: '9001', action: 'skipped', reason: 'its topic 4242 is missing' });
      expect(lines).toContainEqual({ entity: 'user', id: '9002', action: 'altered', reason: 'invalid email "not-an-address" dropped' });
      expect(lines).toContainEqual({ entity: 'post', id: '9003', action: 'altered', reason: 'author 777 is missing: shown as a guest' });
      const refused = lines.find((l) => l.id === '9005');
      expect(refused).toMatchObject({ entity: 'users', action: 'skipped' });
      expect(refused.reason).toMatch(/^could not be written: /);
      expect(lines.filter((l) => l.action === 'skipped').map((l) => `${l.entity} ${l.id}`)).toEqual(['users 9005', 'api token c9d0…', 'post 9001']);
      expect(result.skipped).toBe(3);
      // Its neighbours in the same page came in.
      expect(await forum.ctx.db.selectFrom('users').select('uid').where('uid', 'in', [9002, 9005]).execute()).toEqual([{ uid: 9002 }]);
      const last = lines[lines.length - 1];
      expect(last.counts.posts).toBeGreaterThan(10);
    });

    it('updates rather than duplicates when run again, and a dry run writes nothing', async () => {
      const count = async () => {
        const db = forum.ctx.db;
        const n = async (t: 'users' | 'posts' | 'topics' | 'votes' | 'chat_messages' | 'group_members' | 'privileges') =>
          Number(
            (
              await db
                .selectFrom(t)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        return {
          users: await n('users'),
          posts: await n('posts'),
          topics: await n('topics'),
          votes: await n('votes'),
          chats: await n('chat_messages'),
          members: await n('group_members'),
          privileges: await n('privileges'),
        };
      };
      const before = await count();
      await forum.ctx.db.updateTable('topics').set({ title: 'Changed here' }).where('tid', '=', 3).execute();
      const again = await importNodebb(forum.ctx, src, { from, dir, batch: 50, uploadsDir: uploadsDir() });
      expect(again.counts).toEqual(result.counts);
      // Without --uploads, the links to the files copied before stay rewritten.
      await importNodebb(forum.ctx, src, { from, dir, batch: 50 });
      expect((await forum.ctx.db.selectFrom('posts').select('content').where('pid', '=', 9004).executeTakeFirstOrThrow()).content).toMatch(
        /\/assets\/uploads\/files\/[0-9a-f]{2}\//,
      );
      expect(await count()).toEqual(before);
      expect((await forum.ctx.db.selectFrom('topics').select('title').where('tid', '=', 3).executeTakeFirstOrThrow()).title).toBe(
        'Mechanical keyboards, revisited',
      );
      const dry = await importNodebb(forum.ctx, src, { from, dir, dryRun: true });
      expect(dry.dryRun).toBe(true);
      expect(dry.counts.posts).toBe(result.counts.posts);
      expect(await count()).toEqual(before);
    });
  });
}

async function loginAlice(forum: TestForum) {
  const client = forum.client();
  const res = await client.request('POST', '/login', { username: 'alice', password: 'Nodebb-pass-1!' });
  expect(res.status).toBe(200);
  return { client };
}
