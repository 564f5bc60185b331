import { beforeAll, describe, expect, it } from 'vitest';
import type { GroupDetailsPage, GroupsListPage } from '../../../shared/schemas/group.js';
import type { NotificationObject } from '../../../shared/schemas/notification.js';
import type { TopicPage } from '../../../shared/types.js';
import { SYSTEM } from '../../setup.js';
import { type TestMember } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import { useForum } from '../../test/forum-kit.js';

let cid: number;
let n = 0;

const kit = useForum();
beforeAll(async () => {
  cid = (await kit.forum.ctx.categories.create(SYSTEM, { name: 'Group talk' })).cid;
  await kit.forum.ctx.privileges.give(0, ['group:create'], 'registered-users');
});

/** A new group owned by `owner` through the API. */
async function newGroup(owner: TestMember, fields: Record<string, unknown> = {}) {
  const name = `Team ${++n} ${Date.now() % 1000}`;
  const res = await owner.client.post('/api/v3/groups/', { name, ...fields });
  expect(res.status).toBe(200);
  return res.body.response as { name: string; slug: string; memberCount: number };
}

const count = async (slug: string) =>
  (await kit.forum.ctx.db.selectFrom('groups').select('member_count').where('slug', '=', slug).executeTakeFirstOrThrow()).member_count;
const realCount = async (slug: string) => {
  const g = await kit.forum.ctx.db.selectFrom('groups').select('name').where('slug', '=', slug).executeTakeFirstOrThrow();
  return (await kit.forum.ctx.groups.members(g.name)).length;
};
async function unread(m: TestMember): Promise<NotificationObject[]> {
  await kit.forum.ctx.hooks.idle();
  return (await m.client.get('/api/v3/notifications')).body.response.unread as NotificationObject[];
}

describe('privileges of every group action (guest, member, owner, admin)', () => {
  type Actor = 'guest' | 'member' | 'owner' | 'admin';
  // [action, expected status per actor]; each run gets a fresh group and target member.
  const table: [string, (c: HttpClient, slug: string, target: number) => Promise<{ status: number }>, Record<Actor, number>][] = [
    ['update', (c, s) => c.put(`/api/v3/groups/${s}`, { description: 'New words' }), { guest: 401, member: 403, owner: 200, admin: 200 }],
    ['delete', (c, s) => c.del(`/api/v3/groups/${s}`), { guest: 401, member: 403, owner: 200, admin: 200 }],
    ['grant ownership', (c, s, t) => c.put(`/api/v3/groups/${s}/ownership/${t}`), { guest: 401, member: 403, owner: 200, admin: 200 }],
    ['kick', (c, s, t) => c.del(`/api/v3/groups/${s}/membership/${t}`), { guest: 401, member: 403, owner: 200, admin: 200 }],
    ['invite', (c, s) => c.post(`/api/v3/groups/${s}/invites/${kit.admin.user.uid + 100000}`), { guest: 401, member: 403, owner: 404, admin: 404 }],
    ['list pending', (c, s) => c.get(`/api/v3/groups/${s}/pending`), { guest: 401, member: 403, owner: 200, admin: 200 }],
    ['list invites', (c, s) => c.get(`/api/v3/groups/${s}/invites`), { guest: 401, member: 403, owner: 200, admin: 200 }],
    ['add another member', (c, s, t) => c.put(`/api/v3/groups/${s}/membership/${t + 0}`), { guest: 401, member: 403, owner: 403, admin: 400 }],
  ];
  for (const [action, call, expected] of table) {
    it(action, async () => {
      for (const actor of ['guest', 'member', 'owner', 'admin'] as Actor[]) {
        const owner = await kit.forum.member();
        const g = await newGroup(owner, { private: 0 });
        const target = await kit.forum.member();
        await target.client.put(`/api/v3/groups/${g.slug}/membership/${target.user.uid}`);
        const other = await kit.forum.member();
        const client = actor === 'guest' ? kit.forum.client() : actor === 'member' ? other.client : actor === 'owner' ? owner.client : kit.admin.client;
        const res = await call(client, g.slug, target.user.uid);
        expect(`${action} by ${actor}: ${res.status}`).toBe(`${action} by ${actor}: ${expected[actor]}`);
      }
    });
  }

  it('creating a group needs group:create (admins always)', async () => {
    expect((await kit.forum.client().post('/api/v3/groups/', { name: 'By a guest' })).status).toBe(401);
    await kit.forum.ctx.privileges.take(0, ['group:create'], 'registered-users');
    try {
      const m = await kit.forum.member();
      expect((await m.client.post('/api/v3/groups/', { name: 'Not allowed here' })).status).toBe(403);
      expect((await kit.admin.client.post('/api/v3/groups/', { name: 'Admins may' })).status).toBe(200);
      expect((await kit.forum.client().get('/api/groups')).body.allowGroupCreation).toBe(false);
      expect((await m.client.get('/api/groups')).body.allowGroupCreation).toBe(false);
    } finally {
      await kit.forum.ctx.privileges.give(0, ['group:create'], 'registered-users');
    }
  });

  it('refuses bad names and duplicates with their keys', async () => {
    const m = await kit.forum.member();
    expect((await m.client.post('/api/v3/groups/', { name: '   ' })).body.status.message).toBe('Invalid group name');
    expect((await m.client.post('/api/v3/groups/', { name: 'a/b' })).status).toBe(400);
    const g = await newGroup(m);
    const dup = await m.client.post('/api/v3/groups/', { name: g.name.toUpperCase() });
    expect(dup.status).toBe(400);
    expect(dup.body.status.message).toBe('Group already exists');
    expect((await m.client.put(`/api/v3/groups/${g.slug}`, { labelColor: 'red' })).status).toBe(400);
  });
});

