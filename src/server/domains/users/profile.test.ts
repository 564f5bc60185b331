import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import { makeCategory, postReply, postTopic } from '../topics/testing.js';
import { ageOf } from './profile.js';

let forum: TestForum;
let cid: number;
beforeAll(async () => {
  forum = await startTestForum();
  cid = await makeCategory(forum.ctx, 'Profiles');
});
afterAll(async () => forum?.close());

/** Sends one file as the browser's form does (multipart `files[]`). */
async function sendFile(client: HttpClient, url: string, name: string, bytes: Buffer) {
  const form = new FormData();
  form.append('files[]', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  const csrf = client.csrf ?? (await client.refreshCsrf());
  const res = await fetch(client.baseUrl + url, { method: 'POST', body: form, headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': csrf } });
  return { status: res.status, body: JSON.parse(await res.text()) as any };
}

describe('PUT /api/v3/users/:uid profile fields', () => {
  it('saves website, location, birthday, signature and about-me; the profile shows them, the signature sanitised', async () => {
    const { client, user } = await forum.member();
    const res = await client.put(`/api/v3/users/${user.uid}`, {
      fullname: 'Ada Byron',
      website: 'https://ada.example.org',
      location: 'London',
      birthday: '1990-12-10',
      signature: 'Poetical **science** <script>alert(1)</script>',
      aboutme: 'Engines',
    });
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ website: 'https://ada.example.org', location: 'London', birthday: '1990-12-10', aboutme: 'Engines' });
    expect(res.body.response.signature).toContain('Poetical');
    const page = await forum.client().get(`/api/user/${user.userslug}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ website: 'https://ada.example.org', location: 'London', birthday: '1990-12-10', age: ageOf('1990-12-10') });
    expect(page.body.age).toBeGreaterThan(30);
    expect(page.body.signatureHTML).toContain('<strong>science</strong>');
    expect(page.body.signatureHTML).not.toContain('<script');
  });

  it('refuses bad values with NodeBB\'s keys, leaving the profile unchanged', async () => {
    const { client, user } = await forum.member();
    await client.put(`/api/v3/users/${user.uid}`, { location: 'Paris' });
    const cases: [Record<string, string>, string][] = [
      [{ website: 'javascript:alert(1)' }, 'error:invalid-website'],
      [{ website: `https://example.org/${'a'.repeat(260)}` }, 'error:invalid-website'],
      [{ location: 'https://spam.example.com' }, 'error:invalid-location'],
      [{ location: 'x'.repeat(256) }, 'error:invalid-location'],
      [{ birthday: 'not a date' }, 'error:invalid-birthday'],
      [{ birthday: '2999-01-01' }, 'error:invalid-birthday'],
      [{ signature: 's'.repeat(256) }, 'error:signature-too-long'],
      [{ aboutme: 'a'.repeat(1001) }, 'error:about-me-too-long'],
    ];
    for (const [body, key] of cases) {
      const res = await client.put(`/api/v3/users/${user.uid}`, { ...body, location: body.location ?? 'Rome' });
      expect([res.status, res.body.status.key], JSON.stringify(body)).toEqual([400, key]);
    }
    expect((await forum.ctx.users.get(user.uid))!.location).toBe('Paris');
  });

  it('follows the length settings: maximumSignatureLength and maximumAboutMeLength; disableSignatures hides them', async () => {
    const { client, user } = await forum.member();
    await forum.ctx.settings.set({ maximumSignatureLength: 10, maximumAboutMeLength: 5 });
    try {
      const sig = await client.put(`/api/v3/users/${user.uid}`, { signature: 'elevenchars' });
      expect([sig.status, sig.body.status.key, sig.body.status.message]).toEqual([400, 'error:signature-too-long', expect.stringContaining('10')]);
      expect((await client.put(`/api/v3/users/${user.uid}`, { aboutme: 'sixsix' })).body.status.key).toBe('error:about-me-too-long');
      expect((await client.put(`/api/v3/users/${user.uid}`, { signature: 'ten chars!' })).status).toBe(200);
      await forum.ctx.settings.set({ disableSignatures: true });
      expect((await forum.client().get(`/api/user/${user.userslug}`)).body.signatureHTML).toBe('');
      expect((await client.get(`/api/user/${user.userslug}/edit`)).body.allowSignature).toBe(false);
    } finally {
      await forum.ctx.settings.set({ maximumSignatureLength: 255, maximumAboutMeLength: 1000, disableSignatures: false });
    }
  });

  it('refuses another member\'s profile (403) and lets an admin edit anyone', async () => {
    const { user } = await forum.member();
    const other = await forum.member();
    const admin = await forum.member({ admin: true });
    const refused = await other.client.put(`/api/v3/users/${user.uid}`, { location: 'Nowhere' });
    expect([refused.status, refused.body.status.key]).toEqual([403, 'error:no-privileges']);
    expect((await admin.client.put(`/api/v3/users/${user.uid}`, { location: 'Somewhere' })).status).toBe(200);
    expect((await forum.ctx.users.get(user.uid))!.location).toBe('Somewhere');
    expect((await forum.client().put(`/api/v3/users/${user.uid}`, { location: 'x' })).status).toBe(401);
  });
});

describe('custom profile fields', () => {
  const defs = [
    { key: 'pronouns', name: 'Pronouns', type: 'text' },
    { key: 'github', name: 'GitHub', type: 'url', visibility: 'loggedin' },
    { key: 'shoe', name: 'Shoe size', type: 'number', visibility: 'privileged' },
    { key: 'team', name: 'Team', type: 'select', options: ['red', 'blue'] },
  ];
  beforeAll(async () => {
    await forum.ctx.settings.set({ customUserFields: JSON.stringify(defs) });
  });
  afterAll(async () => {
    await forum.ctx.settings.set({ customUserFields: '[]' });
  });

  it('saves values with their checks and shows each to the audience its visibility names', async () => {
    const { client, user } = await forum.member();
    const bad: [Record<string, unknown>, string][] = [
      [{ github: 'not a link' }, 'error:custom-user-field-invalid-link'],
      [{ shoe: 'big' }, 'error:custom-user-field-invalid-number'],
      [{ team: 'green' }, 'error:custom-user-field-select-value-invalid'],
      [{ pronouns: 'p'.repeat(300) }, 'error:custom-user-field-value-too-long'],
    ];
    for (const [body, key] of bad) {
      const res = await client.put(`/api/v3/users/${user.uid}`, body);
      expect([res.status, res.body.status.key]).toEqual([400, key]);
    }
    const ok = await client.put(`/api/v3/users/${user.uid}`, { pronouns: 'she/her', github: 'https://github.com/ada', shoe: 38, team: 'blue', unknownKey: 'ignored' });
    expect(ok.status).toBe(200);
    const shown = async (c: HttpClient) => ((await c.get(`/api/user/${user.userslug}`)).body.customUserFields as { key: string; value: string }[]).map((f) => `${f.key}=${f.value}`);
    expect(await shown(forum.client())).toEqual(['pronouns=she/her', 'team=blue']);
    expect(await shown((await forum.member()).client)).toEqual(['pronouns=she/her', 'github=https://github.com/ada', 'team=blue']);
    expect(await shown((await forum.member({ admin: true })).client)).toEqual(['pronouns=she/her', 'github=https://github.com/ada', 'shoe=38', 'team=blue']);
    // The edit page lists every field, empty ones too; clearing a value removes it.
    await client.put(`/api/v3/users/${user.uid}`, { team: '' });
    const edit = await client.get(`/api/user/${user.userslug}/edit`);
    expect(edit.body.customUserFields.map((f: { key: string; value: string }) => `${f.key}=${f.value}`)).toEqual(['pronouns=she/her', 'github=https://github.com/ada', 'shoe=38', 'team=']);
  });
});

describe('profile page', () => {
  it('shows the full name only when the member chose to show it (always to themself and admins)', async () => {
    const { client, user } = await forum.member();
    await client.put(`/api/v3/users/${user.uid}`, { fullname: 'Private Name' });
    expect((await forum.client().get(`/api/user/${user.userslug}`)).body.fullname).toBe('');
    expect((await client.get(`/api/user/${user.userslug}`)).body.fullname).toBe('Private Name');
    expect((await (await forum.member({ admin: true })).client.get(`/api/user/${user.userslug}`)).body.fullname).toBe('Private Name');
    await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { showfullname: '1' } });
    expect((await forum.client().get(`/api/user/${user.userslug}`)).body.fullname).toBe('Private Name');
  });

  it('shows the email only by showemail, to members (always to themself and admins, never to guests)', async () => {
    const { client, user } = await forum.member();
    const other = await forum.member();
    expect((await other.client.get(`/api/user/${user.userslug}`)).body.email).toBe('');
    expect((await client.get(`/api/user/${user.userslug}`)).body.email).toBe(user.email);
    await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { showemail: '1' } });
    expect((await other.client.get(`/api/user/${user.userslug}`)).body.email).toBe(user.email);
    expect((await forum.client().get(`/api/user/${user.userslug}`)).body.email).toBe('');
  });
});

