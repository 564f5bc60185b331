import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/constants.js';
import { postTopic } from '../topics/testing.js';
import { useForum } from '../../test/forum-kit.js';

const kit = useForum({ category: 'Tags' });

describe('tag rules', () => {
  const s = { ...DEFAULT_SETTINGS };
  it('cleans tags: lowercase, punctuation and RTL override removed, dots and hyphens trimmed, duplicates dropped', () => {
    expect(kit.forum.ctx.tags.validate(['Hello', 'he\u202Ello', '..node.js--', 'c#sharp', '  ', 'HELLO'], s)).toEqual(['hello', 'node.js', 'csharp']);
  });

  it('refuses with the spec keys and their limits', () => {
    const err = (tags: unknown[], over = {}) => {
      try {
        kit.forum.ctx.tags.validate(tags, { ...s, ...over });
        return null;
      } catch (e) {
        return { key: (e as { key: string }).key, params: (e as { params: unknown[] }).params };
      }
    };
    expect(err(['ab'])).toEqual({ key: 'error:tag-too-short', params: [3] });
    expect(err(['a'.repeat(16)])).toEqual({ key: 'error:tag-too-long', params: [15] });
    expect(err(['one', 'two', 'three'], { maximumTagsPerTopic: 2 })).toEqual({ key: 'error:too-many-tags', params: [2] });
    expect(err([], { minimumTagsPerTopic: 1 })).toEqual({ key: 'error:not-enough-tags', params: [1] });
    expect(err([42])).toEqual({ key: 'error:invalid-data', params: [] });
  });
});

describe('tag pages', () => {
  it("lists a tag's topics and 404s past the last page", async () => {
    const { client } = await kit.forum.loginAs();
    const t = await postTopic(client, kit.cid, { tags: ['paged'] });
    const res = await kit.forum.client().get('/api/tags/paged');
    expect(res.body.tag).toBe('paged');
    expect(res.body.topics[0].tid).toBe(t.tid);
    expect((await kit.forum.client().get('/api/tags/paged?page=2')).status).toBe(404);
    expect((await kit.forum.client().get('/api/tags/unknown-tag')).body.topics).toEqual([]);
  });

  it('shows a member the most used tags as they change, though the list is kept between requests', async () => {
    const { client: admin } = await kit.forum.loginAs({ admin: true });
    const { client } = await kit.forum.loginAs();
    type Tags = { tags: { value: string; score: number }[] };
    const scoreOf = async (tag: string) => (await client.get<Tags>('/api/tags')).body.tags.find((t) => t.value === tag)?.score;
    // Read first, so the list is kept before each change.
    expect(await scoreOf('kept-list')).toBeUndefined();
    const first = await postTopic(client, kit.cid, { tags: ['kept-list'] });
    expect(await scoreOf('kept-list')).toBe(1);
    await postTopic(client, kit.cid, { tags: ['kept-list'] });
    expect(await scoreOf('kept-list')).toBe(2);
    expect((await admin.del(`/api/v3/topics/${first.tid}/state`)).status).toBe(200);
    expect(await scoreOf('kept-list')).toBe(1);
    expect((await admin.put('/api/v3/admin/tags/kept-list', { name: 'kept-renamed' })).status).toBe(200);
    expect(await scoreOf('kept-list')).toBeUndefined();
    expect(await scoreOf('kept-renamed')).toBe(1);
    // Reads of the kept list answer alike.
    const a = (await client.get<Tags>('/api/tags')).body.tags;
    const b = (await client.get<Tags>('/api/tags')).body.tags;
    expect(a).toEqual(b);
    // NodeBB's TagObject, and the page's search switch and next start.
    expect(a.find((t) => t.value === 'kept-renamed')).toEqual({ value: 'kept-renamed', valueEscaped: 'kept-renamed', valueEncoded: 'kept-renamed', class: 'kept-renamed', score: 1 });
    const page = (await client.get<{ displayTagSearch: boolean; nextStart: number }>('/api/tags')).body;
    expect(page).toMatchObject({ displayTagSearch: true, nextStart: 100 });
  });
});

describe('GET /api/v3/tags/:tag', () => {
  it('answers a tag with its topic count, or 404', async () => {
    const { client } = await kit.forum.loginAs();
    await postTopic(client, kit.cid, { tags: ['apitag'] });
    const res = await kit.forum.client().get('/api/v3/tags/ApiTag');
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual({ value: 'apitag', valueEscaped: 'apitag', color: '', bgColor: '', score: 1 });
    const missing = await kit.forum.client().get('/api/v3/tags/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.status.key).toBe('error:no-tag');
  });
});