describe('joining, requests and invitations', () => {
  it('a public group is joined at once and left; member_count follows', async () => {
    const owner = await kit.forum.member();
    const g = await newGroup(owner, { private: 0 });
    const m = await kit.forum.member();
    expect((await m.client.put(`/api/v3/groups/${g.slug}/membership/${m.user.uid}`)).status).toBe(200);
    expect(await count(g.slug)).toBe(2);
    expect((await m.client.put(`/api/v3/groups/${g.slug}/membership/${m.user.uid}`)).body.status.message).toBe('Already part of this group');
    expect((await m.client.del(`/api/v3/groups/${g.slug}/membership/${m.user.uid}`)).status).toBe(200);
    expect(await count(g.slug)).toBe(1);
    expect(await realCount(g.slug)).toBe(1);
    expect((await m.client.del(`/api/v3/groups/${g.slug}/membership/${m.user.uid}`)).status).toBe(400);
  });

  it('a private group: the request waits, the owner is told, accepts, the member is told and joins', async () => {
    const owner = await kit.forum.member();
    const g = await newGroup(owner, { private: 1 });
    const m = await kit.forum.member();
    expect((await m.client.put(`/api/v3/groups/${g.slug}/membership/${m.user.uid}`)).status).toBe(200);
    expect(await count(g.slug)).toBe(1);
    let page = (await m.client.get(`/api/groups/${g.slug}`)).body as GroupDetailsPage;
    expect(page.group).toMatchObject({ isMember: false, isPending: true });
    expect((await m.client.put(`/api/v3/groups/${g.slug}/membership/${m.user.uid}`)).status).toBe(400);
    expect((await unread(owner)).some((x) => x.type === 'group-request-membership' && x.path === `/groups/${g.slug}`)).toBe(true);
    const pending = (await owner.client.get(`/api/v3/groups/${g.slug}/pending`)).body.response.pending as { uid: number }[];
    expect(pending.map((p) => p.uid)).toEqual([m.user.uid]);
    // Another member may not answer it.
    expect((await (await kit.forum.member()).client.put(`/api/v3/groups/${g.slug}/pending/${m.user.uid}`)).status).toBe(403);
    expect((await owner.client.put(`/api/v3/groups/${g.slug}/pending/${m.user.uid}`)).status).toBe(200);
    expect(await count(g.slug)).toBe(2);
    page = (await m.client.get(`/api/groups/${g.slug}`)).body as GroupDetailsPage;
    expect(page.group).toMatchObject({ isMember: true, isPending: false, memberCount: 2 });
    const told = (await unread(m)).find((x) => x.path === `/groups/${g.slug}`);
    expect(told?.bodyShort).toContain('notifications:group-request-accepted');
    expect((await owner.client.put(`/api/v3/groups/${g.slug}/pending/${m.user.uid}`)).status).toBe(404);
  });

  it('a rejected request leaves no member; join requests can be switched off', async () => {
    const owner = await kit.forum.member();
    const g = await newGroup(owner, { private: 1 });
    const m = await kit.forum.member();
    await m.client.put(`/api/v3/groups/${g.slug}/membership/${m.user.uid}`);
    expect((await owner.client.del(`/api/v3/groups/${g.slug}/pending/${m.user.uid}`)).status).toBe(200);
    expect(await count(g.slug)).toBe(1);
    await owner.client.put(`/api/v3/groups/${g.slug}`, { disableJoinRequests: 1 });
    const res = await m.client.put(`/api/v3/groups/${g.slug}/membership/${m.user.uid}`);
    expect(res.status).toBe(400);
    expect(res.body.status.message).toBe('You are not able to join this group at this time');
  });

  it('invitations: the member is told, accepts or declines; only they accept', async () => {
    const owner = await kit.forum.member();
    const g = await newGroup(owner, { private: 1 });
    const m = await kit.forum.member();
    expect((await owner.client.post(`/api/v3/groups/${g.slug}/invites/${m.user.uid}`)).status).toBe(200);
    expect((await owner.client.post(`/api/v3/groups/${g.slug}/invites/${m.user.uid}`)).status).toBe(400);
    expect((await unread(m)).some((x) => x.type === 'group-invite')).toBe(true);
    expect((await owner.client.put(`/api/v3/groups/${g.slug}/invites/${m.user.uid}`)).status).toBe(403);
    expect((await m.client.put(`/api/v3/groups/${g.slug}/invites/${m.user.uid}`)).status).toBe(200);
    expect(await count(g.slug)).toBe(2);
    const d = await kit.forum.member();
    await owner.client.post(`/api/v3/groups/${g.slug}/invites/${d.user.uid}`);
    expect((await d.client.del(`/api/v3/groups/${g.slug}/invites/${d.user.uid}`)).status).toBe(200);
    expect((await d.client.put(`/api/v3/groups/${g.slug}/invites/${d.user.uid}`)).status).toBe(400);
    expect(await count(g.slug)).toBe(2);
  });

  it('owners: a group keeps one; an owner may leave only when leaving is allowed', async () => {
    const owner = await kit.forum.member();
    const g = await newGroup(owner, { private: 0, disableLeave: 1 });
    const res = await owner.client.del(`/api/v3/groups/${g.slug}/ownership/${owner.user.uid}`);
    expect(res.body.status.message).toBe('This group requires at least one owner');
    expect((await owner.client.del(`/api/v3/groups/${g.slug}/membership/${owner.user.uid}`)).status).toBe(400);
    const m = await kit.forum.member();
    await m.client.put(`/api/v3/groups/${g.slug}/membership/${m.user.uid}`);
    expect((await owner.client.put(`/api/v3/groups/${g.slug}/ownership/${m.user.uid}`)).status).toBe(200);
    expect((await m.client.put(`/api/v3/groups/${g.slug}`, { userTitle: 'Crew' })).status).toBe(200);
  });
});