describe('/user/:userslug/edit', () => {
  it('is for the member and admins: another member 403, a guest 401', async () => {
    const { client, user } = await forum.member();
    const own = await client.get(`/api/user/${user.userslug}/edit`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ template: { name: 'account/edit' }, uid: user.uid, maximumSignatureLength: 255, maximumAboutMeLength: 1000, allowSignature: true });
    expect((await (await forum.member()).client.get(`/api/user/${user.userslug}/edit`)).status).toBe(403);
    expect((await (await forum.member({ admin: true })).client.get(`/api/user/${user.userslug}/edit`)).status).toBe(200);
    expect((await forum.client().get(`/api/user/${user.userslug}/edit`)).status).toBe(401);
    expect((await client.get('/api/user/no-such-member/edit')).status).toBe(404);
  });
});

describe('/user/:userslug/theme', () => {
  it('lists the skins with the member\'s choice selected; the member and admins only', async () => {
    const { client, user } = await forum.member();
    await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { bootswatchSkin: 'darkly' } });
    const page = await client.get(`/api/user/${user.userslug}/theme`);
    expect(page.status).toBe(200);
    expect(page.body.template.name).toBe('account/theme');
    expect(page.body.bootswatchSkinOptions.filter((o: { selected: boolean }) => o.selected).map((o: { value: string }) => o.value)).toEqual(['darkly']);
    expect(page.body.bootswatchSkinOptions[0]).toMatchObject({ value: '', selected: false });
    expect((await (await forum.member()).client.get(`/api/user/${user.userslug}/theme`)).status).toBe(403);
    expect((await (await forum.member({ admin: true })).client.get(`/api/user/${user.userslug}/theme`)).status).toBe(200);
    expect((await forum.client().get(`/api/user/${user.userslug}/theme`)).status).toBe(401);
  });
});

