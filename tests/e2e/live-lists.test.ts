/** Live lists, votes and presence seen from the browser (spec §1 presence, §4 live updates). */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { realtimeOf } from '../../src/server/realtime/index.js';
import { categoryPath, seedSmall, topicPath, useE2E } from './harness.js';

const e2e = useE2E(seedSmall);

/** Waits until the page's live connection is up and the server has put `uid` in `room`. */
async function inRoom(page: Page, room: string, uid: number) {
  await page.waitForSelector('html[data-socket=connected]', { state: 'attached', timeout: 10_000 });
  const io = realtimeOf(e2e().forum.ctx)!.io;
  const deadline = Date.now() + 5000;
  while (!(await io.in(room).fetchSockets()).some((s) => s.data.uid === uid)) {
    if (Date.now() > deadline) throw new Error(`uid ${uid} never entered ${room}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const viewer = async (uid: number) => ({ ...(await e2e().forum.ctx.privileges.viewer(uid)), master: true });
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
const marked = (page: Page) => page.evaluate(() => (window as unknown as { __marker?: number }).__marker);

describe('new topics on the lists (spec §4)', () => {
  it("announces member B's new topic on member A's open recent page and loads it in place", async () => {
    const h = e2e();
    const { alice, bob, general } = h.data;
    const a = await h.open('/recent', { as: alice });
    await inRoom(a, 'recent_topics', alice.uid);
    await mark(a);

    await h.forum.ctx.topics.create(await viewer(bob.uid), { cid: general.cid, title: 'Fresh from Bob', content: 'A topic made while Alice watches.' });
    const bar = a.locator('.new-topics-bar').getByRole('button');
    await bar.waitFor({ timeout: 5000 });
    expect(await bar.textContent()).toBe('1 new topic, click to load');
    expect(await a.getByRole('link', { name: 'Fresh from Bob' }).count()).toBe(0);

    await bar.click();
    await a.getByRole('link', { name: 'Fresh from Bob' }).waitFor();
    expect(await a.locator('.new-topics-bar').count()).toBe(0);
    expect(await marked(a)).toBe(1);
    expect(a.url()).toBe(`${h.base}/recent`);
  });

  it("counts new topics on the category's page, only the category's own", async () => {
    const h = e2e();
    const { alice, bob, general, help } = h.data;
    const a = await h.open(categoryPath(general), { as: alice });
    await inRoom(a, `category_${general.cid}`, alice.uid);
    await mark(a);

    const as = await viewer(bob.uid);
    await h.forum.ctx.topics.create(as, { cid: help.cid, title: 'Elsewhere', content: 'In another category.' });
    await h.forum.ctx.topics.create(as, { cid: general.cid, title: 'General one', content: 'First new one here.' });
    await h.forum.ctx.topics.create(as, { cid: general.cid, title: 'General two', content: 'Second new one here.' });
    const bar = a.locator('.new-topics-bar').getByRole('button', { name: '2 new topics, click to load' });
    await bar.waitFor({ timeout: 5000 });
    await bar.click();
    await a.getByRole('link', { name: 'General two' }).waitFor();
    expect(await a.getByRole('link', { name: 'General one' }).count()).toBe(1);
    expect(await a.getByRole('link', { name: 'Elsewhere' }).count()).toBe(0);
    expect(await marked(a)).toBe(1);
  });
});

describe('votes (spec §4)', () => {
  it("updates the count of A's post on C's open topic, and the voter's own flag on B's", async () => {
    const h = e2e();
    const { bob, carol, welcome } = h.data;
    const pid = (await h.forum.ctx.topics.get(welcome.tid))!.main_pid;
    const c = await h.open(topicPath(welcome), { as: carol });
    const b = await h.open(topicPath(welcome), { as: bob });
    await inRoom(c, `topic_${welcome.tid}`, carol.uid);
    await inRoom(b, `topic_${welcome.tid}`, bob.uid);
    const count = (p: Page) => p.locator(`article[data-pid="${pid}"] .vote-count`);
    const before = Number(await count(c).textContent());

    await h.forum.ctx.posts.vote(await viewer(bob.uid), pid, 1);
    await c.waitForFunction(
      ([sel, n]) => document.querySelector(sel as string)?.textContent === String(n),
      [`article[data-pid="${pid}"] .vote-count`, before + 1] as const,
      { timeout: 5000 },
    );
    await b.waitForFunction(
      ([sel, n]) => document.querySelector(sel as string)?.textContent === String(n),
      [`article[data-pid="${pid}"] .vote-count`, before + 1] as const,
      { timeout: 5000 },
    );
    // Only the voter's own page marks the post upvoted.
    await b.locator(`article[data-pid="${pid}"] button[aria-pressed="true"]`).waitFor({ timeout: 5000 });
    expect(await c.locator(`article[data-pid="${pid}"] button[aria-pressed="true"]`).count()).toBe(0);

    await h.forum.ctx.posts.vote(await viewer(bob.uid), pid, 0);
    await c.waitForFunction(
      ([sel, n]) => document.querySelector(sel as string)?.textContent === String(n),
      [`article[data-pid="${pid}"] .vote-count`, before] as const,
      { timeout: 5000 },
    );
    await b.locator(`article[data-pid="${pid}"] button[aria-pressed="true"]`).waitFor({ state: 'detached', timeout: 5000 });
  });
});

describe('presence (spec §1)', () => {
  it('chooses "away" in the user menu, shows it on the avatar and keeps it after a reload', async () => {
    const h = e2e();
    const dora = await h.forum.createUser({ username: 'dora' });
    const page = await h.open('/recent', { as: dora });
    const dot = page.locator('.sidebar .avatar-status > .status');
    expect(await dot.getAttribute('class')).toBe('status online');
    expect(await dot.getAttribute('title')).toBe('Online');

    await page.locator('.sidebar').getByRole('button', { name: 'Account menu for dora' }).click();
    await page.locator('.sidebar .dropdown-menu').getByRole('button', { name: 'Away' }).click();
    await page.locator('.sidebar .avatar-status > .status.away').waitFor({ state: 'attached', timeout: 5000 }).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await page.locator('.sidebar .avatar-status').innerHTML()}\n${await page.locator('.alert, [role=alert], [role=status]').allTextContents()}`);
    });
    expect(await dot.getAttribute('title')).toBe('Away');
    expect((await h.forum.ctx.users.get(dora.uid))?.status).toBe('away');

    await page.reload();
    await page.waitForSelector('html[data-loaded]', { state: 'attached' });
    expect(await dot.getAttribute('class')).toBe('status away');
    expect(await dot.getAttribute('title')).toBe('Away');
  });
});