describe('hidden groups', () => {
  it('are not listed nor visible to non-members; an invited member sees and joins one', async () => {
    const owner = await kit.forum.member();
    const g = await newGroup(owner, { hidden: 1, private: 0 });
    const m = await kit.forum.member();
    const listed = async (c: HttpClient) => ((await c.get('/api/groups?sort=date')).body as GroupsListPage).groups.some((x) => x.slug === g.slug);
    expect(await listed(owner.client)).toBe(true);
    expect(await listed(kit.admin.client)).toBe(true);
    expect(await listed(m.client)).toBe(false);
    expect(await listed(kit.forum.client())).toBe(false);
    expect((await m.client.get(`/api/groups/${g.slug}`)).status).toBe(404);
    expect((await kit.forum.client().get(`/api/groups/${g.slug}/members`)).status).toBe(404);
    expect((await m.client.get(`/api/v3/groups/${g.slug}/members`)).status).toBe(404);
    expect((await m.client.request('HEAD', `/api/v3/groups/${g.slug}`)).status).toBe(404);
    // Membership is by invitation only.
    expect((await m.client.put(`/api/v3/groups/${g.slug}/membership/${m.user.uid}`)).status).toBe(404);
    await owner.client.post(`/api/v3/groups/${g.slug}/invites/${m.user.uid}`);
    expect((await m.client.get(`/api/groups/${g.slug}`)).body.group.isInvited).toBe(true);
    expect((await m.client.put(`/api/v3/groups/${g.slug}/invites/${m.user.uid}`)).status).toBe(200);
    expect(await listed(m.client)).toBe(true);
  });
});