describe('picture and cover', () => {
  const png = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: '#225588' } }).png().toBuffer();

  it('PUT picture type default goes back to the letter avatar; external takes an http(s) URL only', async () => {
    const { client, user } = await forum.member();
    await client.put(`/api/v3/users/${user.uid}`, { picture: 'https://pics.example.org/me.png' });
    expect((await client.put(`/api/v3/users/${user.uid}/picture`, { type: 'default' })).status).toBe(200);
    expect((await forum.ctx.users.get(user.uid))!.picture).toBe('');
    expect((await client.put(`/api/v3/users/${user.uid}/picture`, { type: 'external', url: 'javascript:alert(1)' })).body.status.key).toBe('error:invalid-data');
    expect((await client.put(`/api/v3/users/${user.uid}/picture`, { type: 'external', url: 'https://pics.example.org/2.png' })).status).toBe(200);
    expect((await forum.ctx.users.get(user.uid))!.picture).toBe('https://pics.example.org/2.png');
    expect((await (await forum.member()).client.put(`/api/v3/users/${user.uid}/picture`, { type: 'default' })).status).toBe(403);
  });

  it('a cover upload becomes the cover (kept by the clean-up), moves, and is removed; another member is refused', async () => {
    const { client, user } = await forum.member();
    const up = await sendFile(client, `/api/v3/users/${user.uid}/cover`, 'cover.png', await png(1200, 400));
    expect(up.status).toBe(200);
    const url: string = up.body.response.images[0].url;
    expect(url).toMatch(/^\/assets\/uploads\/files\/.*\.png$/);
    await forum.ctx.hooks.idle();
    const refs = await forum.ctx.db.selectFrom('upload_refs').selectAll().where('kind', '=', 'cover').where('ref_id', '=', user.uid).execute();
    expect(refs.map((r) => r.path)).toHaveLength(1);
    const moved = await client.put(`/api/v3/users/${user.uid}/cover`, { position: '50% 20%' });
    expect(moved.body.response).toEqual({ 'cover:url': url, 'cover:position': '50% 20%' });
    expect((await client.put(`/api/v3/users/${user.uid}/cover`, { position: 'left; background:red' })).body.status.key).toBe('error:invalid-data');
    const page = await forum.client().get(`/api/user/${user.userslug}`);
    expect([page.body['cover:url'], page.body['cover:position']]).toEqual([url, '50% 20%']);
    const other = await forum.member();
    expect((await sendFile(other.client, `/api/v3/users/${user.uid}/cover`, 'x.png', await png(300, 100))).status).toBe(403);
    expect((await other.client.del(`/api/v3/users/${user.uid}/cover`)).status).toBe(403);
    const removed = await client.del(`/api/v3/users/${user.uid}/cover`);
    expect(removed.body.response).toEqual({ 'cover:url': '', 'cover:position': '50% 50%' });
    await forum.ctx.hooks.idle();
    expect(await forum.ctx.db.selectFrom('upload_refs').selectAll().where('kind', '=', 'cover').where('ref_id', '=', user.uid).execute()).toEqual([]);
    expect((await sendFile(client, `/api/v3/users/${user.uid}/cover`, 'not.png', Buffer.from('plain text'))).body.status.key).toBe('error:invalid-file-type');
  });
});

