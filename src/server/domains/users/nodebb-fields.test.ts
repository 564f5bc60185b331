import { describe, expect, it } from 'vitest';
import { useForum } from '../../test/forum-kit.js';

// The /api/v3/users routes answer NodeBB's UserObj and Settings (issue 9): every field NodeBB
// lists, of its type, and no field it does not list.
const kit = useForum();

const NUMBERS = [
  'uid',
  'email:confirmed',
  'joindate',
  'lastonline',
  'profileviews',
  'reputation',
  'postcount',
  'topiccount',
  'lastposttime',
  'banned:expire',
  'flags',
  'followercount',
  'followingcount',
  'banned_until',
];
const STRINGS = [
  'username',
  'userslug',
  'email',
  'displayname',
  'location',
  'website',
  'status',
  'cover:url',
  'icon:text',
  'icon:bgColor',
  'joindateISO',
  'lastonlineISO',
  'banned_until_readable',
];
const NULLABLE_STRINGS = ['picture', 'fullname', 'birthday', 'aboutme', 'signature', 'uploadedpicture', 'cover:position', 'groupTitle'];
const sorted = (keys: string[]) => [...keys].sort();

/** Asserts NodeBB's UserObj: exactly its fields, each of its documented type. */
function expectUserObj(u: Record<string, unknown>) {
  expect(sorted(Object.keys(u))).toEqual(sorted([...NUMBERS, ...STRINGS, ...NULLABLE_STRINGS, 'banned', 'groupTitleArray']));
  for (const k of NUMBERS) expect(typeof u[k], k).toBe('number');
  for (const k of STRINGS) expect(typeof u[k], k).toBe('string');
  for (const k of NULLABLE_STRINGS) expect(u[k] === null || typeof u[k] === 'string', k).toBe(true);
  expect(typeof u.banned).toBe('boolean');
  expect(Array.isArray(u.groupTitleArray)).toBe(true);
  expect([0, 1]).toContain(u['email:confirmed']);
}

describe('UserObj', () => {
  it('GET answers UserObj; the email is empty for others; a ban shows its end', async () => {
    const { client, user } = await kit.forum.loginAs();
    const self = await client.get(`/api/v3/users/${user.uid}`);
    expect(self.status, self.text).toBe(200);
    expectUserObj(self.body.response);
    expect(self.body.response).toMatchObject({ uid: user.uid, email: user.email, banned: false, banned_until: 0, banned_until_readable: 'Not Banned' });
    expect(self.body.response.joindateISO).toBe(new Date(user.joindate).toISOString());

    const until = Date.UTC(2099, 5, 1);
    expect((await kit.admin.client.put(`/api/v3/users/${user.uid}/ban`, { until })).status).toBe(200);
    const other = await kit.forum.client().get(`/api/v3/users/${user.uid}`);
    expectUserObj(other.body.response);
    expect(other.body.response).toMatchObject({
      email: '',
      banned: true,
      'banned:expire': until,
      banned_until: until,
      banned_until_readable: new Date(until).toISOString(),
    });
  });

  it('POST (admin) and PUT answer UserObj', async () => {
    const created = await kit.admin.client.post('/api/v3/users', { username: 'shape-maker', password: 'a-Long-enough-Passw0rd!', email: 'shape@example.com' });
    expect(created.status, created.text).toBe(200);
    expectUserObj(created.body.response);
    expect(created.body.response).toMatchObject({ username: 'shape-maker', email: 'shape@example.com', 'email:confirmed': 0 });
    const put = await kit.admin.client.put(`/api/v3/users/${created.body.response.uid}`, { fullname: 'Shape Maker' });
    expect(put.status, put.text).toBe(200);
    expectUserObj(put.body.response);
    expect(put.body.response.fullname).toBe('Shape Maker');
  });
});

