/** Flags in the browser (issue 14 part 1): a member flags a post from its menu; a moderator works the flag. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestForum } from '../../src/server/test/harness.js';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, topicPath, useE2E } from './harness.js';

async function seed(forum: TestForum) {
  const data = await seedSmall(forum);
  // A moderator of General Discussion only (not an administrator).
  const dora = await forum.createUser({ username: 'dora' });
  await forum.ctx.privileges.give(data.general.cid, ['moderate'], `uid:${dora.uid}`);
  return { ...data, dora };
}

const e2e = useE2E(seed);
// The lead reviews the pictures in /work/shots/h6; the suite's own folder keeps a copy.
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });

describe('flags', () => {
  it('a member flags a post from its menu; a moderator opens /flags, the flag, assigns it to themself and resolves it', async () => {
    const h = e2e();
    const { welcome, carol, dora, bob } = h.data;
    const ctx = h.forum.ctx;
    const bobsReply = (await ctx.db.selectFrom('posts').select('pid').where('uid', '=', bob.uid).where('tid', '=', welcome.tid).executeTakeFirstOrThrow()).pid;

    // carol reports bob's reply with a preset reason.
    const page = await h.open(topicPath(welcome), { as: carol, viewport: DESKTOP });
    const post = page.locator(`[data-pid="${bobsReply}"]`);
    await post.getByRole('button', { name: 'Flag' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report content' });
    await dialog.getByLabel('Offensive').check();
    await shot(page, 'flag-dialog-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/v3/flags') && r.status() === 200), dialog.getByRole('button', { name: 'Submit report' }).click()]);
    await page.getByText('Content has been flagged for moderation.').waitFor();
    await expect.poll(() => dialog.count()).toBe(0);
    // Reporting again is refused with NodeBB's message.
    await post.getByRole('button', { name: 'Flag' }).click();
    await dialog.getByLabel('Other (specify below)').check();
    await dialog.getByPlaceholder('Reason for reporting this content…').fill('Still offensive');
    await dialog.getByRole('button', { name: 'Submit report' }).click();
    await page.getByText('You have already flagged this.').waitFor();

    // dora, a moderator of the category, was told; she opens the list.
    await ctx.hooks.idle();
    const told = await ctx.db.selectFrom('notifications').select('path').where('uid', '=', dora.uid).where('type', '=', 'new-post-flag').execute();
    expect(told).toHaveLength(1);
    await ctx.notifications.markAllRead(await ctx.privileges.viewer(dora.uid));
    const mod = await h.open('/flags', { as: dora, viewport: DESKTOP });
    const row = mod.getByTestId('flag-row').first();
    await row.getByText('Welcome to Palaver').waitFor();
    await row.getByText('New/Open').waitFor();
    // The chart of new flags per day: today's one flag, drawn by chart.js.
    const chart = mod.getByTestId('flags-chart').locator('canvas');
    expect(await chart.getAttribute('aria-label')).toBe('New flags per day over 30 days (total: 1)');
    await expect.poll(() => chart.evaluate((c) => (c as HTMLCanvasElement).style.boxSizing)).toBe('border-box');
    await shot(mod, 'flags-list-desktop');
    expect(await seriousAxeViolations(mod)).toEqual([]);
    // Filters go to the URL.
    await mod.getByLabel('State', { exact: true }).selectOption('resolved');
    await mod.getByRole('button', { name: 'Apply filters' }).click();
    await mod.waitForURL(/\/flags\?state=resolved$/);
    await mod.getByTestId('flags-empty').waitFor();
    await h.goto(mod, '/flags');

    // The flag: the post in context, the report, then assign to me and resolve.
    await row.getByRole('link', { name: 'Welcome to Palaver' }).click();
    await mod.waitForURL(/\/flags\/\d+$/);
    await mod.getByTestId('flag-target').getByText('Looks great, thanks for setting it up.').waitFor();
    await mod.getByTestId('flag-reports').getByText('Offensive').waitFor();
    await Promise.all([mod.waitForResponse((r) => /\/api\/v3\/flags\/\d+$/.test(r.url()) && r.status() === 200), mod.getByRole('button', { name: 'Assign to me' }).click()]);
    await expect.poll(() => mod.getByLabel('Assignee').inputValue()).toBe(String(dora.uid));
    await mod.getByLabel('Add note').fill('Spoke to bob about it.');
    await mod.getByRole('button', { name: 'Add note' }).click();
    await mod.getByTestId('flag-notes').getByText('Spoke to bob about it.').waitFor();
    await Promise.all([mod.waitForResponse((r) => /\/api\/v3\/flags\/\d+$/.test(r.url()) && r.status() === 200), mod.getByLabel('State').selectOption('resolved')]);
    await mod.getByTestId('flag-state').getByText('Resolved').waitFor();
    await mod.getByTestId('flag-history').getByText('State: Resolved').waitFor();
    await shot(mod, 'flag-detail-desktop');
    expect(await seriousAxeViolations(mod)).toEqual([]);

    const flag = await ctx.db.selectFrom('flags').selectAll().executeTakeFirstOrThrow();
    expect(flag).toMatchObject({ state: 'resolved', assignee: dora.uid, target_id: bobsReply });
    await ctx.hooks.idle();
    const carolTold = await ctx.db.selectFrom('notifications').select('type').where('uid', '=', carol.uid).where('type', '=', 'my-flags').execute();
    expect(carolTold).toHaveLength(1);

    // Phone: the list and the flag read well on a small screen.
    const phone = await h.open('/flags', { as: dora, viewport: PHONE });
    await phone.getByTestId('flag-row').first().getByText('Resolved').waitFor();
    await shot(phone, 'flags-list-phone');
    await h.goto(phone, `/flags/${flag.flag_id}`);
    await phone.getByTestId('flag-target').waitFor();
    await shot(phone, 'flag-detail-phone');
    expect(await seriousAxeViolations(phone)).toEqual([]);
  });

  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`an administrator deletes the flagged post, mutes and bans its author from the flag page (${label})`, async () => {
      const h = e2e();
      const { welcome, carol, alice, dora } = h.data;
      const ctx = h.forum.ctx;
      await ctx.settings.set({ banReasons: 'Spamming\nRude to others' });
      // A fresh author per run: the ban below must not spill into the other runs.
      const author = await h.forum.createUser({ username: `troll${label}` });
      const { post } = await ctx.posts.reply({ ...(await ctx.privileges.viewer(author.uid)), master: true }, welcome.tid, { content: `Buy cheap watches here (${label}).` });
      const { flagId } = await ctx.flags.report(await ctx.privileges.viewer(carol.uid), { type: 'post', id: post.pid, reason: 'Spam' }, '127.0.0.1');

      // A category moderator may delete the post, not ban or mute.
      const mod = await h.open(`/flags/${flagId}`, { as: dora, viewport });
      const modActions = mod.getByTestId('flag-actions');
      await modActions.getByRole('button', { name: 'Delete the post' }).waitFor();
      expect(await modActions.getByRole('button', { name: `Ban troll${label}` }).count()).toBe(0);

      const page = await h.open(`/flags/${flagId}`, { as: alice, viewport });
      const actions = page.getByTestId('flag-actions');
      await actions.waitFor();
      await shot(page, `flag-actions-${label}`);
      expect(await seriousAxeViolations(page)).toEqual([]);

      page.once('dialog', (d) => void d.accept());
      await actions.getByRole('button', { name: 'Delete the post' }).click();
      await page.getByTestId('flag-target').getByText('This post is deleted.').waitFor();
      await expect.poll(() => actions.getByRole('button', { name: 'Delete the post' }).count()).toBe(0);
      expect((await ctx.db.selectFrom('posts').select('deleted').where('pid', '=', post.pid).executeTakeFirstOrThrow()).deleted).toBe(1);

      await actions.getByRole('button', { name: `Mute troll${label}` }).click();
      const muteDialog = page.getByTestId('mute-dialog');
      await muteDialog.getByLabel('Reason').selectOption('Rude to others');
      await muteDialog.getByRole('button', { name: /mute/i }).last().click();
      await actions.getByText('Muted').waitFor();
      expect(await ctx.moderation.muteOf(author.uid)).toMatchObject({ reason: 'Rude to others' });

      await actions.getByRole('button', { name: `Ban troll${label}` }).click();
      const banDialog = page.getByTestId('ban-dialog');
      await banDialog.getByLabel('Reason').selectOption('Spamming');
      await shot(page, `flag-ban-dialog-${label}`);
      await banDialog.getByRole('button', { name: /ban/i }).last().click();
      await actions.getByText('Banned').waitFor();
      await expect.poll(() => actions.getByRole('button', { name: `Ban troll${label}` }).count()).toBe(0);
      expect(await ctx.users.byUsername(`troll${label}`)).toMatchObject({ banned: 1, ban_reason: 'Spamming' });
      await shot(page, `flag-actions-done-${label}`);
    });
  }

  it('members get 403 on /flags; a member flags a profile', async () => {
    const h = e2e();
    const { bob, carol } = h.data;
    const page = await h.open('/flags', { as: bob, viewport: PHONE });
    await page.getByText('You do not have enough privileges for this action.').first().waitFor();
    await h.goto(page, `/user/${carol.userslug}`);
    await page.getByTestId('flag-button').click();
    const dialog = page.getByRole('dialog', { name: 'Report content' });
    await dialog.getByLabel('Spam').check();
    await shot(page, 'flag-profile-phone');
    await dialog.getByRole('button', { name: 'Submit report' }).click();
    await page.getByText('Content has been flagged for moderation.').waitFor();
    const flags = await h.forum.ctx.db.selectFrom('flags').select(['type', 'target_id']).where('type', '=', 'user').execute();
    expect(flags).toEqual([{ type: 'user', target_id: carol.uid }]);
  });
});
