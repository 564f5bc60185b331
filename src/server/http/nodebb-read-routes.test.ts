import { describe, expect, it } from 'vitest';
import { postReply, postTopic } from '../domains/topics/testing.js';
import { useForum } from '../test/forum-kit.js';

// NodeBB's read routes: /ping, /sping, /api/me(/*), /api/uid/{uid}(/*), /api/self,
// /api/user/uid|username|email/…, /api/unread/total, /api/topic/teaser/{tid}, /api/recent/posts/{term}.

const kit = useForum({ category: 'Read routes', members: ['alice'] });

describe('health checks', () => {
  it('/ping answers "200" and /sping "healthy", as text, to anyone', async () => {
    const ping = await kit.forum.client().get('/ping');
    expect([ping.status, ping.text, ping.headers.get('content-type')]).toEqual([200, '200', 'text/plain; charset=utf-8']);
    const sping = await kit.forum.client().get('/sping');
    expect([sping.status, sping.text]).toEqual([200, 'healthy']);
  });
});

describe('shorthands to a profile', () => {
  it("/api/me and /api/me/* send the member to their own pages; /api/uid/{uid}/* to a member's; guests get 401", async () => {
    const me = await kit.alice.client.get('/api/me');
    expect(me.status).toBe(200);
    expect(me.headers.get('x-redirect')).toBe(`/user/${kit.alice.user.userslug}`);
    expect((await kit.alice.client.get('/api/me/edit/password')).headers.get('x-redirect')).toBe(`/user/${kit.alice.user.userslug}/edit/password`);
    const html = await kit.alice.client.get('/me/settings');
    expect([html.status, html.headers.get('location')]).toEqual([302, `/user/${kit.alice.user.userslug}/settings`]);
    expect((await kit.forum.client().get('/api/me')).status).toBe(401);
    expect((await kit.admin.client.get(`/api/uid/${kit.alice.user.uid}/topics`)).headers.get('x-redirect')).toBe(`/user/${kit.alice.user.userslug}/topics`);
    expect((await kit.admin.client.get('/api/uid/999999')).status).toBe(404);
  });

  it("/api/self is the member's own profile page data", async () => {
    const self = await kit.alice.client.get('/api/self');
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({
      template: { name: 'account/profile' },
      uid: kit.alice.user.uid,
      username: kit.alice.user.username,
      email: kit.alice.user.email,
    });
    expect((await kit.forum.client().get('/api/self')).status).toBe(401);
  });
});

describe('a member by uid, username or address', () => {
  it('answers the UserObject by uid and username; by address only to those who see addresses', async () => {
    const byUid = await kit.alice.client.get(`/api/user/uid/${kit.admin.user.uid}`);
    expect(byUid.status).toBe(200);
    expect(byUid.body).toMatchObject({ uid: kit.admin.user.uid, username: kit.admin.user.username, email: '' });
    expect((await kit.alice.client.get(`/api/user/username/${encodeURIComponent(kit.admin.user.username)}`)).body.uid).toBe(kit.admin.user.uid);
    expect((await kit.alice.client.get('/api/user/username/nobody-of-that-name')).status).toBe(404);
    const found = await kit.admin.client.get(`/api/user/email/${encodeURIComponent(kit.alice.user.email!)}`);
    expect(found.body).toMatchObject({ uid: kit.alice.user.uid, email: kit.alice.user.email });
    const bob = await kit.forum.loginAs();
    expect((await bob.client.get(`/api/user/email/${encodeURIComponent(kit.alice.user.email!)}`)).status).toBe(404);
    await kit.alice.client.put(`/api/v3/users/${kit.alice.user.uid}/settings`, { settings: { showemail: 1 } });
    expect((await bob.client.get(`/api/user/email/${encodeURIComponent(kit.alice.user.email!)}`)).body.uid).toBe(kit.alice.user.uid);
  });
});

