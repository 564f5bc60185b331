import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCategory, postTopic } from '../../domains/topics/testing.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { renderEmoji } from './index.js';
import { EMOJI_TABLE_PATH } from './routes.js';
import { emojiIndex, emojiShortcodes, emojiTable, searchEmoji } from './table.js';

let forum: TestForum;

beforeAll(async () => {
  forum = await startTestForum();
});
afterAll(async () => {
  await forum.close();
});

describe('emoji', () => {
  it('renders :shortcode: to Unicode, not in code or links, unknown ones kept', () => {
    // Emoji carry the emoji presentation selector (U+FE0F) where Unicode lists one.
    const html = renderEmoji('<p>Great :smile: :+1: :not_an_emoji:</p><pre><code>:smile:</code></pre><a href="/x">:smile:</a>').replace(/\uFE0F/g, '');
    expect(html).toBe('<p>Great 😄 👍 :not_an_emoji:</p><pre><code>:smile:</code></pre><a href="/x">:smile:</a>');
  });

  it('searches by shortcode, name and keyword', () => {
    const { entries } = emojiTable();
    expect(searchEmoji(entries, 'smile')[0]!.u).toBe('😄');
    expect(searchEmoji(entries, 'thumbs').map((e) => e.u.replace(/\uFE0F/g, ''))).toContain('👍');
    // "celebration" is a keyword of the party popper, not in its shortcode.
    expect(searchEmoji(entries, 'celebration', 50).map((e) => e.u)).toContain('🎉');
  });

  it('a post shows the emoji; the index is served public and cacheable, 304 on its ETag', async () => {
    const cid = await makeCategory(forum.ctx, 'Emoji');
    const { client } = await forum.loginAs();
    const t = await postTopic(client, cid, { content: 'Shipped it :tada: well done' });
    const post = await forum.ctx.db.selectFrom('posts').select('content_html').where('pid', '=', t.mainPid).executeTakeFirstOrThrow();
    expect(post.content_html).toContain('Shipped it 🎉 well done');
    const res = await fetch(`${forum.baseUrl}${EMOJI_TABLE_PATH}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    const list = (await res.json()) as { u: string; s: string[] }[];
    expect(list.find((e) => e.s.includes('tada'))?.u).toBe('🎉');
    const again = await fetch(`${forum.baseUrl}${EMOJI_TABLE_PATH}`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    // Every pickable emoji, in the table's order.
    expect(list.map((e) => e.u)).toEqual(emojiTable().entries.map((e) => e.u));
  });

  it("keeps the shortcode map and the served index, not emojibase-data's parsed files", () => {
    expect(emojiShortcodes().get('tada')).toBe('🎉');
    expect(emojiIndex().body.length).toBeGreaterThan(100_000);
    // require's cache would hold the three parsed files (1.6 MB) for the life of the process.
    const cached = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('emojibase-data'));
    expect(cached).toEqual([]);
  });
});

describe('spoilers', () => {
  it('||text|| renders a spoiler, not inside code', async () => {
    const cid = await makeCategory(forum.ctx, 'Spoilers');
    const { client } = await forum.loginAs();
    const t = await postTopic(client, cid, { content: 'The end: ||he lives|| and `||code||`' });
    const post = await forum.ctx.db.selectFrom('posts').select('content_html').where('pid', '=', t.mainPid).executeTakeFirstOrThrow();
    expect(post.content_html).toContain('<span class="spoiler" tabindex="0">he lives</span>');
    expect(post.content_html).toContain('<code>||code||</code>');
  });
});
