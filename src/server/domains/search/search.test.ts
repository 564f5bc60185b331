import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum, CACHE_OFF } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import { makeCategory, postReply, postTopic } from '../topics/testing.js';

const errors = JSON.parse(readFileSync(new URL('../../../../public/language/en-GB/error.json', import.meta.url), 'utf8')) as Record<string, string>;
let forum: TestForum;
let admin: HttpClient;
let cid: number;
let hidden: number;
let child: number;

/** The pids a search page answers, for the given query string. */
async function found(qs: string, client: HttpClient = forum.client()): Promise<number[]> {
  const res = await client.get(`/api/search?${qs}`);
  if (res.status !== 200) throw new Error(`search ${qs}: ${res.status} ${res.text}`);
  return (res.body.posts as { pid: number }[]).map((p) => p.pid);
}
const q = (term: string, extra = '') => `term=${encodeURIComponent(term)}${extra}`;

beforeAll(async () => {
  forum = await startTestForum();
  ({ client: admin } = await forum.loginAs({ admin: true }));
  cid = await makeCategory(forum.ctx, 'Searchable');
  child = (await forum.ctx.categories.create(SYSTEM, { name: 'Child', parentCid: cid })).cid;
  hidden = await makeCategory(forum.ctx, 'Staff only');
  // Guests and members lose read in the hidden category.
  for (const group of ['guests', 'registered-users', 'spiders']) {
    await forum.ctx.categories.rescind(SYSTEM, hidden, 'groups:topics:read', group).catch(() => undefined);
    await forum.ctx.categories.rescind(SYSTEM, hidden, 'groups:read', group).catch(() => undefined);
  }
});
afterAll(async () => {
  await forum.close();
});

describe('search across languages', () => {
  let en: number, de: number, zh: number, ja: number, ar: number;
  beforeAll(async () => {
    en = (await postTopic(admin, cid, { title: 'Gardening notes', content: 'My dogs keep running through the tomato beds every morning.' })).mainPid;
    de = (await postTopic(admin, cid, { title: 'Fußball', content: 'Die Fußballweltmeisterschaft beginnt im Sommer, sagt der Verband.' })).mainPid;
    zh = (await postTopic(admin, cid, { title: '中文讨论', content: '我们明天去北京大学参观图书馆，然后吃饭。' })).mainPid;
    ja = (await postTopic(admin, cid, { title: '日本語の話題', content: '東京タワーに行ったことがありますか？とても高いです。' })).mainPid;
    ar = (await postTopic(admin, cid, { title: 'موضوع عربي', content: 'مرحبا بالعالم، هذه مشاركة تجريبية عن المكتبة العامة.' })).mainPid;
  });

  it('finds English words by their stem: "run" finds "running", "dog" finds "dogs"', async () => {
    expect(await found(q('run'))).toContain(en);
    expect(await found(q('dog tomato'))).toEqual([en]);
    expect(await found(q('gardening', '&in=titles'))).toEqual([en]);
  });

  it('finds a part of a German compound word', async () => {
    expect(await found(q('weltmeister'))).toEqual([de]);
    expect(await found(q('fußball'))).toEqual([de]);
  });

  it('finds Chinese and Japanese phrases written without spaces, two characters or more', async () => {
    expect(await found(q('北京大学'))).toEqual([zh]);
    expect(await found(q('图书馆'))).toEqual([zh]);
    expect(await found(q('北京'))).toEqual([zh]);
    expect(await found(q('東京タワー'))).toEqual([ja]);
    expect(await found(q('タワー'))).toEqual([ja]);
  });

  it('finds Arabic words', async () => {
    expect(await found(q('بالعالم'))).toEqual([ar]);
    expect(await found(q('المكتبة'))).toEqual([ar]);
  });

  it('answers NodeBB\'s page data with a marked snippet', async () => {
    const res = await forum.client().get(`/api/search?${q('tomato')}`);
    expect(res.body).toMatchObject({ template: { name: 'search' }, matchCount: 1, pageCount: 1, search_query: 'tomato', showAsPosts: true, showAsTopics: false, multiplePages: false });
    expect(typeof res.body.time).toBe('string');
    const post = res.body.posts[0];
    expect(post).toMatchObject({ pid: en, topic: { title: 'Gardening notes' }, category: { cid }, user: { username: expect.any(String) } });
    expect(post.snippet).toContain('<mark>tomato</mark>');
  });
});