describe('topic and post reads', () => {
  it("/api/unread/total counts the member's unread topics, as text", async () => {
    const reader = await kit.forum.loginAs();
    const before = Number((await reader.client.get('/api/unread/total')).text);
    const { tid } = await postTopic(kit.admin.client, kit.cid, { title: 'Unread for the reader' });
    const after = await reader.client.get('/api/unread/total');
    expect([after.status, after.headers.get('content-type')]).toEqual([200, 'text/plain; charset=utf-8']);
    expect(Number(after.text)).toBe(before + 1);
    await reader.client.put(`/api/v3/topics/${tid}/read`);
    expect(Number((await reader.client.get('/api/unread/total')).text)).toBe(before);
    expect((await kit.forum.client().get('/api/unread/total')).status).toBe(401);
  });

  it("/api/topic/teaser/{tid} is the topic's latest post; /api/recent/posts/{term} the newest posts readable", async () => {
    const { tid, mainPid } = await postTopic(kit.admin.client, kit.cid, { title: 'A topic with a teaser' });
    expect((await kit.forum.client().get(`/api/topic/teaser/${tid}`)).body).toMatchObject({ pid: mainPid, tid });
    const reply = await postReply(kit.alice.client, tid, 'The latest word on this topic.');
    const teaser = await kit.forum.client().get(`/api/topic/teaser/${tid}`);
    expect(teaser.body).toMatchObject({ pid: reply.pid, tid, user: { uid: kit.alice.user.uid } });
    expect((await kit.forum.client().get('/api/topic/teaser/999999')).status).toBe(404);
    const recent = (await kit.forum.client().get('/api/recent/posts/day')).body as { pid: number }[];
    expect(recent.slice(0, 2).map((p) => p.pid)).toEqual([reply.pid, mainPid]);
  });
});

describe('more of NodeBB read routes (issue 53)', () => {
  it('/api/message/{mid} sends a member of the room to the message in their chats; others get 404', async () => {
    const room = (await kit.alice.client.post('/api/v3/chats', { uids: [kit.admin.user.uid] })).body.response;
    const first = (await kit.alice.client.post(`/api/v3/chats/${room.roomId}`, { message: 'The first message.' })).body.response;
    const second = (await kit.admin.client.post(`/api/v3/chats/${room.roomId}`, { message: 'The second message.' })).body.response;
    const res = await kit.alice.client.get(`/api/message/${second.mid}`);
    expect([res.status, res.headers.get('x-redirect')]).toEqual([200, `/user/${kit.alice.user.userslug}/chats/${room.roomId}/2`]);
    expect((await kit.admin.client.get(`/api/message/${first.mid}`)).headers.get('x-redirect')).toBe(`/user/${kit.admin.user.userslug}/chats/${room.roomId}/1`);
    const outsider = await kit.forum.loginAs();
    expect((await outsider.client.get(`/api/message/${first.mid}`)).status).toBe(404);
    expect((await kit.alice.client.get('/api/message/987654')).status).toBe(404);
    expect((await kit.forum.client().get(`/api/message/${first.mid}`)).status).toBe(401);
  });

  it('/api/tos answers the terms of use as HTML, and 404 while there are none', async () => {
    expect((await kit.forum.client().get('/api/tos')).status).toBe(404);
    await kit.admin.client.put('/api/v3/admin/settings/termsOfUse', { value: 'Be **kind**.' });
    try {
      const res = await kit.forum.client().get('/api/tos');
      expect(res.status).toBe(200);
      expect(res.body.termsOfUse).toContain('<strong>kind</strong>');
      expect(res.body.template.name).toBe('tos');
      const html = await kit.forum.client().get('/tos');
      expect(html.text).toContain('<strong>kind</strong>');
    } finally {
      await kit.admin.client.put('/api/v3/admin/settings/termsOfUse', { value: '' });
    }
  });

  it('/api/register/complete: no steps are left after the form, back to /register', async () => {
    const res = await kit.forum.client().get('/api/register/complete');
    expect([res.status, res.headers.get('x-redirect')]).toEqual([200, '/register']);
  });

  it('/api/admin/dashboard is the dashboard with NodeBB fields, for admins only', async () => {
    const res = await kit.admin.client.get('/api/admin/dashboard');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      lookupFailed: true,
      latestVersion: null,
      upgradeAvailable: null,
      hideAllTime: false,
      canRestart: false,
      lastrestart: null,
      notices: [],
      popularSearches: [],
    });
    expect(res.body.stats.find((s: { set: string }) => s.set === 'registrations')?.alltime).toBeGreaterThan(0);
    expect(res.body.version).toBe((await kit.admin.client.get('/api/admin')).body.version);
    expect((await kit.alice.client.get('/api/admin/dashboard')).status).toBe(403);
  });

  it('/api/admin/manage/api lists the master tokens as TokenObjects (admins); its HTML page is Settings > API access', async () => {
    const made = (await kit.admin.client.post('/api/v3/admin/tokens', { description: 'For the read route' })).body.response;
    const res = await kit.admin.client.get('/api/admin/manage/api');
    expect(res.status).toBe(200);
    const token = res.body.tokens.find((t: { description: string }) => t.description === 'For the read route');
    expect(token).toMatchObject({ uid: 0, timestamp: made.timestamp, lastSeen: null, lastSeenISO: null });
    // By its public id: the token itself is never shown again.
    expect(token.token).not.toBe(made.token);
    expect((await kit.admin.client.get(`/api/v3/admin/tokens/${token.token}`)).body.response.description).toBe('For the read route');
    expect((await kit.admin.client.get('/admin/manage/api')).headers.get('location')).toBe('/admin/settings/api');
    expect((await kit.alice.client.get('/api/admin/manage/api')).status).toBe(403);
  });

  it('/api/user/{userslug}/shares: no federation, so no shared topics; a hidden member is 404', async () => {
    const res = await kit.forum.client().get(`/api/user/${kit.alice.user.userslug}/shares`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      uid: kit.alice.user.uid,
      topics: [],
      noItemsFoundKey: '[[user:has-no-shares]]',
      pagination: { currentPage: 1, pageCount: 1 },
    });
    expect(res.body.template.name).toBe('account/shares');
    expect((await kit.forum.client().get('/api/user/nobody-at-all/shares')).status).toBe(404);
  });
});

