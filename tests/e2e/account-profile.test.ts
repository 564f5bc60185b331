/** The profile in the browser (issue 13 part 1): edit every field with a cropped picture and a cover, see them on the profile; each profile list on desktop and phone. */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { TestForum } from '../../src/server/test/harness.js';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, useE2E } from './harness.js';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });

/** The small forum, with votes, a bookmark, an ignored and a read topic, and follows for bob's lists. */
async function seed(forum: TestForum) {
  const s = await seedSmall(forum);
  const ctx = forum.ctx;
  const bob = await ctx.privileges.viewer(s.bob.uid);
  const carol = await ctx.privileges.viewer(s.carol.uid);
  const welcome = await ctx.topics.get(s.welcome.tid);
  await ctx.posts.vote(bob, welcome!.main_pid, 1);
  await ctx.posts.vote(carol, s.avatar.main_pid, 1);
  await ctx.posts.bookmark(bob, welcome!.main_pid, true);
  await ctx.topics.follow(bob, s.welcome.tid, 'ignore');
  await ctx.topics.markRead(bob, s.welcome.tid);
  await ctx.users.follow(carol, s.bob.uid, true);
  await ctx.users.follow(bob, s.alice.uid, true);
  await forum.ctx.hooks.idle();
  return s;
}

const e2e = useE2E(seed);
const LISTS = ['posts', 'topics', 'best', 'upvoted', 'downvoted', 'bookmarks', 'ignored', 'read', 'followers', 'following'];