describe('filters', () => {
  let a: { tid: number; mainPid: number }, b: { tid: number; mainPid: number }, author: string;
  beforeAll(async () => {
    const m = await forum.loginAs({ admin: true });
    author = m.user.username;
    a = await postTopic(m.client, cid, { title: 'Zebra crossing rules', content: 'Zebra stripes are painted white on the road.', tags: ['roads'] });
    b = await postTopic(admin, child, { title: 'Zebra in the zoo', content: 'We saw a zebra yesterday at the zoo.' });
    await postReply(admin, b.tid, 'Another zebra reply with enough words.');
  });

  it('filters by title only, category with children, tags, author, replies and time', async () => {
    expect((await found(q('painted', '&in=titles')))).toEqual([]);
    expect((await found(q('zebra', `&categories=${cid}`))).sort()).toEqual([a.mainPid]);
    expect((await found(q('zebra', `&categories[]=${cid}&searchChildren=true`))).length).toBe(3);
    expect(await found(q('zebra', '&hasTags=roads'))).toEqual([a.mainPid]);
    expect(await found(q('zebra', `&by=${encodeURIComponent(author)}`))).toEqual([a.mainPid]);
    expect(await found(q('zebra', '&by=nobody-of-that-name'))).toEqual([]);
    expect((await found(q('zebra', '&replies=1&repliesFilter=atleast'))).length).toBe(2);
    expect((await found(q('zebra', '&timeRange=86400&timeFilter=older')))).toEqual([]);
    expect((await found(q('zebra', '&timeRange=86400&timeFilter=newer'))).length).toBe(3);
  });

  it('category and topic lists filter by tag (NodeBB\'s ?tag=)', async () => {
    const recent = await forum.client().get('/api/recent?tag=roads');
    expect(recent.body.topics.map((t: { tid: number }) => t.tid)).toEqual([a.tid]);
    expect(recent.body.selectedTag).toEqual({ label: 'roads', value: 'roads' });
    const cat = await forum.client().get(`/api/category/${cid}?tag=roads`);
    expect(cat.body.topics.map((t: { tid: number }) => t.tid)).toEqual([a.tid]);
    const none = await forum.client().get(`/api/category/${child}?tag=roads`);
    expect(none.body.topics).toEqual([]);
  });

  it('sorts and shows one row per topic when asked', async () => {
    const newest = await found(q('zebra', '&sortBy=timestamp&sortDirection=desc'));
    const oldest = await found(q('zebra', '&sortBy=timestamp&sortDirection=asc'));
    expect(oldest).toEqual([...newest].reverse());
    const topics = await forum.client().get(`/api/search?${q('zebra', '&showAs=topics')}`);
    expect(topics.body.matchCount).toBe(2);
    expect(topics.body.showAsTopics).toBe(true);
  });

  it('matches any word with matchWords=any, all of them by default', async () => {
    expect(await found(q('painted yesterday'))).toEqual([]);
    expect((await found(q('painted yesterday', '&matchWords=any'))).length).toBe(2);
  });

  it('pages the results and reports the total', async () => {
    for (let i = 0; i < 11; i++) await postReply(admin, a.tid, `Pagination marker quokka number ${i}`);
    const first = await forum.client().get(`/api/search?${q('quokka')}`);
    expect(first.body).toMatchObject({ matchCount: 11, pageCount: 2, multiplePages: true });
    expect(first.body.posts).toHaveLength(10);
    const second = await forum.client().get(`/api/search?${q('quokka', '&page=2')}`);
    expect(second.body.posts).toHaveLength(1);
    const past = await forum.client().get(`/api/search?${q('quokka', '&page=5')}`);
    expect(past.body).toMatchObject({ matchCount: 11, posts: [] });
  });
});

