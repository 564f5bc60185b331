import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlagsListPage } from '../../../shared/schemas/flag.js';
import { SYSTEM } from '../../setup.js';
import type { HttpClient } from '../../test/http-client.js';
import { startTestForum, type TestForum, type TestMember } from '../../test/harness.js';
import { GLOBAL_MODS } from '../groups/service.js';

/**
 * Who may do what with a flag of a post in category A: every flag action for every kind of
 * viewer (guest, member, the post's author, a moderator of A, a moderator of B only, a global
 * moderator, an administrator). A flag outside a moderator's categories answers as missing.
 */
type Actor = 'guest' | 'member' | 'author' | 'modIn' | 'modOut' | 'globalMod' | 'admin';
type Action = 'list' | 'read' | 'page' | 'update' | 'note' | 'delete';

const ALLOWED = { list: 200, read: 200, page: 200, update: 200, note: 200, delete: 200 };
const MATRIX: Record<Actor, Record<Action, number>> = {
  guest: { list: 401, read: 401, page: 401, update: 401, note: 401, delete: 401 },
  member: { list: 403, read: 403, page: 403, update: 403, note: 403, delete: 403 },
  author: { list: 403, read: 403, page: 403, update: 403, note: 403, delete: 403 },
  modIn: { ...ALLOWED, delete: 403 },
  modOut: { list: 200, read: 404, page: 404, update: 404, note: 404, delete: 404 },
  globalMod: ALLOWED,
  admin: ALLOWED,
};

let forum: TestForum;
let cid: number;
let author: TestMember;
const clients = {} as Record<Actor, HttpClient>;

async function freshFlag(): Promise<number> {
  const { topic } = await forum.ctx.topics.create(author.viewer, { cid, title: `A topic for the matrix ${Math.random().toString(36).slice(2, 8)}`, content: 'First post of the topic.' });
  const { post } = await forum.ctx.posts.reply(author.viewer, topic.tid, { content: 'A reply that gets reported.' });
  const { flagId } = await forum.ctx.flags.report((await forum.member()).viewer, { type: 'post', id: post.pid, reason: 'Spam' }, '');
  return flagId;
}

async function act(client: HttpClient, action: Action, flagId: number): Promise<{ status: number; body: any }> {
  switch (action) {
    case 'list':
      return client.get('/api/flags');
    case 'read':
      return client.get(`/api/v3/flags/${flagId}`);
    case 'page':
      return client.get(`/api/flags/${flagId}`);
    case 'update':
      return client.put(`/api/v3/flags/${flagId}`, { state: 'wip' });
    case 'note':
      return client.post(`/api/v3/flags/${flagId}/notes`, { note: 'A note.' });
    case 'delete':
      return client.del(`/api/v3/flags/${flagId}`);
  }
}

beforeAll(async () => {
  forum = await startTestForum();
  cid = (await forum.ctx.categories.create(SYSTEM, { name: 'A' })).cid;
  const otherCid = (await forum.ctx.categories.create(SYSTEM, { name: 'B' })).cid;
  author = await forum.member();
  const modIn = await forum.member();
  await forum.ctx.privileges.give(cid, ['moderate'], `uid:${modIn.user.uid}`);
  const modOut = await forum.member();
  await forum.ctx.privileges.give(otherCid, ['moderate'], `uid:${modOut.user.uid}`);
  const gmUser = await forum.createUser();
  await forum.ctx.groups.join(GLOBAL_MODS, gmUser.uid);
  Object.assign(clients, {
    guest: forum.client(),
    member: (await forum.member()).client,
    author: author.client,
    modIn: modIn.client,
    modOut: modOut.client,
    globalMod: (await forum.member(gmUser)).client,
    admin: (await forum.member({ admin: true })).client,
  });
});
afterAll(async () => {
  await forum?.close();
});

describe('flag privileges', () => {
  for (const actor of Object.keys(MATRIX) as Actor[]) {
    for (const action of Object.keys(MATRIX[actor]) as Action[]) {
      const expected = MATRIX[actor][action];
      it(`${actor} ${action} → ${expected}`, async () => {
        const flagId = await freshFlag();
        const res = await act(clients[actor], action, flagId);
        expect(res.status).toBe(expected);
        if (expected === 403) expect(res.body?.status?.key ?? res.body?.error).toBeTruthy();
        // A refused write changed nothing; an allowed one did.
        const row = (await forum.ctx.flags.details(flagId)).history.length;
        if (action === 'update' || action === 'note') expect(row).toBe(expected === 200 ? 2 : 1);
        if (action === 'delete') expect(await forum.ctx.flags.get(flagId).then(() => true, () => false)).toBe(expected !== 200);
        // The list of a moderator outside the category leaves the flag out.
        if (action === 'list' && expected === 200) {
          const ids = (res.body as FlagsListPage).flags.map((f) => f.flagId);
          expect(ids.includes(flagId)).toBe(actor !== 'modOut');
        }
      });
    }
  }

  it('only the reporter rescinds their report', async () => {
    const flagId = await freshFlag();
    for (const actor of ['member', 'admin', 'author'] as Actor[]) {
      expect((await clients[actor].del(`/api/v3/flags/${flagId}/report`)).status, actor).toBe(404);
    }
    expect((await clients.guest.del(`/api/v3/flags/${flagId}/report`)).status).toBe(401);
  });
});