describe('account profile', () => {
  it('edits the profile with a cropped picture and a cover; the profile shows them', async () => {
    const h = e2e();
    const { bob } = h.data;
    const page = await h.open(`/user/${bob.userslug}/edit`, { as: bob, viewport: DESKTOP });
    await page.getByLabel('Full name').fill('Bob Builder');
    await page.getByLabel('Website').fill('https://bob.example.org');
    await page.getByLabel('Location').fill('Bristol');
    await page.getByLabel('Birthday').fill('1990-05-17');
    await page.getByLabel('About me').fill('I build **things**.');
    // The counter follows the typing, and past the limit the save button stops.
    await page.getByLabel('Signature').fill('x'.repeat(260));
    await page.getByText('5 characters too many').waitFor();
    expect(await page.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    await page.getByLabel('Signature').fill('Can we fix it? *Yes we can!*');
    await page.getByText('227 characters left').waitFor();

    // Picture: chosen, cropped to a square in the page, uploaded as that square.
    const wide = await sharp({ create: { width: 900, height: 500, channels: 3, background: '#3a7bd5' } }).png().toBuffer();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload a new picture' }).click();
    await (await chooser).setFiles({ name: 'wide.png', mimeType: 'image/png', buffer: wide });
    await page.getByTestId('picture-cropper').waitFor();
    await page.getByLabel('Zoom').fill('1.5');
    await shot(page, 'edit-cropper-desktop');
    await page.getByTestId('crop-save').click();
    const avatar = page.locator('img[src*="/assets/uploads/files/"]').first();
    await avatar.waitFor();
    await expect.poll(() => avatar.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(512);
    // What was sent is the page's square crop (a PNG the cropper names), not the wide original.
    const up = await h.forum.ctx.db.selectFrom('uploads').select(['name', 'width', 'height']).where('uid', '=', bob.uid).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(up).toEqual({ name: 'picture.png', width: 512, height: 512 });
    await page.getByTestId('picture-cropper').waitFor({ state: 'detached' });

    // Cover photo.
    const cover = await sharp({ create: { width: 1400, height: 400, channels: 3, background: '#e67e22' } }).png().toBuffer();
    const chooser2 = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload a cover photo' }).click();
    await (await chooser2).setFiles({ name: 'cover.png', mimeType: 'image/png', buffer: cover });
    await expect.poll(() => page.getByTestId('cover-preview').evaluate((el) => getComputedStyle(el).backgroundImage)).toContain('/assets/uploads/files/');
    await shot(page, 'edit-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`**/user/${bob.userslug}`);
    await page.getByRole('heading', { name: 'Bob Builder' }).waitFor();
    expect(await page.getByTestId('profile-cover').evaluate((el) => getComputedStyle(el).backgroundImage)).toContain('/assets/uploads/files/');
    expect(await page.getByTestId('profile-location').textContent()).toContain('Bristol');
    expect(await page.getByTestId('profile-website').getAttribute('href')).toBe('https://bob.example.org');
    expect(await page.getByTestId('profile-age').textContent()).toMatch(/Age: \d\d/);
    await page.locator('#profile-signature').waitFor();
    expect(await page.locator('section:has(#profile-signature) em').textContent()).toBe('Yes we can!');
    expect(await page.locator('section:has(#profile-about) strong').textContent()).toBe('things');
    await shot(page, 'profile-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    await shot(page, 'profile-phone');
    await h.goto(page, `/user/${bob.userslug}/edit`);
    await page.getByLabel('Full name').waitFor();
    await shot(page, 'edit-phone');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Back to the letter avatar.
    await page.getByRole('button', { name: 'Use the letter avatar' }).click();
    await page.getByText('Your picture is now your letter avatar.').waitFor();
    expect(await page.locator('section img[src*="/assets/uploads/files/"]').count()).toBe(0);
  });

  it('another member is refused the edit page', async () => {
    const h = e2e();
    const page = await h.open(`/user/${h.data.bob.userslug}/edit`, { as: h.data.carol, viewport: DESKTOP });
    await page.getByText('You do not have enough privileges for this action.').first().waitFor();
  });

  it('picks a skin on the theme page (desktop and phone) and shows the email by the settings page\'s switch', async () => {
    const h = e2e();
    const { carol, bob } = h.data;
    const page = await h.open(`/user/${carol.userslug}/theme`, { as: carol, viewport: DESKTOP });
    // Checked in the forum's own skin (some Bootswatch skins have their own contrast faults).
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByText('Flatly').click();
    await page.getByText('Settings saved').first().waitFor();
    expect(await page.locator('#skin-flatly').isChecked()).toBe(true);
    await shot(page, 'theme-desktop');
    await page.setViewportSize(PHONE);
    await shot(page, 'theme-phone');
    expect((await h.forum.ctx.users.get(carol.uid))!.settings).toContain('"bootswatchSkin":"flatly"');
    // Settings: show the email to members.
    await h.goto(page, `/user/${carol.userslug}/settings`);
    await page.getByLabel('Show my email address on my profile').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Settings saved').first().waitFor();
    const other = await h.open(`/user/${carol.userslug}`, { as: bob, viewport: DESKTOP });
    expect(await other.getByTestId('profile-email').textContent()).toContain(carol.email!);
  });

  for (const [label, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`renders each profile list on the ${label}`, async () => {
      const h = e2e();
      const { bob } = h.data;
      const page = await h.open(`/user/${bob.userslug}/posts`, { as: bob, viewport });
      for (const list of LISTS) {
        await h.goto(page, `/user/${bob.userslug}/${list}`);
        await page.locator(`.account-nav [aria-current="page"][data-current="${list}"]`).waitFor();
        const items = page.locator('[data-testid="profile-posts"] > li, .topic-list > li, [data-testid="profile-users"] > li');
        const empty = page.getByTestId('profile-list-empty');
        await expect.poll(async () => (await items.count()) + (await empty.count()), { message: list }).toBeGreaterThan(0);
        // Every list of the seed holds something for bob (downvoted excepted).
        if (list !== 'downvoted') expect(await items.count(), list).toBeGreaterThan(0);
        await shot(page, `list-${list}-${label}`);
        expect(await seriousAxeViolations(page), list).toEqual([]);
      }
    });
  }
});
