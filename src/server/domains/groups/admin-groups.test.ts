import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../test/csv.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum({ members: ['member'] });

describe('admin groups', () => {
  it('lists every group with member counts for admins (hidden and system ones), 403 members, 401 guests', async () => {
    const made = await kit.admin.client.post('/api/v3/groups', { name: 'Hidden Crew', hidden: 1 });
    expect(made.status).toBe(200);
    const res = await kit.admin.client.get('/api/admin/manage/groups');
    expect(res.status).toBe(200);
    const names = res.body.groups.map((g: { name: string }) => g.name);
    expect(names).toEqual(expect.arrayContaining(['administrators', 'registered-users', 'Hidden Crew']));
    const admins = res.body.groups.find((g: { name: string }) => g.name === 'administrators');
    expect(admins.system).toBe(true);
    expect(admins.memberCount).toBeGreaterThanOrEqual(1);
    expect((await kit.admin.client.get('/api/admin/manage/groups?query=hidden')).body.groups.map((g: { name: string }) => g.name)).toEqual(['Hidden Crew']);
    expect((await kit.member.client.get('/api/admin/manage/groups')).status).toBe(403);
    expect((await kit.forum.client().get('/api/admin/manage/groups')).status).toBe(401);
    expect((await kit.member.client.get('/api/v3/admin/groups')).status).toBe(403);
    const all = await kit.admin.client.get('/api/v3/admin/groups');
    expect(all.body.response.groups.some((g: { name: string }) => g.name === 'Hidden Crew')).toBe(true);
  });

  it('edits a group, manages its members and owners, exports them, and deletes it; system groups are protected', async () => {
    const made = await kit.admin.client.post('/api/v3/groups', { name: 'Editors Desk' });
    const slug = made.body.response.slug as string;
    const edit = await kit.admin.client.put(`/api/v3/groups/${slug}`, {
      description: 'We edit',
      labelColor: '#aa0000',
      icon: 'fa-pen',
      private: 0,
      disableJoinRequests: 1,
    });
    expect(edit.status).toBe(200);
    const bad = await kit.admin.client.put(`/api/v3/groups/${slug}`, { labelColor: 'red<script>' });
    expect(bad.status).toBe(400);
    expect((await kit.admin.client.put(`/api/v3/groups/${slug}/membership/${kit.member.user.uid}`)).status).toBe(200);
    expect((await kit.admin.client.put(`/api/v3/groups/${slug}/ownership/${kit.member.user.uid}`)).status).toBe(200);
    const page = await kit.admin.client.get(`/api/admin/manage/groups/${slug}`);
    expect(page.status).toBe(200);
    expect(page.body.group).toMatchObject({ description: 'We edit', labelColor: '#aa0000', icon: 'fa-pen', private: false, disableJoinRequests: true });
    expect(page.body.members.find((m: { uid: number }) => m.uid === kit.member.user.uid).isOwner).toBe(true);
    expect((await kit.member.client.get(`/api/admin/manage/groups/${slug}`)).status).toBe(403);
    expect((await kit.admin.client.get('/api/admin/manage/groups/no-such-group')).status).toBe(404);

    const csv = await kit.admin.client.get(`/api/admin/groups/${encodeURIComponent('Editors Desk')}/csv`);
    expect(csv.status).toBe(200);
    const rows = parseCsv(csv.text);
    expect(rows[0]!.join(',')).toBe('uid,username,email,joindate,postcount,reputation');
    expect(rows.find((r) => r[0] === String(kit.member.user.uid))!.slice(1, 3)).toEqual([kit.member.user.username, kit.member.user.email]);
    expect((await kit.member.client.get(`/api/admin/groups/${encodeURIComponent('Editors Desk')}/csv`)).status).toBe(403);

    expect((await kit.admin.client.del(`/api/v3/groups/${slug}/membership/${kit.member.user.uid}`)).status).toBe(200);
    expect(await kit.forum.ctx.groups.members('Editors Desk')).not.toContain(kit.member.user.uid);
    expect((await kit.admin.client.del('/api/v3/groups/administrators')).status).toBe(400);
    expect((await kit.admin.client.del(`/api/v3/groups/${slug}`)).status).toBe(200);
    expect(await kit.forum.ctx.groups.exists('Editors Desk')).toBe(false);
  });

  it('exports a negative reputation as a number and a username that reads as a formula defused', async () => {
    const made = await kit.admin.client.post('/api/v3/groups', { name: 'Low Scorers' });
    expect(made.status).toBe(200);
    const odd = await kit.forum.createUser();
    // Reputation goes below zero with downvotes; imported usernames may start with anything.
    await kit.forum.ctx.db.updateTable('users').set({ username: '+1-800 spam', reputation: -3 }).where('uid', '=', odd.uid).execute();
    expect((await kit.admin.client.put(`/api/v3/groups/${made.body.response.slug}/membership/${odd.uid}`)).status).toBe(200);
    const rows = parseCsv((await kit.admin.client.get(`/api/admin/groups/${encodeURIComponent('Low Scorers')}/csv`)).text);
    expect(rows.find((r) => r[0] === String(odd.uid))).toEqual([String(odd.uid), "'+1-800 spam", odd.email, expect.any(String), '0', '-3']);
  });
});