describe('privileges and deleted content', () => {
  it('never shows a post from a category the reader cannot read, even when asked for it', async () => {
    const secret = await postTopic(admin, hidden, { title: 'Secret plans', content: 'The narwhal operation starts at dawn.' });
    expect(await found(q('narwhal'), admin)).toEqual([secret.mainPid]);
    expect(await found(q('narwhal'))).toEqual([]);
    expect(await found(q('narwhal', `&categories=${hidden}`))).toEqual([]);
    const { client: member } = await forum.loginAs();
    expect(await found(q('narwhal'), member)).toEqual([]);
  });

  it('leaves deleted posts and topics out, and shows them again once restored', async () => {
    const t = await postTopic(admin, cid, { title: 'Axolotl care', content: 'Axolotl water should stay cool.' });
    const r = await postReply(admin, t.tid, 'My axolotl likes worms very much.');
    expect((await found(q('axolotl'))).length).toBe(2);
    expect((await admin.del(`/api/v3/posts/${r.pid}/state`)).status).toBe(200);
    expect(await found(q('axolotl'))).toEqual([t.mainPid]);
    expect((await admin.del(`/api/v3/topics/${t.tid}/state`)).status).toBe(200);
    expect(await found(q('axolotl'))).toEqual([]);
    expect((await admin.put(`/api/v3/topics/${t.tid}/state`)).status).toBe(200);
    expect((await admin.put(`/api/v3/posts/${r.pid}/state`)).status).toBe(200);
    expect((await found(q('axolotl'))).length).toBe(2);
  });
});

describe('the index follows every change', () => {
  it('an edit, a new title, a move to a hidden category and a purge', async () => {
    const t = await postTopic(admin, cid, { title: 'Platypus facts', content: 'The platypus lays eggs.' });
    expect(await found(q('platypus'))).toEqual([t.mainPid]);
    expect((await admin.put(`/api/v3/posts/${t.mainPid}`, { content: 'The echidna lays eggs too.', title: 'Echidna facts' })).status).toBe(200);
    expect(await found(q('platypus'))).toEqual([]);
    expect(await found(q('echidna'))).toEqual([t.mainPid]);
    expect(await found(q('echidna', '&in=titles'))).toEqual([t.mainPid]);
    // A move changes only the topic's category: the search reads it from the topic.
    expect((await admin.put(`/api/v3/topics/${t.tid}/move`, { cid: hidden })).status).toBe(200);
    expect(await found(q('echidna'))).toEqual([]);
    expect(await found(q('echidna'), admin)).toEqual([t.mainPid]);
    expect((await admin.del(`/api/v3/topics/${t.tid}`)).status).toBe(200);
    expect(await found(q('echidna'), admin)).toEqual([]);
  });

  it('palaver reindex rebuilds the same index', async () => {
    const before = await found(q('zebra'));
    const steps: number[] = [];
    const n = await forum.ctx.search.reindex((done) => steps.push(done));
    expect(n).toBeGreaterThan(10);
    expect(steps.at(-1)).toBe(n);
    expect(await found(q('zebra'))).toEqual(before);
  });
});

describe('the cache of result pages', () => {
  /** The search page's first result for a member, as they see it. */
  const first = async (client: HttpClient, term: string) => ((await client.get(`/api/search?${q(term)}`)).body.posts as { pid: number; votes: number }[])[0];

  it('shows a vote and a privilege change on the very next search', async () => {
    const t = await postTopic(admin, cid, { title: 'Capybara habits', content: 'The capybara bathes in warm springs.' });
    const { client: member } = await forum.loginAs();
    const { client: other } = await forum.loginAs();
    expect(await first(member, 'capybara')).toMatchObject({ pid: t.mainPid, votes: 0 });
    // Another member with the same privileges is answered from the same cached page…
    expect(await first(other, 'capybara')).toMatchObject({ pid: t.mainPid, votes: 0 });
    // … which a vote drops at once.
    expect((await other.put(`/api/v3/posts/${t.mainPid}/vote`, { delta: 1 })).status).toBe(200);
    expect(await first(member, 'capybara')).toMatchObject({ pid: t.mainPid, votes: 1 });
    // Members lose read in the category: their next search finds nothing there.
    await forum.ctx.categories.rescind(SYSTEM, cid, 'groups:topics:read', 'registered-users');
    try {
      expect(await first(member, 'capybara')).toBeUndefined();
      expect(await first(admin, 'capybara')).toMatchObject({ pid: t.mainPid });
    } finally {
      await forum.ctx.categories.grant(SYSTEM, cid, 'groups:topics:read', 'registered-users');
    }
    expect(await first(member, 'capybara')).toMatchObject({ pid: t.mainPid, votes: 1 });
  });

  it('offers the category filter the categories the viewer may see, following a privilege change', async () => {
    const { client: member } = await forum.loginAs();
    const cids = async () => ((await member.get('/api/search')).body.allCategories as { cid: number; level: number }[]).map((c) => c.cid);
    expect(await cids()).toEqual(expect.arrayContaining([cid, child]));
    expect(await cids()).not.toContain(hidden);
    const levels = (await member.get('/api/search')).body.allCategories as { cid: number; level: number }[];
    expect(levels.find((c) => c.cid === child)?.level).toBe(1);
    await forum.ctx.categories.grant(SYSTEM, hidden, 'groups:read', 'registered-users');
    try {
      expect(await cids()).toContain(hidden);
    } finally {
      await forum.ctx.categories.rescind(SYSTEM, hidden, 'groups:read', 'registered-users');
    }
    expect(await cids()).not.toContain(hidden);
  });
});