describe('system groups', () => {
  it('cannot be deleted, renamed, joined or left by members', async () => {
    const m = await kit.forum.member();
    for (const slug of ['administrators', 'registered-users', 'global-moderators']) {
      expect((await kit.admin.client.del(`/api/v3/groups/${slug}`)).status).toBe(400);
      expect((await kit.admin.client.put(`/api/v3/groups/${slug}`, { name: `${slug} renamed` })).status).toBe(400);
    }
    expect((await m.client.put(`/api/v3/groups/administrators/membership/${m.user.uid}`)).status).toBe(403);
    expect((await m.client.put(`/api/v3/groups/global-moderators/membership/${m.user.uid}`)).status).toBe(403);
    expect((await m.client.del(`/api/v3/groups/registered-users/membership/${m.user.uid}`)).status).toBe(400);
    expect((await kit.admin.client.put(`/api/v3/groups/guests/membership/${m.user.uid}`)).status).toBe(400);
    expect(await kit.forum.ctx.groups.isAdmin(m.user.uid)).toBe(false);
    // An admin may make a member a global moderator, and the member's privileges follow.
    expect((await kit.admin.client.put(`/api/v3/groups/global-moderators/membership/${m.user.uid}`)).status).toBe(200);
    expect((await kit.forum.ctx.privileges.viewer(m.user.uid)).isGlobalMod).toBe(true);
  });

  it('a renamed group keeps its members and its privileges; a deleted one loses both', async () => {
    const owner = await kit.forum.member();
    const g = await newGroup(owner, { private: 0 });
    await kit.forum.ctx.privileges.give(cid, ['posts:view_deleted'], g.name);
    const res = await owner.client.put(`/api/v3/groups/${g.slug}`, { name: `${g.name} renamed` });
    expect(res.status).toBe(200);
    const renamed = res.body.response as { name: string; slug: string; memberCount: number };
    expect(renamed.memberCount).toBe(1);
    expect((await kit.forum.ctx.privileges.list(cid))['posts:view_deleted']).toContain(renamed.name);
    expect((await kit.forum.ctx.privileges.list(cid))['posts:view_deleted']).not.toContain(g.name);
    expect((await owner.client.get(`/api/groups/${renamed.slug}`)).body.group.isOwner).toBe(true);
    expect((await owner.client.del(`/api/v3/groups/${renamed.slug}`)).status).toBe(200);
    expect((await kit.forum.ctx.privileges.list(cid))['posts:view_deleted'] ?? []).not.toContain(renamed.name);
    expect((await owner.client.get(`/api/groups/${renamed.slug}`)).status).toBe(404);
  });
});

