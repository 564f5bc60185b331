import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminTagsPage } from '../../../shared/schemas/admin-people.js';
import { GLOBAL_MODS } from '../groups/service.js';
import { makeCategory, postTopic } from '../topics/testing.js';
import { useForum } from '../../test/forum-kit.js';

let cid: number;

const kit = useForum();
beforeAll(async () => {
  cid = await makeCategory(kit.forum.ctx);
});

const count = async (tag: string) => (await kit.forum.ctx.tags.get(tag))?.score ?? null;
const tagsOf = async (tid: number) => kit.forum.ctx.tags.namesOf(tid);

describe('admin/manage/tags', () => {
  it('lists tags with counts and a search; 403 member, 401 guest', async () => {
    await postTopic(kit.admin.client, cid, { tags: ['listed-one', 'listed-two'] });
    expect((await kit.admin.client.post('/api/v3/admin/tags', { tag: 'unused-tag' })).status).toBe(200);
    const res = await kit.admin.client.get<AdminTagsPage>('/api/admin/manage/tags?query=listed');
    expect(res.status).toBe(200);
    expect(res.body.tags.map((t) => [t.value, t.score])).toEqual([
      ['listed-one', 1],
      ['listed-two', 1],
    ]);
    const all = await kit.admin.client.get<AdminTagsPage>('/api/admin/manage/tags');
    expect(all.body.tags.find((t) => t.value === 'unused-tag')?.score).toBe(0);
    const again = await kit.admin.client.post('/api/v3/admin/tags', { tag: 'unused-tag' });
    expect(again.status).toBe(400);
    expect(again.body.status.key).toBe('error:tag-exists');
    const { client: member } = await kit.forum.loginAs();
    expect((await member.get('/api/admin/manage/tags')).status).toBe(403);
    expect((await member.post('/api/v3/admin/tags/merge', { tags: ['listed-one'], into: 'x-tag' })).status).toBe(403);
    expect((await kit.forum.client().get('/api/admin/manage/tags')).status).toBe(401);
    // Global moderators manage tags too (the admin navigation offers them the page).
    const mod = await kit.forum.createUser();
    await kit.forum.ctx.groups.join(GLOBAL_MODS, mod.uid);
    const { client: modClient } = await kit.forum.loginAs(mod);
    expect((await modClient.get('/api/admin/manage/tags')).status).toBe(200);
    expect((await modClient.post('/api/v3/admin/tags', { tag: 'mod-made' })).status).toBe(200);
  });

  it('renames a tag: topics keep it under the new name, counts move, the search follows', async () => {
    const t1 = await postTopic(kit.admin.client, cid, { tags: ['oldname', 'keepme'] });
    const t2 = await postTopic(kit.admin.client, cid, { tags: ['oldname'] });
    const res = await kit.admin.client.put('/api/v3/admin/tags/oldname', { name: 'newname' });
    expect(res.status).toBe(200);
    expect(res.body.response.score).toBe(2);
    expect(await count('oldname')).toBeNull();
    expect(await count('newname')).toBe(2);
    expect(await tagsOf(t1.tid)).toEqual(['keepme', 'newname']);
    expect(await tagsOf(t2.tid)).toEqual(['newname']);
    const tagPage = await kit.admin.client.get<{ topics: { tid: number }[] }>('/api/tags/newname');
    expect(tagPage.body.topics.map((t) => t.tid).sort()).toEqual([t1.tid, t2.tid].sort());
    const missing = await kit.admin.client.put('/api/v3/admin/tags/not-there', { name: 'whatever' });
    expect(missing.status).toBe(404);
    const bad = await kit.admin.client.put('/api/v3/admin/tags/newname', { name: '!!!' });
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:invalid-tag');
  });

  it('merges several tags into one: a topic with two of them carries the target once, deleted topics are not counted', async () => {
    const both = await postTopic(kit.admin.client, cid, { tags: ['merge-a', 'merge-b'] });
    const onlyA = await postTopic(kit.admin.client, cid, { tags: ['merge-a'] });
    const onlyTarget = await postTopic(kit.admin.client, cid, { tags: ['merge-into'] });
    const gone = await postTopic(kit.admin.client, cid, { tags: ['merge-b'] });
    expect((await kit.admin.client.del(`/api/v3/topics/${gone.tid}/state`)).status).toBe(200);
    const { user: follower } = await kit.forum.loginAs();
    await kit.forum.ctx.tags.follow(follower.uid, 'merge-b', true);
    const res = await kit.admin.client.post('/api/v3/admin/tags/merge', { tags: ['merge-a', 'merge-b'], into: 'merge-into' });
    expect(res.status).toBe(200);
    expect(await count('merge-into')).toBe(3);
    expect(await count('merge-a')).toBeNull();
    expect(await count('merge-b')).toBeNull();
    expect(await tagsOf(both.tid)).toEqual(['merge-into']);
    expect(await tagsOf(onlyA.tid)).toEqual(['merge-into']);
    expect(await tagsOf(onlyTarget.tid)).toEqual(['merge-into']);
    expect(await tagsOf(gone.tid)).toEqual(['merge-into']);
    expect(await kit.forum.ctx.tags.isFollowing(follower.uid, 'merge-into')).toBe(true);
    // Restoring the deleted topic counts it under the merged tag.
    expect((await kit.admin.client.put(`/api/v3/topics/${gone.tid}/state`, {})).status).toBe(200);
    expect(await count('merge-into')).toBe(4);
    const nothing = await kit.admin.client.post('/api/v3/admin/tags/merge', { tags: ['merge-into'], into: 'merge-into' });
    expect(nothing.body.status.key).toBe('error:tag-merge-nothing');
  });

  it('deletes tags: topics no longer carry them', async () => {
    const t = await postTopic(kit.admin.client, cid, { tags: ['doomed', 'survivor'] });
    expect((await kit.admin.client.del('/api/v3/admin/tags', { tags: ['doomed'] })).status).toBe(200);
    expect(await count('doomed')).toBeNull();
    expect(await count('survivor')).toBe(1);
    expect(await tagsOf(t.tid)).toEqual(['survivor']);
    expect((await kit.admin.client.del('/api/v3/admin/tags', { tags: ['doomed'] })).status).toBe(404);
  });
});
