/** A group's cover photo in the browser (issue 13 part 8): the owner uploads one, moves it and removes it; other members see it without the tools. */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => {
  const data = await seedSmall(forum);
  await forum.ctx.privileges.give(0, ['group:create'], 'registered-users');
  return data;
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
const alertWith = (page: Page, text: string) => page.locator('.alert-toast').filter({ hasText: text }).first();
const background = (page: Page) => page.getByTestId('group-cover').evaluate((el) => getComputedStyle(el).backgroundImage);

describe('group cover', () => {
  it('the owner uploads a cover and sees it; a member sees it without the tools; the owner moves and removes it on a phone', async () => {
    const h = e2e();
    const { bob, carol } = h.data;
    const g = await h.forum.ctx.groups.create(await h.forum.ctx.privileges.viewer(bob.uid), { name: 'Cover Club', private: 0, labelColor: '#1d6fa5' });

    const owner = await h.open(`/groups/${g.slug}`, { as: bob, viewport: DESKTOP });
    const cover = await sharp({ create: { width: 1600, height: 500, channels: 3, background: '#2a9d8f' } }).png().toBuffer();
    const chooser = owner.waitForEvent('filechooser');
    await owner.getByRole('button', { name: 'Change cover' }).click();
    await (await chooser).setFiles({ name: 'club.png', mimeType: 'image/png', buffer: cover });
    await alertWith(owner, 'Group cover changed').waitFor();
    await expect.poll(() => background(owner)).toContain('/assets/uploads/files/');
    // Stored: the page loaded afresh shows it.
    await h.goto(owner, `/groups/${g.slug}`);
    await expect.poll(() => background(owner)).toContain('/assets/uploads/files/');
    await owner.getByRole('button', { name: 'Remove cover' }).waitFor();
    await shot(owner, 'group-cover-owner-desktop');
    expect(await seriousAxeViolations(owner)).toEqual([]);

    const member = await h.open(`/groups/${g.slug}`, { as: carol, viewport: DESKTOP });
    await expect.poll(() => background(member)).toContain('/assets/uploads/files/');
    expect(await member.getByTestId('group-cover-tools').count()).toBe(0);

    const phone = await h.open(`/groups/${g.slug}`, { as: bob, viewport: PHONE });
    const slider = phone.getByLabel('Cover position');
    await slider.focus();
    for (let i = 0; i < 5; i++) await slider.press('ArrowLeft');
    await expect.poll(async () => (await h.forum.ctx.db.selectFrom('groups').select('cover_position').where('slug', '=', g.slug).executeTakeFirstOrThrow()).cover_position).toBe('50% 45%');
    await shot(phone, 'group-cover-owner-phone');
    expect(await seriousAxeViolations(phone)).toEqual([]);
    await phone.getByRole('button', { name: 'Remove cover' }).click();
    await alertWith(phone, 'Group cover removed').waitFor();
    await expect.poll(() => background(phone)).not.toContain('/assets/uploads/');
    await h.goto(member, `/groups/${g.slug}`);
    await member.locator('h1', { hasText: 'Cover Club' }).waitFor();
    expect(await member.getByTestId('group-cover').count()).toBe(0);
  });
});
