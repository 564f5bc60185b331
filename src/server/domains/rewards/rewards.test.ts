import { beforeAll, describe, expect, it } from 'vitest';
import { makeCategory, postReply, postTopic } from '../topics/testing.js';
import { rewardsOf } from './service.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum({ members: ['member'] });
beforeAll(async () => {
  expect((await kit.admin.client.post('/api/v3/groups', { name: 'Regulars' })).status).toBe(200);
  expect((await kit.admin.client.post('/api/v3/groups', { name: 'Old Timers' })).status).toBe(200);
});

const inGroup = async (name: string, uid: number) => (await kit.forum.ctx.groups.members(name)).includes(uid);

describe('rewards', () => {
  it('gives the page to admins, 403 to members, 401 to guests, and refuses bad rules with the field', async () => {
    const res = await kit.admin.client.get('/api/admin/extend/rewards');
    expect(res.status).toBe(200);
    expect(res.body.conditions.map((c: { condition: string }) => c.condition)).toEqual(['postcount', 'reputation', 'topiccount', 'days']);
    expect(res.body.groups).toContain('Regulars');
    expect(res.body.groups).not.toContain('administrators');
    expect((await kit.member.client.get('/api/admin/extend/rewards')).status).toBe(403);
    expect((await kit.forum.client().get('/api/admin/extend/rewards')).status).toBe(401);
    expect((await kit.member.client.post('/api/v3/admin/rewards', { condition: 'postcount', value: 2, group: 'Regulars' })).status).toBe(403);
    const bad = await kit.admin.client.post('/api/v3/admin/rewards', { condition: 'likes', value: 2, group: 'Regulars' });
    expect(bad.status).toBe(400);
    expect(bad.body.status.params).toEqual(['body/condition']);
    const admins = await kit.admin.client.post('/api/v3/admin/rewards', { condition: 'postcount', value: 2, group: 'administrators' });
    expect(admins.status).toBe(400);
    expect(admins.body.status.params).toEqual(['body/group']);
    expect((await kit.admin.client.post('/api/v3/admin/rewards', { condition: 'postcount', value: 0, group: 'Regulars' })).body.status.params).toEqual([
      'body/value',
    ]);
  });

  it('adds a member to the group when their post count crosses the threshold; disabled and deleted rules give nothing', async () => {
    const made = await kit.admin.client.post('/api/v3/admin/rewards', { condition: 'postcount', value: 3, group: 'Regulars' });
    expect(made.status).toBe(200);
    const rid = made.body.response.id as number;
    const cid = await makeCategory(kit.forum.ctx);
    const { tid } = await postTopic(kit.member.client, cid);
    await postReply(kit.member.client, tid);
    await kit.forum.ctx.hooks.idle();
    expect(await inGroup('Regulars', kit.member.user.uid)).toBe(false);
    await postReply(kit.member.client, tid);
    await kit.forum.ctx.hooks.idle();
    expect(await inGroup('Regulars', kit.member.user.uid)).toBe(true);
    const list = await kit.admin.client.get('/api/v3/admin/rewards');
    expect(list.body.response.rewards.find((r: { id: number }) => r.id === rid).awarded).toBe(1);
    // Removed by an admin, the member is not added back by the same rule.
    await kit.admin.client.del(`/api/v3/groups/regulars/membership/${kit.member.user.uid}`);
    await postReply(kit.member.client, tid);
    await kit.forum.ctx.hooks.idle();
    expect(await inGroup('Regulars', kit.member.user.uid)).toBe(false);

    // A disabled rule gives nothing; enabled again, the sweep gives it to members who qualify.
    const other = await kit.forum.member();
    const off = await kit.admin.client.put(`/api/v3/admin/rewards/${rid}`, { disabled: true });
    expect(off.body.response.disabled).toBe(true);
    const t2 = await postTopic(other.client, cid);
    await postReply(other.client, t2.tid);
    await postReply(other.client, t2.tid);
    await kit.forum.ctx.hooks.idle();
    expect(await inGroup('Regulars', other.user.uid)).toBe(false);
    await kit.admin.client.put(`/api/v3/admin/rewards/${rid}`, { disabled: false });
    await kit.forum.ctx.jobs.runDue(Date.now() + 1000);
    expect(await inGroup('Regulars', other.user.uid)).toBe(true);
    expect((await kit.admin.client.del(`/api/v3/admin/rewards/${rid}`)).status).toBe(200);
    expect((await kit.admin.client.get('/api/v3/admin/rewards')).body.response.rewards.some((r: { id: number }) => r.id === rid)).toBe(false);
  });

  it('gives a days-since-joining reward from the recurring job', async () => {
    const made = await kit.admin.client.post('/api/v3/admin/rewards', { condition: 'days', value: 30, group: 'Old Timers' });
    expect(made.status).toBe(200);
    const veteran = await kit.forum.createUser();
    await kit.forum.ctx.db
      .updateTable('users')
      .set({ joindate: Date.now() - 40 * 24 * 3600_000 })
      .where('uid', '=', veteran.uid)
      .execute();
    const newcomer = await kit.forum.createUser();
    const given = await rewardsOf(kit.forum.ctx).sweep();
    expect(given).toBeGreaterThanOrEqual(1);
    expect(await inGroup('Old Timers', veteran.uid)).toBe(true);
    expect(await inGroup('Old Timers', newcomer.uid)).toBe(false);
  });

  it('keeps a rule when its group is renamed, and drops it when the group is deleted', async () => {
    await kit.admin.client.post('/api/v3/groups', { name: 'Talkers' });
    const made = await kit.admin.client.post('/api/v3/admin/rewards', { condition: 'reputation', value: 50, group: 'Talkers' });
    const rid = made.body.response.id as number;
    expect((await kit.admin.client.put('/api/v3/groups/talkers', { name: 'Chatterers' })).status).toBe(200);
    const rule = async () => (await kit.admin.client.get('/api/v3/admin/rewards')).body.response.rewards.find((r: { id: number }) => r.id === rid);
    expect((await rule())?.group).toBe('Chatterers');
    expect((await kit.admin.client.del('/api/v3/groups/chatterers')).status).toBe(200);
    expect(await rule()).toBeUndefined();
  });
});