describe('bad input never reaches the database as syntax', () => {
  it.each(['"', '*', 'OR', 'NEAR(', "'", '\\', 'a AND', '"unbalanced', 'col:zebra', '{title} : x', '%_%', '()', 'zebra*', "'; DROP TABLE posts; --"])('%s answers 200', async (term) => {
    const res = await forum.client().get(`/api/search?${q(term)}`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.posts)).toBe(true);
  });

  it('an empty search is the empty form; an overlong one is a 400 with a key', async () => {
    const empty = await forum.client().get('/api/search');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ posts: [], matchCount: 0, search_query: '' });
    const long = await forum.client().get(`/api/search?${q('x'.repeat(2000))}`);
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('Search terms can be at most 500 characters long.');
  });

  it('an unknown filter value is a 400 with its key', async () => {
    for (const [qs, key] of [
      ['in=everything', 'error:invalid-search-in'],
      ['sortBy=random', 'error:invalid-search-sort'],
      ['sortDirection=up', 'error:invalid-search-sort'],
      ['matchWords=some', 'error:invalid-search-match'],
      ['replies=-1', 'error:invalid-search-replies'],
      ['timeRange=soon', 'error:invalid-search-time'],
      ['categories=abc', 'invalid-cid'],
      ['showAs=cards', 'error:invalid-search-show-as'],
      ['page=0', 'error:invalid-page'],
    ]) {
      const res = await forum.client().get(`/api/search?term=zebra&${qs}`);
      expect(res.status, qs).toBe(400);
      expect(res.body.error, qs).toBe(errors[key.replace('error:', '')]);
    }
  });
});

describe('members, tags and categories', () => {
  it('finds members by part of their name, tags and categories', async () => {
    const u = await forum.createUser({ username: 'Wombat Keeper' });
    expect((await forum.client().get('/api/search?term=wombat&in=users')).status).toBe(403);
    const { client: member } = await forum.loginAs();
    const users = await member.get('/api/search?term=wombat&in=users');
    expect(users.body.users.map((x: { uid: number }) => x.uid)).toEqual([u.uid]);
    // The member directory's ?term= (NodeBB's, used by user pickers) searches too.
    const directory = await member.get('/api/users?term=WOMBAT');
    expect(directory.body.users.map((x: { uid: number }) => x.uid)).toEqual([u.uid]);
    const tags = await forum.client().get('/api/search?term=road&in=tags');
    expect(tags.body.tags.map((x: { value: string }) => x.value)).toEqual(['roads']);
    const tagsPage = await forum.client().get('/api/tags?query=oad');
    expect(tagsPage.body.tags.map((x: { value: string }) => x.value)).toEqual(['roads']);
    const cats = await forum.client().get('/api/search?term=search&in=categories');
    expect(cats.body.categories.map((x: { cid: number }) => x.cid)).toEqual([cid]);
    const api = await forum.client().get('/api/v3/search/categories?search=child');
    expect(api.body.response.categories).toEqual([expect.objectContaining({ cid: child, name: 'Child', level: 1, parentCid: cid, selected: false })]);
    const hiddenCat = await forum.client().get('/api/v3/search/categories?search=staff');
    expect(hiddenCat.body.response.categories).toEqual([]);
  });

  it.skipIf(CACHE_OFF)('counts searches per day without a write per search', async () => {
    const before = await forum.ctx.db.selectFrom('search_counts').select('count').execute();
    const today = await forum.ctx.search.perDay(0);
    const total = today.reduce((n, d) => n + d.count, 0);
    expect(total).toBeGreaterThan(before.reduce((n, d) => n + Number(d.count), 0));
    await forum.client().get(`/api/search?${q('zebra')}`);
    const after = await forum.ctx.search.perDay(0);
    expect(after.reduce((n, d) => n + d.count, 0)).toBe(total + 1);
  });
});