describe('badges', () => {
  it('a topic page with many authors carries each author’s badge from one lookup', async () => {
    const authors: TestMember[] = [];
    const groups: { name: string; slug: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const a = await kit.forum.member();
      authors.push(a);
      const g = await newGroup(a, { private: 0, userTitle: `Badge ${i}`, icon: 'fa-star', labelColor: '#123456', textColor: '#ffffff' });
      groups.push(g);
    }
    const plain = await kit.forum.member();
    const { topic } = await kit.forum.ctx.topics.create(authors[0]!.viewer, { cid, title: 'Badges all round here', content: 'The first post of the topic.' });
    for (const a of [...authors.slice(1), plain]) await kit.forum.ctx.posts.reply(a.viewer, topic.tid, { content: `A reply from ${a.user.username}.` });
    // The replies' live events present each new post once: let them finish before counting.
    await kit.forum.ctx.hooks.idle();
    let lookups = 0;
    kit.forum.ctx.hooks.filter('filter:users.badges', 'count-lookups', async (d) => {
      lookups++;
      return d;
    });
    try {
      const page = (await kit.forum.client().get(`/api/topic/${topic.tid}`)).body as TopicPage;
      expect(page.posts).toHaveLength(5);
      for (const [i, a] of authors.entries()) {
        const post = page.posts.find((p) => p.uid === a.user.uid)!;
        expect(post.user.selectedGroups).toEqual([
          { name: groups[i]!.name, slug: groups[i]!.slug, userTitle: `Badge ${i}`, icon: 'fa-star', labelColor: '#123456', textColor: '#ffffff' },
        ]);
      }
      expect(page.posts.find((p) => p.uid === plain.user.uid)!.user.selectedGroups).toEqual([]);
      expect(lookups).toBe(1);
    } finally {
      kit.forum.ctx.hooks.unregisterPlugin('count-lookups');
    }
  });

  it('a member chooses which badges show; a badge switched off by its group is hidden', async () => {
    const m = await kit.forum.member();
    const a = await newGroup(m, { private: 0, userTitle: 'First' });
    const b = await newGroup(m, { private: 0, userTitle: 'Second' });
    const badges = async () => (await kit.forum.ctx.groups.badgesOf([m.user.uid])).get(m.user.uid)?.map((g) => g.name) ?? [];
    expect(await badges()).toEqual([a.name]);
    // A topic page read before each change shows the change at once (its shared part is dropped).
    const { topic } = await kit.forum.ctx.topics.create(m.viewer, { cid, title: 'Badges that change', content: 'A post showing the badges.' });
    const shown = async () => ((await kit.forum.client().get(`/api/topic/${topic.tid}`)).body as TopicPage).posts[0]!.user.selectedGroups!.map((g) => g.name);
    expect(await shown()).toEqual([a.name]);
    expect((await m.client.put(`/api/v3/users/${m.user.uid}/group-titles`, { groupTitle: [b.name, a.name] })).status).toBe(200);
    expect(await badges()).toEqual([b.name, a.name]);
    expect(await shown()).toEqual([b.name, a.name]);
    // A hidden group's badge never shows beside posts.
    await m.client.put(`/api/v3/groups/${a.slug}`, { hidden: 1 });
    expect(await badges()).toEqual([b.name]);
    expect(await shown()).toEqual([b.name]);
    await m.client.put(`/api/v3/groups/${a.slug}`, { hidden: 0 });
    expect((await m.client.put(`/api/v3/users/${m.user.uid}/group-titles`, { groupTitle: ['administrators'] })).status).toBe(400);
    expect((await (await kit.forum.member()).client.put(`/api/v3/users/${m.user.uid}/group-titles`, { groupTitle: [] })).status).toBe(403);
    await m.client.put(`/api/v3/groups/${b.slug}`, { userTitleEnabled: 0 });
    expect(await badges()).toEqual([a.name]);
    const page = (await m.client.get(`/api/user/${m.user.userslug}/groups`)).body;
    expect(page.groups.map((g: { name: string; badge: number }) => [g.name, g.badge])).toEqual(
      expect.arrayContaining([
        [a.name, 2],
        [b.name, 1],
      ]),
    );
  });
});

describe('profile', () => {
  it('shows the member’s badges and visible groups; a hidden group only to the member and admins', async () => {
    const m = await kit.forum.member();
    const open = await newGroup(m, { private: 0, userTitle: 'Open crew' });
    const hidden = await newGroup(m, { hidden: 1, userTitle: 'Secret crew' });
    await m.client.put(`/api/v3/users/${m.user.uid}/group-titles`, { groupTitle: [open.name, hidden.name] });
    const as = async (c: HttpClient) =>
      (await c.get(`/api/user/${m.user.userslug}`)).body as { groups: { slug: string }[]; selectedGroups: { slug: string }[] };
    const outsider = await as(kit.forum.client());
    expect(outsider.groups.map((g) => g.slug)).toEqual([open.slug]);
    expect(outsider.selectedGroups.map((g) => g.slug)).toEqual([open.slug]);
    for (const c of [m.client, kit.admin.client]) {
      const seen = await as(c);
      expect(seen.groups.map((g) => g.slug).sort()).toEqual([open.slug, hidden.slug].sort());
      expect(seen.selectedGroups.map((g) => g.slug)).toEqual([open.slug, hidden.slug]);
    }
  });
});

