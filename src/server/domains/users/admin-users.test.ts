import { describe, expect, it } from 'vitest';
import type { HttpClient } from '../../test/http-client.js';
import { GLOBAL_MODS } from '../groups/service.js';
import type { AdminUsersPage, AdminCustomFieldsPage } from '../../../shared/schemas/admin-people.js';
import { parseCsv } from '../../test/csv.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum();

const page = async (client: HttpClient, query = '') => client.get<AdminUsersPage>(`/api/admin/manage/users${query}`);

describe('admin/manage/users', () => {
  it('lists, searches, filters, sorts and pages members for an admin; 403 member, 401 guest', async () => {
    const a = await kit.forum.createUser({ username: 'zebra-alpha', email: 'zebra-alpha@example.com' });
    const b = await kit.forum.createUser({ username: 'zebra-beta', email: 'beta@other.example' });
    await kit.forum.ctx.db.updateTable('users').set({ email_confirmed: 1, postcount: 9 }).where('uid', '=', b.uid).execute();

    const all = await page(kit.admin.client);
    expect(all.status).toBe(200);
    expect(all.body.template.name).toBe('admin/manage/users');
    expect(all.body.userCount).toBeGreaterThanOrEqual(3);
    expect(all.body.banReasons).toContain('Spam');

    const byName = await page(kit.admin.client, '?query=zebra&searchBy=username&sortBy=postcount');
    expect(byName.body.users.map((u) => u.username)).toEqual(['zebra-beta', 'zebra-alpha']);
    expect(byName.body.users[0]!.email).toBe('beta@other.example');
    const byEmail = await page(kit.admin.client, '?query=other.example&searchBy=email');
    expect(byEmail.body.users.map((u) => u.uid)).toEqual([b.uid]);
    const byUid = await page(kit.admin.client, `?query=${a.uid}&searchBy=uid`);
    expect(byUid.body.users.map((u) => u.uid)).toEqual([a.uid]);
    // By address: the members the moderation domain saw there.
    const now = Date.now();
    await kit.forum.ctx.db
      .insertInto('ip_history')
      .values([a, b].map((u) => ({ uid: u.uid, ip: '198.51.100.7', day: Math.floor(now / 86_400_000), first_seen: now, last_seen: now })))
      .execute();
    const byIp = await page(kit.admin.client, '?query=198.51.100.7&searchBy=ip&sortBy=username');
    expect(byIp.body.users.map((u) => u.uid)).toEqual([a.uid, b.uid]);
    expect((await page(kit.admin.client, '?query=198.51.100.8&searchBy=ip')).body.users).toEqual([]);
    const unverified = await page(kit.admin.client, '?query=zebra&filters=unverified');
    expect(unverified.body.users.map((u) => u.uid)).toEqual([a.uid]);
    const verified = await page(kit.admin.client, '?query=zebra&filters=verified');
    expect(verified.body.users.map((u) => u.uid)).toEqual([b.uid]);
    const reversed = await page(kit.admin.client, '?query=zebra&sortBy=username&reverse=true');
    expect(reversed.body.users.map((u) => u.username)).toEqual(['zebra-beta', 'zebra-alpha']);
    const paged = await page(kit.admin.client, '?query=zebra&sortBy=username&resultsPerPage=20&page=1');
    expect(paged.body.resultsPerPage).toBe(20);
    expect((await page(kit.admin.client, '?query=zebra&page=9')).status).toBe(404);

    const { client: member } = await kit.forum.loginAs();
    expect((await page(member)).status).toBe(403);
    expect((await page(kit.forum.client())).status).toBe(401);
  });

  it('lets a global moderator see the list and ban, but not verify or delete', async () => {
    const mod = await kit.forum.createUser();
    await kit.forum.ctx.groups.join(GLOBAL_MODS, mod.uid);
    const { client } = await kit.forum.loginAs(mod);
    const res = await page(client);
    expect(res.status).toBe(200);
    expect(res.body.canBan).toBe(true);
    expect(res.body.isAdmin).toBe(false);
    expect(res.body.groups).toEqual([]);
    const target = await kit.forum.createUser();
    expect((await client.put(`/api/v3/users/${target.uid}/ban`, { reason: 'Spam' })).status).toBe(200);
    expect((await client.del(`/api/v3/users/${target.uid}/ban`)).status).toBe(200);
    expect((await client.post(`/api/v3/users/${target.uid}/emails/${encodeURIComponent(target.email!)}/confirm`, {})).status).toBe(403);
    expect((await client.post(`/api/v3/users/${target.uid}/password/reset`, {})).status).toBe(403);
    expect((await client.del(`/api/v3/users/${target.uid}/account`)).status).toBe(403);
  });

  it('bulk actions: ban with a reason, unban, verify, add to a group, reset password, delete', async () => {
    const users = await Promise.all([kit.forum.createUser(), kit.forum.createUser(), kit.forum.createUser()]);
    for (const u of users)
      expect((await kit.admin.client.put(`/api/v3/users/${u.uid}/ban`, { reason: 'Harassment', until: Date.now() + 86_400_000 })).status).toBe(200);
    const banned = await page(kit.admin.client, '?filters=banned&resultsPerPage=250');
    for (const u of users) expect(banned.body.users.find((x) => x.uid === u.uid)?.banReason).toBe('Harassment');
    for (const u of users) expect((await kit.admin.client.del(`/api/v3/users/${u.uid}/ban`)).status).toBe(200);
    expect((await page(kit.admin.client, '?filters=banned&resultsPerPage=250')).body.users.filter((x) => users.some((u) => u.uid === x.uid))).toEqual([]);

    for (const u of users) expect((await kit.admin.client.post(`/api/v3/users/${u.uid}/emails/${encodeURIComponent(u.email!)}/confirm`, {})).status).toBe(200);
    const rows = await kit.forum.ctx.users.getMany(users.map((u) => u.uid));
    for (const u of users) expect(rows.get(u.uid)!.email_confirmed).toBe(1);
    // Another address than the member's is refused with its key.
    const wrong = await kit.admin.client.post(`/api/v3/users/${users[0]!.uid}/emails/${encodeURIComponent('x@example.com')}/confirm`, {});
    expect(wrong.status).toBe(400);
    expect(wrong.body.status.key).toBe('error:invalid-email');

    const group = (await kit.admin.client.post('/api/v3/groups', { name: 'Bulk Crew' })).body.response as { slug: string; name: string };
    for (const u of users) expect((await kit.admin.client.put(`/api/v3/groups/${group.slug}/membership/${u.uid}`, {})).status).toBe(200);
    expect((await kit.forum.ctx.groups.members(group.name)).sort()).toEqual(expect.arrayContaining(users.map((u) => u.uid)));
    expect((await kit.admin.client.del(`/api/v3/groups/${group.slug}/membership/${users[0]!.uid}`, {})).status).toBe(200);
    expect(await kit.forum.ctx.groups.members(group.name)).not.toContain(users[0]!.uid);

    // Force a password reset: the member is logged out and a reset mail waits in the outbox.
    const { client: victim, user: v } = await kit.forum.loginAs();
    const editPage = `/api/user/${v.userslug}/edit`;
    expect((await victim.get(editPage)).status).toBe(200);
    expect((await kit.admin.client.post(`/api/v3/users/${v.uid}/password/reset`, {})).status).toBe(200);
    expect((await victim.get(editPage)).status).toBe(401);
    await kit.forum.ctx.hooks.idle();
    const mails = await kit.forum.ctx.db.selectFrom('mail_outbox').selectAll().execute();
    expect(mails.some((m) => JSON.stringify(m).includes(v.email!))).toBe(true);

    for (const u of users.slice(0, 2)) expect((await kit.admin.client.del(`/api/v3/users/${u.uid}/account`)).status).toBe(200);
    expect((await kit.admin.client.del(`/api/v3/users/${users[2]!.uid}`)).status).toBe(200);
    for (const u of users) expect(await kit.forum.ctx.users.get(u.uid)).toBeNull();
  });

  it('exports every member as CSV with a header line and escaped fields', async () => {
    const odd = await kit.forum.createUser({ email: 'odd@example.com' });
    // Usernames that old imports brought in may hold anything: the CSV must survive them.
    await kit.forum.ctx.db.updateTable('users').set({ username: 'Comma, "Quoted"' }).where('uid', '=', odd.uid).execute();
    const res = await kit.admin.client.get('/api/admin/users/csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const rows = parseCsv(res.text);
    expect(rows[0]!.join(',')).toBe('uid,username,userslug,email,email:confirmed,joindate,lastonline,postcount,reputation,banned');
    const row = rows.find((r) => r[0] === String(odd.uid))!;
    expect(row[1]).toBe('Comma, "Quoted"');
    expect(row[3]).toBe('odd@example.com');
    const { client: member } = await kit.forum.loginAs();
    expect((await member.get('/api/admin/users/csv')).status).toBe(403);
    expect((await kit.forum.client().get('/api/admin/users/csv')).status).toBe(401);
  });

  it('writes a negative reputation as a number and defuses a username that reads as a formula', async () => {
    const odd = await kit.forum.createUser();
    // Reputation goes below zero with downvotes; imported usernames may start with anything.
    await kit.forum.ctx.db.updateTable('users').set({ username: '=cmd()', reputation: -3 }).where('uid', '=', odd.uid).execute();
    const rows = parseCsv((await kit.admin.client.get('/api/admin/users/csv')).text);
    const row = rows.find((r) => r[0] === String(odd.uid))!;
    expect(row[1]).toBe("'=cmd()");
    expect(row[8]).toBe('-3');
  });
});

describe('admin/manage/users/custom-fields', () => {
  it('saves, reorders and deletes fields; bad input is a 400 with its key; admins only', async () => {
    const fields = [
      { key: 'team', name: 'Team', type: 'select', options: ['Red', 'Blue'], visibility: 'all' },
      { key: 'site', name: 'Site', type: 'url', options: [], visibility: 'loggedin' },
    ];
    const put = await kit.admin.client.put('/api/v3/admin/users/custom-fields', { fields });
    expect(put.status).toBe(200);
    let view = await kit.admin.client.get<AdminCustomFieldsPage>('/api/admin/manage/users/custom-fields');
    expect(view.status).toBe(200);
    expect(view.body.fields.map((f) => f.key)).toEqual(['team', 'site']);
    expect(view.body.fields[0]!.options).toEqual(['Red', 'Blue']);
    // The profile edit page offers the field.
    expect(JSON.parse((await kit.forum.ctx.settings.get()).customUserFields)).toHaveLength(2);

    await kit.admin.client.put('/api/v3/admin/users/custom-fields', { fields: [fields[1], fields[0]] });
    view = await kit.admin.client.get<AdminCustomFieldsPage>('/api/admin/manage/users/custom-fields');
    expect(view.body.fields.map((f) => f.key)).toEqual(['site', 'team']);
    await kit.admin.client.put('/api/v3/admin/users/custom-fields', { fields: [fields[0]] });
    view = await kit.admin.client.get<AdminCustomFieldsPage>('/api/admin/manage/users/custom-fields');
    expect(view.body.fields.map((f) => f.key)).toEqual(['team']);

    const bad = await kit.admin.client.put('/api/v3/admin/users/custom-fields', { fields: [{ ...fields[0], key: 'has space' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:custom-field-invalid-key');
    const dup = await kit.admin.client.put('/api/v3/admin/users/custom-fields', { fields: [fields[0], fields[0]] });
    expect(dup.body.status.key).toBe('error:custom-field-duplicate-key');
    const noOptions = await kit.admin.client.put('/api/v3/admin/users/custom-fields', { fields: [{ ...fields[0], options: [] }] });
    expect(noOptions.body.status.key).toBe('error:custom-field-options-required');
    // Nothing was lost by the refusals.
    expect((await kit.admin.client.get<AdminCustomFieldsPage>('/api/admin/manage/users/custom-fields')).body.fields.map((f) => f.key)).toEqual(['team']);

    const { client: member } = await kit.forum.loginAs();
    expect((await member.get('/api/admin/manage/users/custom-fields')).status).toBe(403);
    expect((await member.put('/api/v3/admin/users/custom-fields', { fields: [] })).status).toBe(403);
    expect((await kit.forum.client().get('/api/admin/manage/users/custom-fields')).status).toBe(401);
  });
});

describe('admin/manage/users/custom-reasons', () => {
  it('lists the preset ban reasons; the users page offers the saved ones; admins only', async () => {
    const res = await kit.admin.client.get<{ reasons: { key: string; title: string }[] }>('/api/admin/manage/users/custom-reasons');
    expect(res.status).toBe(200);
    expect(res.body.reasons.map((r) => r.title)).toContain('Spam');
    expect((await kit.admin.client.put('/api/v3/admin/settings/banReasons', { value: 'Flooding\nImpersonation' })).status).toBe(200);
    const after = await kit.admin.client.get<{ reasons: { key: string; title: string }[] }>('/api/admin/manage/users/custom-reasons');
    expect(after.body.reasons.map((r) => [r.key, r.title])).toEqual([
      ['1', 'Flooding'],
      ['2', 'Impersonation'],
    ]);
    expect((await page(kit.admin.client)).body.banReasons).toEqual(['Flooding', 'Impersonation']);
    const { client: member } = await kit.forum.loginAs();
    expect((await member.get('/api/admin/manage/users/custom-reasons')).status).toBe(403);
    expect((await kit.forum.client().get('/api/admin/manage/users/custom-reasons')).status).toBe(401);
  });
});