describe('Settings', () => {
  it("carries groupTitle and groupTitleArray: the groups whose badges the member shows, set through NodeBB's PUT body", async () => {
    const { client, user } = await kit.forum.loginAs();
    for (const name of ['Badge One', 'Badge Two']) {
      expect((await kit.admin.client.post('/api/v3/groups/', { name })).status).toBe(200);
      await kit.forum.ctx.groups.join(name, user.uid);
    }
    expect((await client.put(`/api/v3/users/${user.uid}`, { groupTitle: 'Badge One' })).status).toBe(200);
    expect((await client.get(`/api/v3/users/${user.uid}`)).body.response).toMatchObject({ groupTitle: '["Badge One"]', groupTitleArray: ['Badge One'] });
    const put = await client.put(`/api/v3/users/${user.uid}`, { groupTitle: '["Badge Two","Badge One"]' });
    expect(put.status).toBe(200);
    expectUserObj(put.body.response);
    expect(put.body.response.groupTitleArray).toEqual(['Badge Two', 'Badge One']);
    expect((await client.put(`/api/v3/users/${user.uid}`, { groupTitle: '' })).body.response).toMatchObject({ groupTitle: '', groupTitleArray: [] });
    // Groups the member is not in are left out, as NodeBB shows only a member's own; text that is not a list changes nothing.
    expect((await client.put(`/api/v3/users/${user.uid}`, { groupTitle: '["administrators","Badge Two","Staff"]' })).body.response.groupTitleArray).toEqual([
      'Badge Two',
    ]);
    expect((await client.put(`/api/v3/users/${user.uid}`, { groupTitle: '["Badge One"' })).status).toBe(400);
    expect((await client.get(`/api/v3/users/${user.uid}`)).body.response.groupTitleArray).toEqual(['Badge Two']);
  });

  it("PUT settings answers NodeBB's Settings fields, with the member's choices", async () => {
    const { client, user } = await kit.forum.loginAs();
    const res = await client.put(`/api/v3/users/${user.uid}/settings`, { settings: { topicsPerPage: '7', showemail: '1', openSidebars: 'on' } });
    expect(res.status, res.text).toBe(200);
    const s = res.body.response as Record<string, unknown>;
    const required = [
      'showemail',
      'usePagination',
      'topicsPerPage',
      'postsPerPage',
      'topicPostSort',
      'openOutgoingLinksInNewTab',
      'dailyDigestFreq',
      'showfullname',
      'followTopicsOnCreate',
      'followTopicsOnReply',
      'topicSearchEnabled',
      'categoryTopicSort',
      'userLang',
      'bootswatchSkin',
      'homePageRoute',
      'scrollToMyPost',
      'notificationType_new-chat',
      'notificationType_new-reply',
      'notificationType_upvote',
      'notificationType_new-topic',
      'notificationType_follow',
      'notificationType_group-invite',
      'notificationType_group-leave',
      'upvoteNotifFreq',
      'acpLang',
      'notificationType_new-register',
      'notificationType_post-queue',
      'notificationType_new-post-flag',
      'notificationType_new-user-flag',
      'categoryWatchState',
      'notificationType_group-request-membership',
      'disableIncomingChats',
      'uid',
    ];
    expect(sorted(Object.keys(s))).toEqual(sorted(required));
    expect(s).toMatchObject({ uid: user.uid, topicsPerPage: 7, showemail: true, usePagination: true, openOutgoingLinksInNewTab: false });
    // The defaults of the notification preferences (notifications/schemas.ts): addressed to the member, in the forum and by email.
    for (const k of required.filter((k) => k.startsWith('notificationType_'))) expect(['notification', 'notificationemail']).toContain(s[k]);
    expect(s).toMatchObject({
      'notificationType_new-reply': 'notificationemail',
      'notificationType_new-chat': 'notificationemail',
      notificationType_upvote: 'notification',
      dailyDigestFreq: 'off',
      categoryWatchState: 'watching',
    });
  });
});
