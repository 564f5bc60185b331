/** Topic tools in the browser (issue 14 part 2): a moderator merges two topics and forks posts from the topic page; the events show in the timeline (desktop + phone). */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestForum } from '../../src/server/test/harness.js';
import { DESKTOP, PHONE, SCREENSHOTS, categoryPath, seedSmall, seenEverything, seriousAxeViolations, topicPath, useE2E } from './harness.js';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });

async function seed(forum: TestForum) {
  const s = await seedSmall(forum);
  const ctx = forum.ctx;
  const mod = await forum.createUser({ username: 'moddy' });
  await ctx.privileges.give(s.general.cid, ['moderate'], `uid:${mod.uid}`);
  const as = async (uid: number) => ({ ...(await ctx.privileges.viewer(uid)), master: true });
  const topic = async (uid: number, title: string, replies: string[]) => {
    const made = await ctx.topics.create(await as(uid), { cid: s.general.cid, title, content: `${title}: the first post.` });
    for (const content of replies) await ctx.posts.reply(await as(s.bob.uid), made.topic.tid, { content });
    return made.topic;
  };
  const cats = await topic(s.carol.uid, 'All about cats', ['Cats sleep a lot.', 'Off topic: my bicycle is red.', 'Off topic: bicycles need oil.']);
  const kittens = await topic(s.bob.uid, 'Kittens and their toys', ['Kittens love string.']);
  const phone = await topic(s.carol.uid, 'Lock me on a phone', ['A reply before the lock.']);
  const older = await topic(s.carol.uid, 'Tea or coffee', ['Tea, always.', 'Off topic: the kettle broke.']);
  const newer = await topic(s.bob.uid, 'Coffee beans', ['Arabica here.']);
  await seenEverything(forum, [s.alice, s.bob, s.carol, mod]);
  return { ...s, mod, cats, kittens, phone, older, newer };
}

const e2e = useE2E(seed);