describe('pages', () => {
  it('lists with sort and search, details with members, the member list with search', async () => {
    const owner = await kit.forum.member();
    const g = await newGroup(owner, { private: 0, description: 'We **talk** here' });
    const m = await kit.forum.member();
    await m.client.put(`/api/v3/groups/${g.slug}/membership/${m.user.uid}`);
    const list = (await kit.forum.client().get(`/api/groups?query=${encodeURIComponent(g.name)}`)).body as GroupsListPage;
    expect(list.template.name).toBe('groups/list');
    expect(list.groups.map((x) => x.slug)).toEqual([g.slug]);
    expect(list.groups[0]!.members.map((x) => x.uid)).toEqual([owner.user.uid, m.user.uid]);
    const byCount = (await kit.forum.client().get('/api/groups?sort=count')).body as GroupsListPage;
    const counts = byCount.groups.map((x) => x.memberCount);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
    expect(byCount.groups.some((x) => x.slug === 'registered-users' || x.slug === 'guests')).toBe(false);
    const details = (await kit.forum.client().get(`/api/groups/${g.slug}`)).body as GroupDetailsPage;
    expect(details.group.descriptionParsed).toContain('<strong>talk</strong>');
    expect(details.group.members[0]).toMatchObject({ uid: owner.user.uid, isOwner: true });
    const members = (await kit.forum.client().get(`/api/groups/${g.slug}/members?query=${m.user.username.slice(0, 6)}`)).body;
    expect(members.users.map((u: { uid: number }) => u.uid)).toContain(m.user.uid);
    expect(members.users.map((u: { uid: number }) => u.uid)).not.toContain(owner.user.uid === m.user.uid ? -1 : kit.admin.user.uid);
    const v3 = (await kit.forum.client().get(`/api/v3/groups/${g.slug}/members`)).body.response;
    expect(v3.users).toHaveLength(2);
    expect((await kit.forum.client().get('/api/groups/no-such-group')).status).toBe(404);
    expect((await kit.forum.client().get('/api/groups?page=999')).status).toBe(404);
  });

  it("details carry the latest posts of the group's members that the reader may read, newest first", async () => {
    const owner = await kit.forum.member();
    const g = await newGroup(owner, { private: 0 });
    const outsider = await kit.forum.member();
    const hidden = (await kit.forum.ctx.categories.create(SYSTEM, { name: 'Staff room' })).cid;
    await kit.forum.ctx.privileges.take(hidden, ['read', 'topics:read'], 'guests');
    const post = async (c: HttpClient, where: number, title: string) => {
      const res = await c.post('/api/v3/topics', { cid: where, title, content: `The body of ${title}.` });
      expect(res.status).toBe(200);
      return res.body.response.mainPid as number;
    };
    const first = await post(owner.client, cid, 'A member topic one');
    await post(outsider.client, cid, 'Not by a member');
    const members = await post(owner.client, hidden, 'Members only topic');
    const guestView = (await kit.forum.client().get(`/api/groups/${g.slug}`)).body as GroupDetailsPage;
    expect(guestView.posts.map((p) => p.pid)).toEqual([first]);
    expect(guestView.posts[0]).toMatchObject({ topic: { title: 'A member topic one' }, user: { uid: owner.user.uid } });
    const memberView = (await outsider.client.get(`/api/groups/${g.slug}`)).body as GroupDetailsPage;
    expect(memberView.posts.map((p) => p.pid)).toEqual([members, first]);
  });
});

describe('membership writes', () => {
  it('join in the caller’s action: rolled back with it, else who the member is at once', async () => {
    const { ctx } = kit.forum;
    const m = await kit.forum.member();
    expect((await ctx.privileges.viewer(m.user.uid)).isGlobalMod).toBe(false);
    await expect(
      ctx.actions.run('test.fails', async (w) => {
        await ctx.groups.join('Global Moderators', m.user.uid, w);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await ctx.groups.groupsOf(m.user.uid)).not.toContain('Global Moderators');
    expect((await ctx.privileges.viewer(m.user.uid)).isGlobalMod).toBe(false);
    await ctx.actions.run('test.commits', (w) => ctx.groups.join('Global Moderators', m.user.uid, w));
    // The viewer kept a moment ago is dropped by the commit (GROUPS), in this process before the answer.
    expect((await ctx.privileges.viewer(m.user.uid)).isGlobalMod).toBe(true);
    await ctx.groups.leave('Global Moderators', m.user.uid);
    expect((await ctx.privileges.viewer(m.user.uid)).isGlobalMod).toBe(false);
  });
});