describe("NodeBB's list page fields (issue 53)", () => {
  it('/api/recent, /api/popular and /api/unread carry the counts, ids, filters, terms and feed of the list', async () => {
    const t = await postTopic(kit.alice.client, kit.cid, { title: 'A topic for the list fields' });
    const recent = (await kit.alice.client.get('/api/recent')).body;
    expect(recent.tids).toEqual(recent.topics.map((x: { tid: number }) => x.tid));
    expect(recent.tids).toContain(t.tid);
    expect(recent).toMatchObject({
      topicCount: expect.any(Number),
      canPost: true,
      showSelect: false,
      showTopicTools: false,
      selectedCategory: null,
      selectedTag: null,
      selectedTags: [],
      allCategoriesUrl: 'recent',
    });
    expect(recent.topicCount).toBeGreaterThanOrEqual(recent.topics.length);
    expect(recent.rssFeedUrl).toBe(
      `${kit.forum.ctx.config.url}/recent.rss?uid=${kit.alice.user.uid}&token=${kit.forum.ctx.feeds.tokenFor(kit.alice.user.uid)}`,
    );
    expect(recent.selectedTerm).toMatchObject({ term: 'alltime', selected: true });
    const popular = (await kit.forum.client().get('/api/popular?term=week')).body;
    expect(popular.terms.map((x: { term: string }) => x.term)).toEqual(['day', 'week', 'month', 'alltime']);
    expect(popular.selectedTerm).toEqual({ name: '[[recent:week]]', url: 'popular?term=week', selected: true, term: 'week' });
    expect(popular).toMatchObject({ canPost: false, rssFeedUrl: `${kit.forum.ctx.config.url}/popular.rss` });
    expect((await kit.admin.client.get('/api/recent')).body).toMatchObject({ showSelect: true, showTopicTools: true });
    const unread = (await kit.admin.client.get('/api/unread')).body;
    expect(unread).toMatchObject({ selectCategoryIcon: 'fa-inbox', showCategorySelectLabel: true, pageCount: unread.pagination.pageCount });
    expect(unread.topics.map((x: { tid: number }) => x.tid)).toContain(t.tid);
    expect(unread.tids).toBeUndefined();
  });
});
