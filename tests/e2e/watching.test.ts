/** Watching in the browser (issue 10 item 2): the category watch menu and the profile follow button. */
import { describe, expect, it } from 'vitest';
import { categoryPath, seedSmall, useE2E } from './harness.js';

const e2e = useE2E(seedSmall);

describe('watching controls', () => {
  it('a member sets a category to ignoring from its page; the choice is stored and shown again', async () => {
    const h = e2e();
    const { help, carol } = h.data;
    const page = await h.open(categoryPath(help), { as: carol });
    const menu = page.getByTestId('category-watch');
    expect(await menu.inputValue()).toBe('watching');
    await Promise.all([page.waitForResponse((r) => r.url().includes(`/categories/${help.cid}/watch`) && r.status() === 200), menu.selectOption('ignoring')]);
    expect((await h.forum.ctx.categories.watchStates(carol.uid, [help.cid])).get(help.cid)).toBe('ignoring');
    await h.goto(page, categoryPath(help));
    expect(await page.getByTestId('category-watch').inputValue()).toBe('ignoring');
  });

  it('a member follows another from the profile; the button and the stored counter follow', async () => {
    const h = e2e();
    const { bob, carol } = h.data;
    const page = await h.open(`/user/${bob.userslug}`, { as: carol });
    const button = page.getByTestId('follow-button');
    await expect.poll(() => button.textContent()).toBe('Follow');
    await button.click();
    await expect.poll(() => button.textContent()).toBe('Unfollow');
    expect((await h.forum.ctx.users.get(bob.uid))!.follower_count).toBe(1);
    await h.goto(page, `/user/${bob.userslug}`);
    await expect.poll(() => page.getByTestId('follow-button').getAttribute('aria-pressed')).toBe('true');
  });
});