describe('topic tools', () => {
  it('a moderator merges two topics and forks posts; the events show in the timeline (desktop)', async () => {
    const h = e2e();
    const { mod, cats, kittens } = h.data;
    const page = await h.open(topicPath(cats), { as: mod, viewport: DESKTOP });

    // Merge: the kittens topic joins the cats one.
    await page.getByTestId('topic-tools').click();
    await page.getByTestId('tool-merge').click();
    await page.getByTestId('topic-picker-input').fill('Kittens');
    await page.getByRole('button', { name: /Kittens and their toys/ }).click();
    await shot(page, 'merge-dialog-desktop');
    await page.getByTestId('tool-confirm').click();
    await page.locator('.topic-event[data-type="merge"]').waitFor();
    expect(await page.locator('.topic-event[data-type="merge"]').textContent()).toContain('moddy merged 1 topic into this topic');
    await expect.poll(() => page.locator('article.post').count()).toBe(6);
    expect(await h.forum.ctx.topics.get(kittens.tid)).toBeNull();
    expect((await h.forum.ctx.topics.get(cats.tid))!.post_count).toBe(6);

    // Fork: the two off-topic posts become their own topic.
    await page.getByTestId('topic-tools').click();
    await page.getByTestId('tool-select-posts').click();
    await page.getByRole('checkbox', { name: 'Select post #3' }).check();
    await page.getByRole('checkbox', { name: 'Select post #4' }).check();
    await page.getByTestId('post-selection-bar').getByText('2 posts selected').waitFor();
    await shot(page, 'selection-desktop');
    await page.getByTestId('selection-fork').click();
    await page.getByTestId('fork-title').fill('Bicycles, from the cats thread');
    await page.getByTestId('tool-confirm').click();
    const fork = page.locator('.topic-event[data-type="fork"]');
    await fork.waitFor();
    expect(await fork.textContent()).toContain('moddy forked 2 posts into a new topic');
    await expect.poll(() => page.locator('article.post').count()).toBe(4);
    // The event sits between the posts by time: after the merge event, at the end of the thread.
    const order = await page.locator('.posts > *').evaluateAll((els) => els.map((el) => (el.classList.contains('topic-event') ? `event:${el.getAttribute('data-type')}` : 'post')));
    expect(order).toEqual(['post', 'post', 'post', 'post', 'event:merge', 'event:fork']);
    await shot(page, 'timeline-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The event links to the new topic, which holds the two posts and says where they came from.
    await fork.getByRole('link', { name: 'Bicycles, from the cats thread' }).click();
    await page.getByRole('heading', { name: 'Bicycles, from the cats thread' }).waitFor();
    expect(await page.locator('article.post').count()).toBe(2);
    await page.locator('.topic-event[data-type="forked-from"]').waitFor();
  });

  it('locks from the tools menu and shows the event; topics are selected in bulk on the category page (phone)', async () => {
    const h = e2e();
    const { mod, phone, general } = h.data;
    const page = await h.open(topicPath(phone), { as: mod, viewport: PHONE });
    await page.getByTestId('topic-tools').click();
    await shot(page, 'tools-menu-phone');
    await page.getByTestId('tool-lock').click();
    await page.locator('.topic-event[data-type="lock"]').waitFor();
    expect(await page.locator('.topic-event[data-type="lock"]').textContent()).toContain('moddy locked this topic');
    expect((await h.forum.ctx.topics.get(phone.tid))!.locked).toBe(1);
    await shot(page, 'timeline-phone');
    expect(await seriousAxeViolations(page)).toEqual([]);
    // The lock's Undo unlocks: a new event, and the topic open again.
    await page.locator('.topic-event[data-type="lock"]').getByRole('button', { name: 'Undo' }).click();
    await page.locator('.topic-event[data-type="unlock"]').waitFor();
    expect((await h.forum.ctx.topics.get(phone.tid))!.locked).toBe(0);
    expect(await page.locator('.topic-event[data-type="lock"]').getByRole('button', { name: 'Undo' }).count()).toBe(0);

    // Who voted: the vote count opens the votes tool.
    await h.forum.ctx.posts.vote({ ...(await h.forum.ctx.privileges.viewer(h.data.bob.uid)), master: true } as never, phone.main_pid, 1);
    await h.goto(page, topicPath(phone));
    await page.locator(`article[data-pid="${phone.main_pid}"] .vote-count`).click();
    await page.getByRole('dialog').getByRole('link', { name: 'bob' }).waitFor();
    await shot(page, 'voters-phone');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    await h.goto(page, categoryPath(general));
    await page.getByTestId('select-topics').click();
    await page.getByRole('checkbox', { name: 'Select Lock me on a phone' }).check();
    await page.getByTestId('topic-bulk-bar').getByText('1 topic selected').waitFor();
    await shot(page, 'bulk-phone');
    await page.getByTestId('topic-bulk-bar').getByRole('button', { name: 'Unlock' }).click();
    await expect.poll(async () => (await h.forum.ctx.topics.get(phone.tid))!.locked).toBe(0);
  });

  it('merges into the other topic under a new title, chosen in the dialog; the fork alert opens the new topic (phone)', async () => {
    const h = e2e();
    const { mod, older, newer } = h.data;
    const page = await h.open(topicPath(older), { as: mod, viewport: PHONE });
    await page.getByTestId('topic-tools').click();
    await page.getByTestId('tool-merge').click();
    await page.getByTestId('topic-picker-input').fill('Coffee beans');
    await page.getByRole('button', { name: /Coffee beans/ }).click();
    // The surviving topic: this one unless another is chosen; here, the other.
    const main = page.getByTestId('merge-main');
    expect(await main.getByLabel('Tea or coffee').isChecked()).toBe(true);
    await main.getByLabel('Coffee beans').check();
    await page.getByTestId('merge-title').fill('All about hot drinks');
    await shot(page, 'merge-dialog-choice-phone');
    await page.getByTestId('tool-confirm').click();
    // The page goes to the surviving topic, retitled, holding every post.
    await page.getByRole('heading', { name: 'All about hot drinks' }).waitFor();
    await expect.poll(() => page.locator('article.post').count()).toBe(5);
    expect(await h.forum.ctx.topics.get(older.tid)).toBeNull();
    expect((await h.forum.ctx.topics.get(newer.tid))!.title).toBe('All about hot drinks');

    // Fork the kettle post; the success alert is the link to the new topic.
    await page.getByTestId('topic-tools').click();
    await page.getByTestId('tool-select-posts').click();
    await page.locator('article.post', { hasText: 'the kettle broke' }).waitFor();
    const index = await page.locator('article.post', { hasText: 'the kettle broke' }).getAttribute('data-index');
    await page.getByRole('checkbox', { name: `Select post #${Number(index) + 1}` }).check();
    await page.getByTestId('selection-fork').click();
    await page.getByTestId('fork-title').fill('The broken kettle');
    await page.getByTestId('tool-confirm').click();
    const alert = page.getByText('Posts forked into “The broken kettle”. Click to open it.');
    await alert.waitFor();
    await shot(page, 'fork-alert-phone');
    await alert.click();
    await page.getByRole('heading', { name: 'The broken kettle' }).waitFor();
    expect(await page.locator('article.post').count()).toBe(1);
    expect(await page.locator('article.post').first().textContent()).toContain('the kettle broke');
  });
});
