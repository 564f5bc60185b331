import { describe, expect, it } from 'vitest';
import { startTestForum } from '../../test/harness.js';
import { makeCategory, postTopic } from '../topics/testing.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum({ category: 'Flood' });

const topic = { title: 'Flood control topic', content: 'Flood control content here' };

async function settings(values: Record<string, number>) {
  await kit.forum.ctx.settings.set({ postDelay: 0, newbiePostDelay: 0, initialPostDelay: 0, newbieReputationThreshold: 3, ...values });
}

describe('flood control', () => {
  it('makes members wait postDelay between posts', async () => {
    await settings({ postDelay: 10 });
    const { client, user } = await kit.forum.loginAs();
    await kit.forum.ctx.db.updateTable('users').set({ reputation: 5 }).where('uid', '=', user.uid).execute();
    const t = await postTopic(client, kit.cid);
    const res = await client.post(`/api/v3/topics/${t.tid}`, { content: 'Too quick a reply' });
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe('error:too-many-posts');
    expect(res.body.status.params).toEqual([10]);
    expect(res.body.status.message).toContain('10 second');
  });

  it('makes members below the reputation threshold wait newbiePostDelay', async () => {
    await settings({ postDelay: 10, newbiePostDelay: 120 });
    const { client } = await kit.forum.loginAs();
    await postTopic(client, kit.cid);
    const res = await client.post('/api/v3/topics', { cid: kit.cid, ...topic });
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe('error:too-many-posts-newbie');
    expect(res.body.status.params).toEqual([120, 3]);
  });

  it('makes new accounts wait initialPostDelay after joining', async () => {
    await settings({ initialPostDelay: 60 });
    const { client } = await kit.forum.loginAs();
    const res = await client.post('/api/v3/topics', { cid: kit.cid, ...topic });
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe('error:user-too-new');
    expect(res.body.status.params).toEqual([60]);
  });

  it('exempts administrators, moderators and master-token integrations', async () => {
    await settings({ postDelay: 60, newbiePostDelay: 120, initialPostDelay: 60 });
    const admin = await kit.forum.loginAs({ admin: true });
    const t = await postTopic(admin.client, kit.cid);
    expect((await admin.client.post(`/api/v3/topics/${t.tid}`, { content: 'Admin posts quickly' })).status).toBe(200);

    const mod = await kit.forum.loginAs();
    await kit.forum.ctx.privileges.give(kit.cid, ['moderate'], `uid:${mod.user.uid}`);
    await postTopic(mod.client, kit.cid);
    expect((await mod.client.post(`/api/v3/topics/${t.tid}`, { content: 'Moderator posts quickly' })).status).toBe(200);

    const member = await kit.forum.createUser();
    const integration = kit.forum.client();
    integration.bearer = await kit.forum.ctx.auth.createToken(0, 'integration');
    for (let i = 0; i < 2; i++) {
      const res = await integration.post('/api/v3/topics', { cid: kit.cid, ...topic, _uid: member.uid });
      expect(res.status, res.text).toBe(200);
      expect(res.body.response.uid).toBe(member.uid);
    }
    await settings({});
  });

  it('applies the per-minute rate limit', async () => {
    const limited = await startTestForum({ env: { PALAVER_RATE_POSTS: '2' } });
    try {
      const c = await makeCategory(limited.ctx, 'Limited');
      const { client } = await limited.loginAs();
      await postTopic(client, c);
      await postTopic(client, c);
      const res = await client.post('/api/v3/topics', { cid: c, ...topic });
      expect(res.status).toBe(429);
      expect(res.body.status.key).toBe('error:too-many-requests');
      const admin = await limited.loginAs({ admin: true });
      for (let i = 0; i < 3; i++) await postTopic(admin.client, c);
    } finally {
      await limited.close();
    }
  });
});