describe('profile lists', () => {
  let author: Awaited<ReturnType<TestForum['member']>>;
  let voter: Awaited<ReturnType<TestForum['member']>>;
  let hidden: number;
  let topic: { tid: number; mainPid: number };
  let hiddenTopic: { tid: number; mainPid: number };
  let reply: { pid: number };
  beforeAll(async () => {
    author = await forum.member();
    voter = await forum.member();
    topic = await postTopic(author.client, cid, { title: 'A profile list topic' });
    reply = await postReply(author.client, topic.tid, 'A reply others will like a lot.');
    hidden = await makeCategory(forum.ctx, 'Members only');
    hiddenTopic = await postTopic(author.client, hidden, { title: 'Hidden from guests' });
    await forum.ctx.privileges.take(hidden, ['read', 'topics:read'], 'guests');
    await forum.ctx.posts.vote(voter.viewer, reply.pid, 1);
    await forum.ctx.posts.vote(voter.viewer, hiddenTopic.mainPid, 1);
    await forum.ctx.posts.vote(voter.viewer, topic.mainPid, -1);
    await forum.ctx.posts.bookmark(voter.viewer, reply.pid, true);
    await forum.ctx.topics.follow(voter.viewer, topic.tid, 'ignore');
    await forum.ctx.topics.markRead(voter.viewer, hiddenTopic.tid);
    await author.client.put(`/api/v3/users/${voter.user.uid}/follow`, {});
  });
  const pids = (body: { posts: { pid: number }[] }) => body.posts.map((p) => p.pid);

  it('the post lists carry an excerpt of each post: plain text, quotes left out, cut short', async () => {
    const writer = await forum.member();
    const own = await postTopic(writer.client, cid, { title: 'A topic for excerpts' });
    const long = `${'**Plenty** of words & more, '.repeat(20)}the end that is cut off`;
    const quoting = await postReply(writer.client, own.tid, `> someone else's words here\n\nMy own answer to <that>, in *brief*.`);
    const longReply = await postReply(writer.client, own.tid, long);
    const body = (await forum.client().get(`/api/user/${writer.user.userslug}/posts`)).body as { posts: { pid: number; excerpt: string; content: string }[] };
    const byPid = new Map(body.posts.map((p) => [p.pid, p]));
    expect(byPid.get(quoting.pid)!.excerpt).toBe('My own answer to <that>, in brief.');
    const cut = byPid.get(longReply.pid)!.excerpt;
    expect(cut.length).toBe(280);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.startsWith('Plenty of words & more, Plenty')).toBe(true);
    expect(cut).not.toContain('the end that is cut off');
    // NodeBB's content field stays whole for API readers.
    expect(byPid.get(longReply.pid)!.content).toContain('the end that is cut off');
  });

  it('posts, topics and best are public; a post in a category the viewer cannot read never shows', async () => {
    const guest = forum.client();
    const posts = await guest.get(`/api/user/${author.user.userslug}/posts`);
    expect(posts.status).toBe(200);
    expect(posts.body).toMatchObject({ template: { name: 'account/posts' }, uid: author.user.uid, noItemsFoundKey: '[[user:has-no-posts]]', pagination: { currentPage: 1, pageCount: 1 } });
    expect(pids(posts.body)).toEqual([reply.pid, topic.mainPid]);
    expect(posts.body.posts[0]).toMatchObject({ topic: { tid: topic.tid }, category: { cid }, index: 1, isMainPost: false });
    expect(pids((await voter.client.get(`/api/user/${author.user.userslug}/posts`)).body)).toEqual([hiddenTopic.mainPid, reply.pid, topic.mainPid]);
    const topics = await guest.get(`/api/user/${author.user.userslug}/topics`);
    expect(topics.body.topics.map((t: { tid: number }) => t.tid)).toEqual([topic.tid]);
    // Best: only posts with a positive score, the best first.
    expect(pids((await guest.get(`/api/user/${author.user.userslug}/best`)).body)).toEqual([reply.pid]);
    expect(pids((await voter.client.get(`/api/user/${author.user.userslug}/best`)).body).sort()).toEqual([reply.pid, hiddenTopic.mainPid].sort());
    // The profile's own best posts keep to the same rule.
    expect((await guest.get(`/api/user/${author.user.userslug}`)).body.bestPosts.map((p: { pid: number }) => p.pid)).toEqual([reply.pid]);
    // Controversial (NodeBB's): the posts voted down, the lowest score first; public like best.
    const controversial = await guest.get(`/api/user/${author.user.userslug}/controversial`);
    expect(controversial.body).toMatchObject({ template: { name: 'account/controversial' }, noItemsFoundKey: '[[user:has-no-controversial-posts]]' });
    expect(pids(controversial.body)).toEqual([topic.mainPid]);
    expect(pids((await guest.get(`/api/user/${voter.user.userslug}/controversial`)).body)).toEqual([]);
  });

  it('upvoted, downvoted and bookmarks: the member and admins only (no-privileges for another member, login for a guest)', async () => {
    const other = await forum.member();
    const admin = await forum.member({ admin: true });
    const lists: [string, number[]][] = [
      ['upvoted', [hiddenTopic.mainPid, reply.pid]],
      ['downvoted', [topic.mainPid]],
      ['bookmarks', [reply.pid]],
    ];
    for (const [list, expected] of lists) {
      const own = await voter.client.get(`/api/user/${voter.user.userslug}/${list}`);
      expect([list, own.status]).toEqual([list, 200]);
      expect(pids(own.body).sort()).toEqual([...expected].sort());
      expect((await admin.client.get(`/api/user/${voter.user.userslug}/${list}`)).status).toBe(200);
      const refused = await other.client.get(`/api/user/${voter.user.userslug}/${list}`);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('You do not have enough privileges for this action.');
      expect((await forum.client().get(`/api/user/${voter.user.userslug}/${list}`)).status).toBe(401);
    }
  });

  it('ignored and read: the member and admins (NodeBB checkAccountPermissions)', async () => {
    const admin = await forum.member({ admin: true });
    const ignored = await voter.client.get(`/api/user/${voter.user.userslug}/ignored`);
    expect(ignored.body.topics.map((t: { tid: number }) => t.tid)).toEqual([topic.tid]);
    const read = await voter.client.get(`/api/user/${voter.user.userslug}/read`);
    expect(read.body.topics.map((t: { tid: number }) => t.tid)).toContain(hiddenTopic.tid);
    for (const list of ['ignored', 'read']) {
      expect((await admin.client.get(`/api/user/${voter.user.userslug}/${list}`)).status).toBe(200);
      expect((await author.client.get(`/api/user/${voter.user.userslug}/${list}`)).status).toBe(403);
      expect((await forum.client().get(`/api/user/${voter.user.userslug}/${list}`)).status).toBe(401);
    }
  });

  it('followers and following list members with NodeBB\'s fields; an empty list names its key', async () => {
    const followers = await forum.client().get(`/api/user/${voter.user.userslug}/followers`);
    expect(followers.body.users.map((u: { uid: number }) => u.uid)).toEqual([author.user.uid]);
    expect(followers.body.users[0]).toMatchObject({ username: author.user.username, 'email:confirmed': expect.any(Number), joindateISO: expect.any(String), banned_until_readable: 'Not Banned' });
    expect(followers.body.users[0]).not.toHaveProperty('email');
    const following = await forum.client().get(`/api/user/${author.user.userslug}/following`);
    expect(following.body.users.map((u: { uid: number }) => u.uid)).toEqual([voter.user.uid]);
    const none = await forum.client().get(`/api/user/${author.user.userslug}/followers`);
    expect(none.body).toMatchObject({ users: [], followerCount: 0 });
    expect(none.body).not.toHaveProperty('noItemsFoundKey');
  });

  it('pages: past the last page 404, a bad page 400, a slug in capitals redirects, an unknown member 404', async () => {
    const guest = forum.client();
    expect((await guest.get(`/api/user/${author.user.userslug}/posts?page=9`)).status).toBe(404);
    expect((await guest.get(`/api/user/${author.user.userslug}/posts?page=x`)).status).toBe(400);
    expect((await guest.get('/api/user/nobody-at-all/topics')).status).toBe(404);
    const upper = await guest.get(`/api/user/${author.user.userslug.toUpperCase()}/topics`);
    expect([200, 302, 308]).toContain(upper.status);
  });

  it('renders each list page as HTML for a browser', async () => {
    for (const list of ['posts', 'topics', 'best', 'controversial', 'followers', 'following']) {
      const res = await forum.client().get(`/user/${author.user.userslug}/${list}`);
      expect([list, res.status]).toEqual([list, 200]);
      expect(res.text).toContain(author.user.username);
    }
  });
});
