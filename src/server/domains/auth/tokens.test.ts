import { describe, expect, it } from 'vitest';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum({ category: 'Tokens' });

const newTopic = (n: number) => ({ cid: kit.cid, title: `Posted through a token ${n}`, content: 'Content long enough to post.' });

async function tokenCount(uid: number): Promise<number> {
  const row = await kit.forum.ctx.db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('uid', '=', uid)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

describe('API tokens of banned and deleted members', () => {
  it("a ban through the API revokes the member's tokens, and their token can no longer post", async () => {
    const user = await kit.forum.createUser();
    const api = kit.forum.client();
    api.bearer = await kit.forum.ctx.auth.createToken(user.uid, 'bot');
    expect((await api.post('/api/v3/topics', newTopic(1))).status).toBe(200);

    const { client: admin } = await kit.forum.loginAs({ admin: true });
    expect((await admin.put(`/api/v3/users/${user.uid}/ban`, { reason: 'spam' })).status).toBe(200);
    expect(await tokenCount(user.uid)).toBe(0);
    const after = await api.post('/api/v3/topics', newTopic(2));
    expect(after.status).toBe(401);
    expect(after.body.status.key).toBe('error:invalid-token');
  });

  it('refuses the token of a member whose ban was set without revoking (403 with the ban key)', async () => {
    const user = await kit.forum.createUser();
    const api = kit.forum.client();
    api.bearer = await kit.forum.ctx.auth.createToken(user.uid);
    await kit.forum.ctx.db.updateTable('users').set({ banned: 1, banned_until: 0, ban_reason: '' }).where('uid', '=', user.uid).execute();
    const res = await api.post('/api/v3/topics', newTopic(3));
    expect(res.status).toBe(403);
    expect(res.body.status.key).toBe('error:user-banned');
    // A ban that has run out no longer stands in the way.
    await kit.forum.ctx.db
      .updateTable('users')
      .set({ banned_until: Date.now() - 1000 })
      .where('uid', '=', user.uid)
      .execute();
    expect((await api.post('/api/v3/topics', newTopic(4))).status).toBe(200);
  });

  it('refuses a master token acting as a banned member', async () => {
    const user = await kit.forum.createUser();
    const master = kit.forum.client();
    master.bearer = await kit.forum.ctx.auth.createToken(0, 'master');
    expect((await master.post('/api/v3/topics', { ...newTopic(5), _uid: user.uid })).status).toBe(200);
    await kit.forum.ctx.users.ban({ uid: 0, groups: ['administrators'], isAdmin: true, isGlobalMod: true }, user.uid, Date.now() + 3600_000, 'cooling off');
    const res = await master.post('/api/v3/topics', { ...newTopic(6), _uid: user.uid });
    expect(res.status).toBe(403);
    expect(res.body.status.key).toBe('error:user-banned-reason-until');
    // The master token itself keeps working for other members.
    const other = await kit.forum.createUser();
    expect((await master.post('/api/v3/topics', { ...newTopic(7), _uid: other.uid })).status).toBe(200);
  });

  it("a deleted member's token answers 401 and cannot mint a new token", async () => {
    const user = await kit.forum.createUser();
    const api = kit.forum.client();
    api.bearer = await kit.forum.ctx.auth.createToken(user.uid);
    // Marked deleted (the row stays): the token is void.
    await kit.forum.ctx.db.updateTable('users').set({ deleted: 1 }).where('uid', '=', user.uid).execute();
    expect((await api.post('/api/v3/ping')).status).toBe(401);
    const mint = await api.post(`/api/v3/users/${user.uid}/tokens`);
    expect(mint.status).toBe(401);
    expect(await tokenCount(user.uid)).toBe(1);
  });

  it('deleting an account through the API removes its tokens; the old token is refused', async () => {
    const user = await kit.forum.createUser();
    const api = kit.forum.client();
    api.bearer = await kit.forum.ctx.auth.createToken(user.uid);
    expect((await api.del(`/api/v3/users/${user.uid}`)).status).toBe(200);
    expect(await tokenCount(user.uid)).toBe(0);
    const res = await api.post('/api/v3/ping');
    expect(res.status).toBe(401);
    expect(res.body.status.key).toBe('error:invalid-token');
  });

  it('a master token naming a deleted member is refused', async () => {
    const user = await kit.forum.createUser();
    await kit.forum.ctx.users.delete({ uid: 0, groups: ['administrators'], isAdmin: true, isGlobalMod: true }, user.uid);
    const master = kit.forum.client();
    master.bearer = await kit.forum.ctx.auth.createToken(0, 'master');
    const res = await master.post('/api/v3/ping', { _uid: user.uid });
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe('error:no-user');
  });

  it('api_tokens.uid is a foreign key to users with ON DELETE CASCADE', async () => {
    const user = await kit.forum.createUser();
    await kit.forum.ctx.auth.createToken(user.uid);
    // A token for nobody is refused by the database itself.
    await expect(
      kit.forum.ctx.db
        .insertInto('api_tokens')
        .values({ token_hash: `orphan-${Date.now()}`, uid: 99_999_999, description: '', created: Date.now(), last_seen: 0 })
        .execute(),
    ).rejects.toThrow();
    // Removing the member row alone (no service) takes the tokens with it.
    await kit.forum.ctx.db.deleteFrom('users').where('uid', '=', user.uid).execute();
    expect(await tokenCount(user.uid)).toBe(0);
  });
});
