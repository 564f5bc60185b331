import { describe, expect, it } from 'vitest';
import { makeCategory, postTopic } from '../topics/testing.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum({ members: ['member'] });

const newTopic = (cid: number, tags: unknown[]) =>
  kit.member.client.post('/api/v3/topics', { cid, title: 'A topic title here', content: 'Some content that is long enough.', tags });

describe('tags the server refuses', () => {
  it('a tag that cleans to nothing is 400 error:invalid-tag, and nothing is stored', async () => {
    const cid = await makeCategory(kit.forum.ctx, 'Nothing tags');
    const res = await newTopic(cid, ['!!!']);
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe('error:invalid-tag');
    const count = await kit.forum.ctx.db
      .selectFrom('topics')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('cid', '=', cid)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('too many tags for the forum is 400 error:too-many-tags with the limit', async () => {
    const cid = await makeCategory(kit.forum.ctx, 'Many tags');
    const s = await kit.forum.ctx.settings.get();
    const tags = Array.from({ length: s.maximumTagsPerTopic + 1 }, (_, i) => `tag${i}x`);
    const res = await newTopic(cid, tags);
    expect(res.status).toBe(400);
    expect(res.body.status).toMatchObject({ key: 'error:too-many-tags', params: [s.maximumTagsPerTopic] });
  });
});

describe('per-category tag rules (tagWhitelist, minTags, maxTags)', () => {
  it('an admin sets them through PUT /api/v3/categories/:cid and the category shows them', async () => {
    const cid = await makeCategory(kit.forum.ctx, 'Ruled');
    const res = await kit.admin.client.put(`/api/v3/categories/${cid}`, { tagWhitelist: ['Alpha', 'beta', 'alpha', ' '], minTags: 1, maxTags: 2 });
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ tagWhitelist: ['alpha', 'beta'], minTags: 1, maxTags: 2 });
    const read = await kit.member.client.get(`/api/v3/categories/${cid}`);
    expect(read.body.response).toMatchObject({ minTags: 1, maxTags: 2 });
    const bad = await kit.admin.client.put(`/api/v3/categories/${cid}`, { minTags: 3, maxTags: 2 });
    expect(bad.status).toBe(400);
    expect((await kit.member.client.put(`/api/v3/categories/${cid}`, { minTags: 0 })).status).toBe(403);
  });

  it('refuses a tag outside the whitelist, too few and too many; accepts what fits', async () => {
    const cid = await makeCategory(kit.forum.ctx, 'Whitelisted');
    await kit.admin.client.put(`/api/v3/categories/${cid}`, { tagWhitelist: ['alpha', 'beta', 'gamma'], minTags: 1, maxTags: 2 });
    const outside = await newTopic(cid, ['alpha', 'delta']);
    expect(outside.status).toBe(400);
    expect(outside.body.status).toMatchObject({ key: 'error:tag-not-allowed', params: ['delta'] });
    const none = await newTopic(cid, []);
    expect(none.body.status).toMatchObject({ key: 'error:not-enough-tags', params: [1] });
    const many = await newTopic(cid, ['alpha', 'beta', 'gamma']);
    expect(many.body.status).toMatchObject({ key: 'error:too-many-tags', params: [2] });
    const t = await postTopic(kit.member.client, cid, { tags: ['Alpha'] });
    // Retagging and editing the main post follow the same rules.
    const retag = await kit.member.client.put(`/api/v3/topics/${t.tid}/tags`, { tags: ['delta'] });
    expect(retag.body.status.key).toBe('error:tag-not-allowed');
    const edit = await kit.member.client.put(`/api/v3/posts/${t.mainPid}`, { content: 'Edited content long enough.', tags: ['alpha', 'beta', 'gamma'] });
    expect(edit.body.status.key).toBe('error:too-many-tags');
    expect(await kit.forum.ctx.tags.namesOf(t.tid)).toEqual(['alpha']);
  });

  it('the tag autocomplete suggests used tags by prefix, or the whitelist in a ruled category', async () => {
    const open = await makeCategory(kit.forum.ctx, 'Open');
    await postTopic(kit.member.client, open, { tags: ['react', 'redux'] });
    await postTopic(kit.member.client, open, { tags: ['react'] });
    expect(await kit.forum.ctx.tags.autocomplete('Re', open)).toEqual(['react', 'redux']);
    expect(await kit.forum.ctx.tags.autocomplete('%', open)).toEqual([]);
    const ruled = await makeCategory(kit.forum.ctx, 'Ruled suggestions');
    await kit.admin.client.put(`/api/v3/categories/${ruled}`, { tagWhitelist: ['rust', 'ruby', 'go'] });
    expect(await kit.forum.ctx.tags.autocomplete('ru', ruled)).toEqual(['rust', 'ruby']);
  });
});
