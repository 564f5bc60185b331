/** Post queue, scheduled topics and edit history in the browser (issue 12 parts 6, 7, 8). */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestForum } from '../../src/server/test/harness.js';
import { categoryPath, DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, topicPath, useE2E } from './harness.js';

async function seed(forum: TestForum) {
  const data = await seedSmall(forum);
  const ctx = forum.ctx;
  // A new member (no posts yet): with the queue on, their first posts wait.
  const dave = await forum.createUser({ username: 'dave' });
  await ctx.settings.set({ postQueue: true, postQueuePostCountThreshold: 1 });
  // The welcome post has a history: alice wrote it, then edited it twice.
  const alice = { ...(await ctx.privileges.viewer(data.alice.uid)), master: true };
  await ctx.posts.edit(alice, data.welcome.main_pid, { content: 'Welcome everyone! This forum **feels quick**.' });
  await new Promise((r) => setTimeout(r, 5));
  await ctx.posts.edit(alice, data.welcome.main_pid, { content: 'Welcome everyone! This forum **feels quick** and friendly.' });
  return { ...data, dave };
}

const e2e = useE2E(seed);
const composer = (page: Page) => page.locator('.composer');
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled' });

/** Opens the composer for a new topic on a category page and fills it in. */
async function writeTopic(page: Page, title: string, content: string) {
  await page.locator('#new_topic').first().click();
  await composer(page).getByLabel('Title').fill(title);
  await composer(page).locator('textarea').fill(content);
}

describe('post queue', () => {
  it('a new member’s topic waits; the moderator accepts it on the post-queue page; the author is told', async () => {
    const h = e2e();
    const { general, dave, alice } = h.data;
    const page = await h.open(categoryPath(general), { as: dave, viewport: DESKTOP });
    await writeTopic(page, 'My very first topic', 'Hello everyone, this is my first post here.');
    await composer(page).getByTestId('composer-queue-notice').waitFor();
    await composer(page).getByRole('button', { name: 'Submit' }).click();
    await page.getByText('queued for approval').first().waitFor();
    await expect.poll(() => composer(page).count()).toBe(0);
    expect(await h.forum.ctx.db.selectFrom('topics').select('tid').where('title', '=', 'My very first topic').execute()).toEqual([]);

    // The author sees it waiting on their post-queue page.
    await h.goto(page, '/post-queue');
    await page.getByTestId('queued-post').getByText('Waiting for a moderator').waitFor();

    // The moderator was notified; read, so the page is checked without the badge in its menu.
    await h.forum.ctx.hooks.idle();
    expect(await h.forum.ctx.db.selectFrom('notifications').select('type').where('uid', '=', alice.uid).where('type', '=', 'post-queue').execute()).toHaveLength(1);
    await h.forum.ctx.notifications.markAllRead(await h.forum.ctx.privileges.viewer(alice.uid));
    const mod = await h.open('/post-queue', { as: alice, viewport: DESKTOP });
    const item = mod.getByTestId('queued-post').filter({ hasText: 'My very first topic' });
    await item.waitFor();
    await shot(mod, 'post-queue-desktop');
    expect(await seriousAxeViolations(mod)).toEqual([]);
    const phone = await h.open('/post-queue', { as: alice, viewport: PHONE });
    await phone.getByTestId('queued-post').first().waitFor();
    await shot(phone, 'post-queue-phone');

    await Promise.all([mod.waitForResponse((r) => r.url().includes('/api/v3/posts/queue/') && r.status() === 200), item.getByRole('button', { name: 'Accept' }).click()]);
    await expect.poll(() => item.count()).toBe(0);
    const rows = await h.forum.ctx.db.selectFrom('topics').select(['tid', 'uid']).where('title', '=', 'My very first topic').execute();
    expect(rows).toEqual([{ tid: rows[0]!.tid, uid: dave.uid }]);
    await h.forum.ctx.hooks.idle();
    const notes = await h.forum.ctx.db.selectFrom('notifications').select('type').where('uid', '=', dave.uid).where('type', '=', 'post-queue').execute();
    expect(notes.length).toBe(1);
  });

  it('a moderator rejects with a reason and accepts several at once', async () => {
    const h = e2e();
    const { general, alice } = h.data;
    const ctx = h.forum.ctx;
    const newbies = await Promise.all(['erin', 'frank', 'gina'].map((username) => h.forum.createUser({ username })));
    for (const [i, u] of newbies.entries()) {
      const answer = await ctx.postQueue.submitTopic(await ctx.privileges.viewer(u.uid), { cid: general.cid, title: `Queued topic ${i}`, content: 'Some content waiting for review.' }, '127.0.0.1');
      expect(answer.queued).toBe(true);
    }
    const page = await h.open('/post-queue', { as: alice, viewport: DESKTOP });
    const first = page.getByTestId('queued-post').filter({ hasText: 'Queued topic 0' });
    await first.getByRole('button', { name: 'Reject' }).click();
    await first.getByPlaceholder('Reason').fill('Please search first');
    await first.getByRole('button', { name: 'Reject the post' }).click();
    await expect.poll(() => first.count()).toBe(0);

    await page.getByLabel('Select all').check();
    await page.getByTestId('queue-accept-selected').click();
    await page.getByTestId('post-queue-empty').waitFor();
    const titles = (await ctx.db.selectFrom('topics').select('title').where('title', 'like', 'Queued topic %').execute()).map((r) => r.title).sort();
    expect(titles).toEqual(['Queued topic 1', 'Queued topic 2']);
  });
});

