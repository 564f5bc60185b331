import { describe, expect, it } from 'vitest';
import type { AdminDigestPage } from '../../../shared/schemas/admin-people.js';
import { makeCategory, postTopic } from '../topics/testing.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum();

describe('admin/manage/digest', () => {
  it('shows each member’s digest setting and last digest; send now for one member or all; admins only', async () => {
    const { client: member, user } = await kit.forum.loginAs();
    await kit.forum.ctx.db.updateTable('users').set({ email_confirmed: 1 }).where('uid', '=', user.uid).execute();
    expect((await member.put(`/api/v3/users/${user.uid}/settings`, { settings: { dailyDigestFreq: 'week' } })).status).toBe(200);
    await postTopic(kit.admin.client, await makeCategory(kit.forum.ctx), { title: 'Something new for the digest' });

    let res = await kit.admin.client.get<AdminDigestPage>('/api/admin/manage/digest');
    expect(res.status).toBe(200);
    expect(res.body.default).toBe('off');
    let row = res.body.delivery.find((d) => d.uid === user.uid)!;
    expect(row.setting).toBe('week');
    expect(row.lastDelivery).toBe('');

    const outbox = async () => (await kit.forum.ctx.db.selectFrom('mail_outbox').selectAll().execute()).filter((m) => JSON.stringify(m).includes(user.email!));
    const before = (await outbox()).length;
    const one = await kit.admin.client.post('/api/v3/admin/digest/send', { uid: user.uid });
    expect(one.status).toBe(200);
    expect(one.body.response.sent).toBe(1);
    expect((await outbox()).length).toBe(before + 1);
    res = await kit.admin.client.get<AdminDigestPage>('/api/admin/manage/digest');
    row = res.body.delivery.find((d) => d.uid === user.uid)!;
    expect(row.lastDelivery).not.toBe('');
    expect(res.body.lastRun).not.toBe('');

    // Everyone who gets digests: this member (a topic is new since their last one); the admin has no confirmed address.
    await postTopic(kit.admin.client, await makeCategory(kit.forum.ctx), { title: 'Another topic for all' });
    const all = await kit.admin.client.post('/api/v3/admin/digest/send', {});
    expect(all.status).toBe(200);
    expect(all.body.response.sent).toBe(1);

    const unconfirmed = await kit.forum.createUser();
    const bad = await kit.admin.client.post('/api/v3/admin/digest/send', { uid: unconfirmed.uid });
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:email-not-confirmed');

    expect((await member.get('/api/admin/manage/digest')).status).toBe(403);
    expect((await member.post('/api/v3/admin/digest/send', {})).status).toBe(403);
    expect((await kit.forum.client().get('/api/admin/manage/digest')).status).toBe(401);
  });
});
