/**
 * A NodeBB forum moved in (issue 54): the committed fixture of a real NodeBB 4.11.2 forum is
 * imported from a scratch Redis database, then a browser opens an old topic URL and finds its
 * posts, an imported member logs in with the password they had on NodeBB, and finds their old
 * chat.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TestForum } from '../../src/server/test/harness.js';
import { importNodebb } from '../../src/server/domains/import/run.js';
import { openSource } from '../../src/server/domains/import/source.js';
import { readDump, scratchRedis } from '../../src/server/domains/import/test-kit.js';
import { useE2E } from './harness.js';

let drop: (() => Promise<void>) | null = null;
const e2e = useE2E(async (forum: TestForum) => {
  const scratch = await scratchRedis(readDump());
  drop = scratch.drop;
  const src = await openSource(scratch.url);
  try {
    return await importNodebb(forum.ctx, src, { from: scratch.url });
  } finally {
    await src.close();
  }
});
afterAll(async () => {
  await drop?.();
});

describe('a NodeBB forum after its import (issue 54)', () => {
  it('opens an old topic URL with its posts; a member logs in with the NodeBB password and finds the old chat', async () => {
    const h = e2e();
    expect(h.data.counts.posts).toBe(14);
    // The link NodeBB gave out, as a visitor.
    const topic = await h.open('/topic/2/welcome-to-the-old-forum');
    await topic.getByRole('heading', { name: 'Welcome to the old forum' }).waitFor();
    await topic.getByText('glad to be here').first().waitFor();
    await topic.getByText('こんにちは！ Unicode works').waitFor();
    expect(await topic.getByText('This post will be purged.').count()).toBe(0);

    const page = await h.open('/login');
    await page.getByLabel('Username or email').fill('alice');
    await page.getByLabel('Password', { exact: true }).fill('Nodebb-pass-1!');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${h.base}/`);
    await page.waitForSelector('html[data-loaded]', { state: 'attached' });
    await page.locator('.sidebar').getByRole('button', { name: 'Account menu for alice' }).waitFor();

    await page.goto(`${h.base}/chats/1`);
    await page.getByText('Hi Bob, private hello').first().waitFor();
    await page.getByText('Hi Alice!').first().waitFor();
  });
});
