import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum } from '../../test/harness.js';

// The account pages about notifications and watching: only the member and admins.
let forum: TestForum;
let cid: number;

beforeAll(async () => {
  forum = await startTestForum();
  cid = (await forum.ctx.categories.create(SYSTEM, { name: 'Open' })).cid;
});
afterAll(async () => forum?.close());

describe('account pages', () => {
  it('settings: the notification table, digest and watch defaults; saved values show', async () => {
    const { client, user } = await forum.loginAs();
    const put = await client.put(`/api/v3/users/${user.uid}/settings`, {
      settings: { notificationType_upvote: 'notificationemail', 'notificationPush_new-reply': '0', dailyDigestFreq: 'week', categoryWatchState: 'tracking', followTopicsOnReply: '1' },
    });
    expect(put.status).toBe(200);
    expect(put.body.response).toMatchObject({ notificationType_upvote: 'notificationemail', dailyDigestFreq: 'week', categoryWatchState: 'tracking', followTopicsOnReply: true });
    const res = await client.get(`/api/user/${user.userslug}/settings`);
    expect(res.status).toBe(200);
    const page = res.body;
    expect(page.template.name).toBe('account/settings');
    expect(page.settings).toMatchObject({ notificationType_upvote: 'notificationemail', dailyDigestFreq: 'week', followTopicsOnReply: true });
    const upvote = page.notificationSettings.find((r: { name: string }) => r.name === 'notificationType_upvote');
    expect(upvote).toMatchObject({ value: 'notificationemail', notificationemail: true, none: false });
    expect(page.customSettings[0].values).toMatchObject({ 'notificationPush_new-reply': false, notificationPush_mention: true, notificationPush_upvote: false });
    expect(page.dailyDigestFreqOptions.find((o: { selected: boolean }) => o.selected).value).toBe('week');
    expect(page.categoryWatchState).toEqual({ tracking: true });
    const html = await client.get(`/user/${user.userslug}/settings`);
    expect(html.status).toBe(200);
  });

  it('settings: language from the installed ones, a time zone, and pagination or infinite scroll; bad values are refused with their key, nothing saved', async () => {
    const { client, user } = await forum.loginAs();
    const put = await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { userLang: 'en-GB', timezone: 'Asia/Tokyo', usePagination: '0' } });
    expect(put.status).toBe(200);
    expect(put.body.response).toMatchObject({ userLang: 'en-GB', usePagination: false });
    const page = (await client.get(`/api/user/${user.userslug}/settings`)).body;
    expect(page.timezone).toBe('Asia/Tokyo');
    expect(page.settings.usePagination).toBe(false);
    // Every language the forum offers, by its own name (more once their files ship).
    expect(page.languages[0]).toEqual({ name: 'English (United Kingdom)', code: 'en-GB', dir: 'ltr', selected: true });
    expect(page.languages.filter((l: { selected: boolean }) => l.selected)).toHaveLength(1);
    // The member's pages carry the choice (the client formats dates in that zone).
    expect(page.loggedInUser.settings).toMatchObject({ timezone: 'Asia/Tokyo', usePagination: false });
    for (const [settings, key] of [
      [{ userLang: 'xx-YY' }, 'error:invalid-language'],
      [{ timezone: 'Mars/Olympus_Mons' }, 'error:invalid-timezone'],
    ] as const) {
      const bad = await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { ...settings, usePagination: '1' } });
      expect([bad.status, bad.body.status.key]).toEqual([400, key]);
    }
    expect((await client.get(`/api/user/${user.userslug}/settings`)).body).toMatchObject({ timezone: 'Asia/Tokyo', settings: { usePagination: false } });
    // Back to the device's own zone.
    expect((await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { timezone: '' } })).status).toBe(200);
    expect((await client.get(`/api/user/${user.userslug}/settings`)).body.timezone).toBe('');
  });

  it("a member's own default watch state applies to the categories they never chose", async () => {
    const { client, user } = await forum.loginAs();
    expect((await forum.ctx.categories.watchStates(user.uid, [cid])).get(cid)).toBe('watching');
    expect((await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { categoryWatchState: 'notwatching' } })).status).toBe(200);
    expect((await forum.ctx.categories.watchStates(user.uid, [cid])).get(cid)).toBe('notwatching');
    const cats = await client.get(`/api/user/${user.userslug}/categories`);
    expect(cats.body.categories.find((c: { cid: number }) => c.cid === cid)).toMatchObject({ isNotWatched: true, isWatched: false });
  });

  it('another member gets 403, a guest is sent to log in, an admin may look', async () => {
    const { user } = await forum.loginAs();
    const { client: other } = await forum.loginAs();
    const { client: admin } = await forum.loginAs({ admin: true });
    for (const p of ['settings', 'watched', 'categories', 'tags']) {
      expect((await other.get(`/api/user/${user.userslug}/${p}`)).status).toBe(403);
      expect((await admin.get(`/api/user/${user.userslug}/${p}`)).status).toBe(200);
      expect((await forum.client().get(`/api/user/${user.userslug}/${p}`)).status).not.toBe(200);
    }
    expect((await admin.get('/api/user/nobody-here/settings')).status).toBe(404);
  });

  it('watched lists the topics the member follows; categories their watch states; tags what they follow', async () => {
    const { client, user } = await forum.loginAs();
    const viewer = await forum.ctx.privileges.viewer(user.uid);
    const { topic } = await forum.ctx.topics.create(viewer, { cid, title: 'A topic I watch closely', content: 'The first post of a topic', tags: ['rust'] });
    const watched = await client.get(`/api/user/${user.userslug}/watched`);
    expect(watched.status).toBe(200);
    expect(watched.body.topics.map((t: { tid: number }) => t.tid)).toEqual([topic.tid]);
    await forum.ctx.topics.follow(viewer, topic.tid, null);
    expect((await client.get(`/api/user/${user.userslug}/watched`)).body.topics).toEqual([]);

    expect((await client.put(`/api/v3/categories/${cid}/watch`, { state: 'ignoring' })).status).toBe(200);
    const cats = await client.get(`/api/user/${user.userslug}/categories`);
    expect(cats.body.categories.find((c: { cid: number }) => c.cid === cid)).toMatchObject({ isIgnored: true, isWatched: false, depth: 0 });

    expect((await client.put('/api/v3/tags/rust/follow', {})).status).toBe(200);
    expect((await client.get(`/api/user/${user.userslug}/tags`)).body.tags).toEqual(['rust']);
  });
});
