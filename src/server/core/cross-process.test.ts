import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { hashSecret } from '../domains/auth/service.js';
import { REGISTERED } from '../domains/groups/service.js';
import type { Viewer } from '../domains/privileges/service.js';
import { makeCategory } from '../domains/topics/testing.js';
import { CACHE_OFF, startTestForum, type TestForum } from '../test/harness.js';
import { CONTENT } from './tags.js';

/** Asks until the answer is `want`, for at most a second (the promise of the change bus). */
async function within1s<T>(ask: () => Promise<T>, want: T): Promise<T> {
  const until = Date.now() + 1000;
  let got = await ask();
  while (got !== want && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 20));
    got = await ask();
  }
  return got;
}

// Two app instances on one database and one Redis play two processes of one forum.
describe.skipIf(!process.env.REDIS_URL)('caches shared across processes (Redis)', () => {
  let forum: TestForum;
  let b: App;
  let member: Viewer;
  beforeAll(async () => {
    forum = await startTestForum();
    b = await buildApp(forum.ctx.config, { logger: false });
    await Promise.all([forum.ctx.changes.listening(), b.ctx.changes.listening()]);
    member = await forum.ctx.privileges.viewer((await forum.createUser()).uid);
  });
  afterAll(async () => {
    await b?.close();
    await forum?.close();
  });

  it('shows a setting changed in A to B within a second', async () => {
    const before = (await b.ctx.settings.get()).topicsPerPage;
    const next = before === 33 ? 34 : 33;
    await forum.ctx.settings.set({ topicsPerPage: next });
    expect(await within1s(async () => (await b.ctx.settings.get()).topicsPerPage, next)).toBe(next);
  });

  it('shows a setting changed by `palaver config set` (another process) within a second', async () => {
    const { config } = forum.ctx;
    expect((await forum.ctx.settings.get()).postsPerPage).not.toBe(41);
    await promisify(execFile)(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../main.ts'), 'config', 'set', 'postsPerPage', '41'], {
      env: {
        ...process.env,
        PALAVER_DATA_DIR: config.dataDir,
        DATABASE_URL: config.databaseUrl ?? '',
        REDIS_URL: config.redisUrl ?? '',
        PALAVER_REDIS_PREFIX: config.redisPrefix,
        PALAVER_SECRET: 'test-secret-test-secret-test-secret',
        LOG_LEVEL: 'error',
      },
    });
    expect(await within1s(async () => (await forum.ctx.settings.get()).postsPerPage, 41)).toBe(41);
  }, 60_000);

  it('shows a grant rescinded and given again in A to B within a second', async () => {
    const cid = await makeCategory(forum.ctx);
    // B has the grants cached.
    expect(await b.ctx.privileges.can(member, 'read', cid)).toBe(true);
    await forum.ctx.privileges.take(cid, ['read'], REGISTERED);
    expect(await within1s(() => b.ctx.privileges.can(member, 'read', cid), false)).toBe(false);
    await forum.ctx.privileges.give(cid, ['read'], REGISTERED);
    expect(await within1s(() => b.ctx.privileges.can(member, 'read', cid), true)).toBe(true);
  });

  it("shows a topic posted in A in B's cached lists and pages within a second", async () => {
    const cid = await makeCategory(forum.ctx);
    await forum.ctx.topics.create(member, { cid, title: 'Shared caches topic one', content: 'The first topic of this category.' });
    const titles = async () => (await b.ctx.topics.list(member, { cids: [cid], sort: 'recent', page: 1, perPage: 20 })).topics.map((t) => t.titleRaw);
    // B has the list cached.
    expect(await titles()).toEqual(['Shared caches topic one']);
    await forum.ctx.topics.create(member, { cid, title: 'Shared caches topic two', content: 'The second topic, from process A.' });
    expect(await within1s(async () => (await titles()).join(' | '), 'Shared caches topic two | Shared caches topic one')).toBe('Shared caches topic two | Shared caches topic one');
  });

  it("shows a member's category ignored in A in B's cached watch states within a second", async () => {
    const cid = await makeCategory(forum.ctx);
    const state = async () => (await b.ctx.categories.watchStates(member, [cid])).get(cid);
    // B has the member's chosen states cached (none: the default).
    expect(await state()).toBe('watching');
    await forum.ctx.categories.watch(member, cid, 'ignoring');
    expect(await within1s(state, 'ignoring')).toBe('ignoring');
    await forum.ctx.categories.watch(member, cid, null);
    expect(await within1s(state, 'watching')).toBe('watching');
  });

  it("ends in B a session signed out in A, and shows B a member's row changed in A, within a second", async () => {
    const user = await forum.createUser();
    const sid = await forum.ctx.auth.createSession(user.uid, '127.0.0.1', 'test', 30);
    const fullname = async () => (await b.ctx.auth.resolveSessionWithUser(sid, 30))?.user.fullname ?? 'signed out';
    // B keeps the session with the member's row.
    expect(await fullname()).toBe('');
    await forum.ctx.users.update(await forum.ctx.privileges.viewer(user.uid), user.uid, { fullname: 'Renamed In A' });
    expect(await within1s(fullname, 'Renamed In A')).toBe('Renamed In A');
    await forum.ctx.auth.destroySession(hashSecret(sid));
    expect(await within1s(fullname, 'signed out')).toBe('signed out');
  });

  it("shows B a member's unread chat rooms as messages and reads in A change them, within a second", async () => {
    const [sender, reader] = [await forum.createUser(), await forum.createUser()];
    const [from, to] = [await forum.ctx.privileges.viewer(sender.uid), await forum.ctx.privileges.viewer(reader.uid)];
    const room = await forum.ctx.chats.create(from, { uids: [reader.uid] });
    const unread = () => b.ctx.chats.unreadCount(to);
    // B keeps the reader's count.
    expect(await unread()).toBe(0);
    await forum.ctx.chats.send(from, room.roomId, 'A message from process A');
    expect(await within1s(unread, 1)).toBe(1);
    await forum.ctx.chats.markRead(to, room.roomId);
    expect(await within1s(unread, 0)).toBe(0);
  });

  it("shows B a member's unread topics as they read one in A, within a second, and keeps the others' unread pages", async () => {
    const cid = await makeCategory(forum.ctx);
    const [author, reader, other] = [member, await forum.createUser(), await forum.createUser()];
    const readerViewer = await forum.ctx.privileges.viewer(reader.uid);
    const otherViewer = await forum.ctx.privileges.viewer(other.uid);
    // The new topic drops B's lists whole: wait for that before B keeps the pages below.
    let dropped = false;
    b.ctx.changes.listen((tags) => {
      if (tags.includes(CONTENT)) dropped = true;
    });
    const { topic } = await forum.ctx.topics.create(author, { cid, title: 'Shared caches unread topic', content: 'A topic both members have not read yet.' });
    expect(await within1s(async () => dropped, true)).toBe(true);
    const unread = async (viewer: Viewer) => (await b.ctx.topics.list(viewer, { cids: [cid], sort: 'recent', page: 1, perPage: 20, unreadOnly: true, watchedCids: [cid] })).count;
    // B keeps both members' unread pages.
    expect(await unread(readerViewer)).toBe(1);
    expect(await unread(otherViewer)).toBe(1);
    // A change B cannot hear of (raw SQL is not seen by the write hooks): the other member read it.
    await sql`insert into topic_reads (uid, tid, read_at) values (${other.uid}, ${topic.tid}, ${Date.now() + 60_000})`.execute(forum.ctx.db);
    await forum.ctx.topics.markRead(readerViewer, topic.tid);
    expect(await within1s(() => unread(readerViewer), 0)).toBe(0);
    // The reader's read dropped only the reader's page in B: the other's is still the one B kept.
    expect(await unread(otherViewer)).toBe(1);
  });

  it.skipIf(CACHE_OFF)("drops in B only the session of the member whose row A wrote, and keeps the others'", async () => {
    const heard = new Set<string>();
    b.ctx.changes.listen((tags) => tags.forEach((t) => heard.add(t)));
    const [one, two] = [await forum.createUser(), await forum.createUser()];
    const [sidOne, sidTwo] = [await forum.ctx.auth.createSession(one.uid, '127.0.0.1', 'test', 30), await forum.ctx.auth.createSession(two.uid, '127.0.0.1', 'test', 30)];
    // The members' and sessions' creation reach B first (its listeners hear messages in order).
    expect(await within1s(async () => heard.has(`sessions:${two.uid}`), true)).toBe(true);
    const sessions = b.ctx.cacheRegistry.byName('sessions')!;
    const fullname = async (sid: string) => (await b.ctx.auth.resolveSessionWithUser(sid, 30))?.user.fullname ?? 'signed out';
    // B keeps both sessions.
    await fullname(sidOne);
    await fullname(sidTwo);
    await forum.ctx.users.update(await forum.ctx.privileges.viewer(one.uid), one.uid, { fullname: 'Only One Changed' });
    expect(await within1s(() => fullname(sidOne), 'Only One Changed')).toBe('Only One Changed');
    // The other member's session is still the one B kept: served without a read.
    const hits = sessions.hits;
    expect(await fullname(sidTwo)).toBe('');
    expect(sessions.hits).toBe(hits + 1);
  });
});