describe('the admin search page (dbsearch)', () => {
  it('shows the index against the posts and searches per day, to admins only', async () => {
    const page = await admin.get('/api/admin/plugins/dbsearch');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ template: { name: 'admin/plugins/dbsearch' }, dialect: forum.ctx.dialect, searchDefaultIn: 'titlesposts' });
    expect(page.body.documents).toBe(page.body.posts);
    expect(page.body.searchesPerDay.reduce((n: number, d: { count: number }) => n + d.count, 0)).toBeGreaterThan(0);
    const { client: member } = await forum.loginAs();
    expect((await member.get('/api/admin/plugins/dbsearch')).status).toBe(403);
    expect((await forum.client().get('/api/admin/plugins/dbsearch')).status).toBe(401);
  });

  it('queues a rebuild that a job carries out; members may not', async () => {
    // An index that lost a document (as after a crash mid-import) …
    const t = await postTopic(admin, cid, { title: 'Lost document', content: 'The marmoset was never indexed.' });
    await sql`DELETE FROM ${sql.raw(forum.ctx.dialect === 'postgres' ? 'search_docs WHERE pid' : 'search_words WHERE rowid')} = ${t.mainPid}`.execute(forum.ctx.db);
    await sql`DELETE FROM ${sql.raw(forum.ctx.dialect === 'postgres' ? 'search_docs WHERE pid' : 'search_grams WHERE rowid')} = ${t.mainPid}`.execute(forum.ctx.db);
    expect(await found(q('marmoset'), admin)).toEqual([]);
    const { client: member } = await forum.loginAs();
    expect((await member.post('/api/v3/admin/search/reindex')).status).toBe(403);
    expect((await admin.post('/api/v3/admin/search/reindex')).status).toBe(200);
    // … is whole again once the job has run.
    // (Other queued jobs of the file's earlier tests run too, a batch at a time.)
    while ((await forum.ctx.jobs.runDue(Date.now() + 1000)) > 0);
    const job = await forum.ctx.db.selectFrom('jobs').selectAll().where('name', '=', 'search.reindex').executeTakeFirst();
    expect(job?.state).toBe('done');
    expect(await found(q('marmoset'), admin)).toEqual([t.mainPid]);
  });
});

describe.runIf(!!process.env.DATABASE_URL)("PostgreSQL's index in the forum's language", () => {
  it('a German forum stems German ("Häuser" finds "Haus"); back in English, English again', async () => {
    const house = (await postTopic(admin, cid, { title: 'Ferienwohnung', content: 'Wir haben das alte Haus am See gekauft.' })).mainPid;
    const garden = (await postTopic(admin, cid, { title: 'Cottage garden', content: 'The gardeners were planting roses.' })).mainPid;
    const settle = async () => {
      await forum.ctx.hooks.idle();
      while ((await forum.ctx.jobs.runDue(Date.now() + 1000)) > 0);
    };
    // English stemming leaves "häuser" as it is, and no document holds those letters.
    expect(await found(q('Häuser'))).not.toContain(house);
    expect(await found(q('plant'))).toContain(garden);
    await forum.ctx.settings.set({ defaultLang: 'de' });
    await settle();
    const configs = await sql<{ config: string; n: number | string }>`SELECT config::text AS config, count(*) AS n FROM search_docs GROUP BY config`.execute(forum.ctx.db);
    expect(configs.rows.map((r) => r.config)).toEqual(['german']);
    expect(await found(q('Häuser'))).toContain(house);
    expect(await found(q('Hauses'))).toContain(house);
    // A document written now is indexed in German too.
    const later = (await postTopic(admin, cid, { title: 'Zweites Angebot', content: 'Die Häuser am Fluss sind teurer.' })).mainPid;
    expect(await found(q('Haus'))).toEqual(expect.arrayContaining([house, later]));
    await forum.ctx.settings.set({ defaultLang: 'en-GB' });
    await settle();
    expect(await found(q('Häuser'))).not.toContain(house);
    expect(await found(q('plant'))).toContain(garden);
  });
});
