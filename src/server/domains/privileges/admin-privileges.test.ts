import { describe, expect, it } from 'vitest';
import { REGISTERED } from '../groups/service.js';
import { makeCategory, postTopic } from '../topics/testing.js';
import type { PrivilegeMatrix } from '../../../shared/schemas/admin-privileges.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum({ members: ['member'] });

const row = (m: PrivilegeMatrix, name: string) => m.groups.find((g) => g.name === name)?.privileges;

describe('admin privileges matrix', () => {
  it('gives the matrix to admins, 403 to members, 401 to guests', async () => {
    const cid = await makeCategory(kit.forum.ctx);
    const res = await kit.admin.client.get(`/api/admin/manage/privileges/${cid}`);
    expect(res.status).toBe(200);
    const m = res.body.privileges as PrivilegeMatrix;
    expect(m.cid).toBe(cid);
    expect(m.labelData.map((l) => l.name)).toContain('topics:create');
    expect(row(m, REGISTERED)!['topics:create']).toBe(true);
    expect(row(m, 'guests')!['topics:create']).toBe(false);
    expect(res.body.categories.some((c: { cid: number }) => c.cid === cid)).toBe(true);
    const global = await kit.admin.client.get('/api/admin/manage/privileges');
    expect(global.status).toBe(200);
    expect(global.body.privileges.labelData.map((l: { name: string }) => l.name)).toContain('chat');
    expect(row(global.body.privileges, REGISTERED)!.chat).toBe(true);
    expect((await kit.member.client.get(`/api/admin/manage/privileges/${cid}`)).status).toBe(403);
    expect((await kit.forum.client().get('/api/admin/manage/privileges')).status).toBe(401);
    expect((await kit.admin.client.get('/api/admin/manage/privileges/999999')).status).toBe(404);
    // ?uid= adds a row for a member with no grant of their own yet.
    const withRow = await kit.admin.client.get(`/api/admin/manage/privileges/${cid}?uid=${kit.member.user.uid}`);
    expect(withRow.body.privileges.users.map((u: { uid: number }) => u.uid)).toEqual([kit.member.user.uid]);
    expect(Object.values(withRow.body.privileges.users[0].privileges).some(Boolean)).toBe(false);
    // The write routes check in the service too.
    expect((await kit.member.client.put(`/api/v3/admin/privileges/${cid}/topics:create`, { member: REGISTERED })).status).toBe(403);
    expect((await kit.forum.client().put(`/api/v3/admin/privileges/${cid}/topics:create`, { member: REGISTERED })).status).toBeGreaterThanOrEqual(401);
  });

  it('taking topics:create from registered-users stops a member posting there; giving it back lets them', async () => {
    const cid = await makeCategory(kit.forum.ctx);
    await postTopic(kit.member.client, cid);
    const off = await kit.admin.client.del(`/api/v3/admin/privileges/${cid}/groups:topics:create`, { member: REGISTERED });
    expect(off.status).toBe(200);
    expect(row(off.body.response, REGISTERED)!['topics:create']).toBe(false);
    const refused = await kit.member.client.post('/api/v3/topics', { cid, title: 'A topic title here', content: 'Some content that is long enough.' });
    expect(refused.status).toBe(403);
    const on = await kit.admin.client.put(`/api/v3/admin/privileges/${cid}/topics:create`, { member: REGISTERED });
    expect(on.status).toBe(200);
    expect(row(on.body.response, REGISTERED)!['topics:create']).toBe(true);
    await postTopic(kit.member.client, cid);
    const events = await kit.forum.ctx.events.recent(20, 'privilege-rescind');
    expect(events.some((e) => e.data.cid === cid && e.data.privilege === 'topics:create')).toBe(true);
  });

  it('changes a global privilege for one member, and refuses unknown privileges, groups and members with 400', async () => {
    const on = await kit.admin.client.put('/api/v3/admin/privileges/0/upload:post:file', { member: String(kit.member.user.uid) });
    expect(on.status).toBe(200);
    expect(on.body.response.users.find((u: { uid: number }) => u.uid === kit.member.user.uid).privileges['upload:post:file']).toBe(true);
    expect(await kit.forum.ctx.privileges.can(kit.member.viewer, 'upload:post:file')).toBe(true);
    await kit.admin.client.del('/api/v3/admin/privileges/0/upload:post:file', { member: `uid:${kit.member.user.uid}` });
    expect(await kit.forum.ctx.privileges.can(kit.member.viewer, 'upload:post:file')).toBe(false);
    const bad = await kit.admin.client.put('/api/v3/admin/privileges/0/topics:create', { member: REGISTERED });
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:invalid-privilege');
    expect((await kit.admin.client.put('/api/v3/admin/privileges/0/chat', { member: 'no such group' })).body.status.key).toBe('error:no-group');
    expect((await kit.admin.client.put('/api/v3/admin/privileges/0/chat', { member: '99999999' })).body.status.key).toBe('error:no-user');
    expect((await kit.admin.client.put('/api/v3/admin/privileges/0/chat', {})).status).toBe(400);
  });

  it('applies presets, copies from a category and to all categories', async () => {
    const a = await makeCategory(kit.forum.ctx);
    const b = await makeCategory(kit.forum.ctx);
    const ro = await kit.admin.client.post(`/api/v3/admin/privileges/${a}/preset`, { member: REGISTERED, preset: 'read-only' });
    expect(ro.status).toBe(200);
    const flags = row(ro.body.response, REGISTERED)!;
    expect(
      Object.keys(flags)
        .filter((k) => flags[k])
        .sort(),
    ).toEqual(['find', 'read', 'topics:read']);
    expect(await kit.forum.ctx.privileges.can(kit.member.viewer, 'topics:reply', a)).toBe(false);
    expect((await kit.admin.client.post(`/api/v3/admin/privileges/${a}/preset`, { member: REGISTERED, preset: 'owner' })).status).toBe(400);

    const copied = await kit.admin.client.post(`/api/v3/admin/privileges/${b}/copy-from`, { fromCid: a, group: REGISTERED });
    expect(copied.status).toBe(200);
    expect(row(copied.body.response, REGISTERED)!['topics:create']).toBe(false);
    expect(row(copied.body.response, REGISTERED)!.read).toBe(true);

    const back = await kit.admin.client.post(`/api/v3/admin/privileges/${a}/preset`, { member: REGISTERED, preset: 'member' });
    expect(row(back.body.response, REGISTERED)!['topics:create']).toBe(true);
    const all = await kit.admin.client.post(`/api/v3/admin/privileges/${a}/copy-to-all`, { group: REGISTERED });
    expect(all.status).toBe(200);
    expect(await kit.forum.ctx.privileges.can(kit.member.viewer, 'topics:create', b)).toBe(true);
    expect((await kit.admin.client.post(`/api/v3/admin/privileges/${a}/copy-from`, { fromCid: 999999 })).status).toBe(400);
    expect((await kit.member.client.post(`/api/v3/admin/privileges/${a}/copy-to-all`, {})).status).toBe(403);
  });
});
