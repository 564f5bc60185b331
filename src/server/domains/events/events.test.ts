import { describe, expect, it } from 'vitest';
import type { AdminEventsPage } from '../../../shared/schemas/event.js';
import { eventTarget } from './service.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum();

describe('the audit log', () => {
  it('reads what an event acted on from its data, most specific first', () => {
    expect(eventTarget({ flagId: 3, pid: 9 })).toBe('flag:3');
    expect(eventTarget({ pid: 12, tid: 4 })).toBe('post:12');
    expect(eventTarget({ targetUid: 7 })).toBe('user:7');
    expect(eventTarget({ roomId: '5' })).toBe('room:5');
    expect(eventTarget({ key: 'siteTitle' })).toBe('');
    expect(eventTarget({ pid: 'x' })).toBe('');
  });

  it('GET /api/admin/advanced/events: an administrator’s actions with who, what, target, address and time; filters by type, actor and dates', async () => {
    // A real admin action through the API: a setting change (config-change).
    expect((await kit.admin.client.put('/api/v3/admin/settings/postDelay', { value: '5' })).status).toBe(200);
    await kit.forum.ctx.events.log('flag-update', kit.admin.user.uid, { flagId: 41, state: 'resolved' }, '10.0.0.9');
    const other = await kit.forum.member();
    await kit.forum.ctx.events.log('user-ban', other.user.uid, { targetUid: 99, reason: 'spam' }, '10.0.0.8');

    const page = (await kit.admin.client.get('/api/admin/advanced/events')).body as AdminEventsPage;
    expect(page.template.name).toBe('admin/advanced/events');
    const update = page.events.find((e) => e.type === 'flag-update')!;
    expect(update).toMatchObject({
      uid: kit.admin.user.uid,
      ip: '10.0.0.9',
      target: 'flag:41',
      flagId: 41,
      state: 'resolved',
      user: { username: kit.admin.user.username },
    });
    expect(update.timestampISO).toBe(new Date(update.timestamp).toISOString());
    expect(JSON.parse(update.jsonString)).toEqual({ flagId: 41, state: 'resolved' });
    expect(page.events.some((e) => e.type === 'config-change' && e.uid === kit.admin.user.uid)).toBe(true);
    expect(page.types.find((t) => t.value === 'flag-update')).toMatchObject({ count: 1, selected: false });

    const byType = (await kit.admin.client.get('/api/admin/advanced/events?type=user-ban')).body as AdminEventsPage;
    expect(byType.events.map((e) => e.type)).toEqual(['user-ban']);
    expect(byType.types.find((t) => t.value === 'user-ban')!.selected).toBe(true);
    const byActor = (await kit.admin.client.get(`/api/admin/advanced/events?uid=${other.user.uid}`)).body as AdminEventsPage;
    // The member's own register and login events, and the ban they logged: nobody else's.
    expect(byActor.events.every((e) => e.uid === other.user.uid)).toBe(true);
    expect(byActor.events.map((e) => e.type)).toEqual(expect.arrayContaining(['user-ban', 'user-login']));
    const byName = (await kit.admin.client.get(`/api/admin/advanced/events?username=${encodeURIComponent(other.user.username)}`)).body as AdminEventsPage;
    expect(byName.events.map((e) => e.eid)).toEqual(byActor.events.map((e) => e.eid));
    const byTarget = (await kit.admin.client.get('/api/admin/advanced/events?target=user:99')).body as AdminEventsPage;
    expect(byTarget.events.map((e) => e.type)).toEqual(['user-ban']);

    const today = new Date().toISOString().slice(0, 10);
    const dated = (await kit.admin.client.get(`/api/admin/advanced/events?start=${today}&end=${today}`)).body as AdminEventsPage;
    expect(dated.events.length).toBe(page.events.length);
    const past = (await kit.admin.client.get('/api/admin/advanced/events?start=2001-01-01&end=2001-01-02')).body as AdminEventsPage;
    expect(past.events).toEqual([]);

    const paged = (await kit.admin.client.get('/api/admin/advanced/events?perPage=1&page=2')).body as AdminEventsPage;
    expect(paged.events).toHaveLength(1);
    expect(paged.pagination.currentPage).toBe(2);
    expect(paged.events[0]!.eid).toBe(page.events[1]!.eid);
  });

  it('is the administrators’ alone; bad filters answer 400', async () => {
    const member = await kit.forum.member();
    expect((await member.client.get('/api/admin/advanced/events')).status).toBe(403);
    expect((await kit.forum.client().get('/api/admin/advanced/events')).status).toBe(401);
    for (const bad of ['start=yesterday', 'end=2020-13-45x', 'perPage=0', 'perPage=1000', 'uid=abc', 'target=post', 'page=0']) {
      const res = await kit.admin.client.get(`/api/admin/advanced/events?${bad}`);
      expect(res.status, bad).toBe(400);
    }
  });

  it('writes an event in the action that logs it: it commits with the action or not at all', async () => {
    const { ctx } = kit.forum;
    const target = { targetUid: 424242 };
    await expect(
      ctx.actions.run('test.fails', async (w) => {
        await ctx.events.log('user-ban', kit.admin.user.uid, target, '', w);
        throw new Error('refused after the event');
      }),
    ).rejects.toThrow('refused after the event');
    expect((await ctx.events.list({ target: 'user:424242' }, 0, 10)).count).toBe(0);
    await ctx.actions.run('test.commits', (w) => ctx.events.log('user-ban', kit.admin.user.uid, target, '', w));
    expect((await ctx.events.list({ target: 'user:424242' }, 0, 10)).rows.map((e) => e.type)).toEqual(['user-ban']);
  });
});