describe('edit history', () => {
  it('the diffs dialog lists the versions with the changed words; a moderator restores the original', async () => {
    const h = e2e();
    const { welcome, alice } = h.data;
    // Earlier tests queued posts alice was notified of: read, so no badge sits in the checked page.
    await h.forum.ctx.hooks.idle();
    await h.forum.ctx.notifications.markAllRead(await h.forum.ctx.privileges.viewer(alice.uid));
    const page = await h.open(topicPath(welcome), { as: alice, viewport: DESKTOP });
    const first = page.locator('article.post').first();
    await first.locator('.post-edited').getByText('Edited by alice').waitFor();
    await first.getByRole('button', { name: 'History' }).click();
    const dialog = page.getByTestId('diffs-dialog');
    await dialog.waitFor();
    const options = dialog.getByRole('option');
    await expect.poll(() => options.count()).toBe(3);
    await expect.poll(() => dialog.locator('ins').allTextContents()).toContain('and friendly');
    await shot(page, 'diffs-dialog-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await options.nth(2).click();
    await page.getByRole('button', { name: 'Restore this version' }).click();
    await expect.poll(async () => (await h.forum.ctx.posts.get(welcome.main_pid))!.content).toBe('Welcome everyone! This forum **feels fast**.');
    expect((await h.forum.ctx.posts.diffs(await h.forum.ctx.privileges.viewer(alice.uid), welcome.main_pid)).timestamps).toHaveLength(4);

    const phone = await h.open(topicPath(welcome), { as: alice, viewport: PHONE });
    await phone.locator('article.post').first().getByRole('button', { name: 'History' }).click();
    await phone.getByTestId('diffs-dialog').locator('ins, del').first().waitFor();
    await shot(phone, 'diffs-dialog-phone');
  });
});

describe('scheduled topic', () => {
  it('an admin picks a time in the composer; the topic is stored hidden until then', async () => {
    const h = e2e();
    const { general, alice, bob } = h.data;
    const page = await h.open(categoryPath(general), { as: alice, viewport: DESKTOP });
    await writeTopic(page, 'Next week announcement', 'This goes out next week, not before.');
    await composer(page).getByTestId('composer-scheduler').getByRole('button', { name: 'Schedule' }).click();
    const at = new Date(Date.now() + 7 * 24 * 3600_000);
    at.setSeconds(0, 0);
    const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await composer(page).getByLabel('Publish at').fill(local);
    await shot(page, 'composer-schedule-desktop');
    await composer(page).getByRole('button', { name: 'Submit' }).click();
    await page.locator('article.post').first().waitFor();
    const topic = await h.forum.ctx.db.selectFrom('topics').selectAll().where('title', '=', 'Next week announcement').executeTakeFirstOrThrow();
    expect(topic).toMatchObject({ scheduled: 1, created: at.getTime() });
    // Bob does not see it; after the job runs at its time, he does.
    const other = await h.open(categoryPath(general), { as: bob, viewport: PHONE });
    expect(await other.getByText('Next week announcement').count()).toBe(0);
    await h.forum.ctx.jobs.runDue(at.getTime() + 1000);
    await h.goto(other, categoryPath(general));
    await other.getByText('Next week announcement').first().waitFor();

    const phone = await h.open(categoryPath(general), { as: alice, viewport: PHONE });
    await writeTopic(phone, 'Phone scheduled topic', 'Picked on a phone screen.');
    await composer(phone).getByTestId('composer-scheduler').getByRole('button', { name: 'Schedule' }).click();
    await composer(phone).getByLabel('Publish at').fill(local);
    await shot(phone, 'composer-schedule-phone');
  });
});
