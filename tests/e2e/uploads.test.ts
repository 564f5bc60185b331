/** Uploads in the browser (issue 12 part 2): paste an image into the composer, the account uploads page, an uploaded SVG that cannot run script. */
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, topicPath, useE2E } from './harness.js';

const e2e = useE2E(seedSmall);

const composer = (page: Page) => page.locator('.composer');
const body = (page: Page) => composer(page).locator('textarea');
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled' });
const pngBase64 = async () => (await sharp({ create: { width: 320, height: 160, channels: 3, background: { r: 30, g: 140, b: 200 } } }).png().toBuffer()).toString('base64');

/** Pastes a PNG into the textarea as the clipboard would (a ClipboardEvent carrying a File). */
async function pastePng(page: Page, b64: string): Promise<void> {
  await body(page).evaluate((el: HTMLTextAreaElement, data: string) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
    el.focus();
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, b64);
}

describe('uploads', () => {
  it('pastes an image into the composer: the markdown goes in at the caret, the preview shows it, the post has it', async () => {
    const h = e2e();
    const { welcome, bob } = h.data;
    const page = await h.open(topicPath(welcome), { as: bob, viewport: DESKTOP });
    await page.locator('.page-header').getByRole('button', { name: 'Reply' }).click();
    await body(page).click();
    await page.keyboard.type('Before the picture. ');
    await pastePng(page, await pngBase64());
    await page.keyboard.type('typed while uploading');
    await expect.poll(() => body(page).inputValue()).toMatch(/^Before the picture\. !\[pasted-\d+\.png\]\(\/forum\/assets\/uploads\/files\/[0-9a-f/]+\.png\)/);
    expect(await body(page).inputValue()).toContain('typed while uploading');
    const preview = composer(page).locator('.composer-preview');
    const img = preview.locator('img[src*="/assets/uploads/files/"]');
    await img.waitFor();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(320);
    await shot(page, 'uploads-composer-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await composer(page).getByRole('button', { name: 'Submit' }).click();
    await page.locator('[component="post/content"] img[src*="/assets/uploads/files/"], .post-content img[src*="/assets/uploads/files/"]').first().waitFor();
  });

  it('uploads with the file picker on a phone and shows the progress bar', async () => {
    const h = e2e();
    const { welcome, carol } = h.data;
    const page = await h.open(topicPath(welcome), { as: carol, viewport: PHONE });
    await page.locator('.page-header').getByRole('button', { name: 'Reply' }).click();
    await body(page).click();
    await page.keyboard.type('From my phone: ');
    // The answer is held back a little, so the progress bar can be seen.
    await page.route('**/api/post/upload', async (route) => {
      await new Promise((r) => setTimeout(r, 1000));
      await route.continue();
    });
    const chooser = page.waitForEvent('filechooser');
    await composer(page).locator('[data-action="upload"]').click();
    await (await chooser).setFiles({ name: 'phone.png', mimeType: 'image/png', buffer: Buffer.from(await pngBase64(), 'base64') });
    const bar = composer(page).locator('.composer-upload-progress[role="progressbar"]');
    await bar.waitFor();
    await shot(page, 'uploads-progress-phone');
    // The answer is held 1 s, then the image is processed: wait longer than the default second.
    await expect.poll(() => bar.count(), { timeout: 10_000 }).toBe(0);
    await page.unroute('**/api/post/upload');
    await expect.poll(() => body(page).inputValue()).toMatch(/!\[phone\.png\]\(\/forum\/assets\/uploads\/files\/[0-9a-f/]+\.png\)/);
    await shot(page, 'uploads-composer-phone');
    // A refused file: the error is shown by its key, the text stays.
    const chooser2 = page.waitForEvent('filechooser');
    await composer(page).locator('[data-action="upload"]').click();
    await (await chooser2).setFiles({ name: 'evil.png', mimeType: 'image/png', buffer: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(100, 1)]) });
    await page.locator('.alert-danger, [role="alert"]').filter({ hasText: 'cannot be uploaded' }).first().waitFor();
    expect(await body(page).inputValue()).toMatch(/^From my phone: !\[phone\.png\]/);
    expect(await body(page).inputValue()).not.toContain('Uploading');
  });

  it('lists the member\'s uploads on the account page and deletes one', async () => {
    const h = e2e();
    const { bob } = h.data;
    const viewer = await h.forum.ctx.privileges.viewer(bob.uid);
    for (const [i, color] of ['#c33', '#3a3', '#36c'].entries()) {
      const bytes = await sharp({ create: { width: 200 + i, height: 120, channels: 3, background: color } }).png().toBuffer();
      await h.forum.ctx.uploads.upload(viewer, [{ name: `holiday-${i + 1}.png`, bytes }]);
    }
    await h.forum.ctx.uploads.upload(viewer, [{ name: 'notes.txt', bytes: Buffer.from('shopping list') }]).catch(() => undefined);
    const page = await h.open(`/user/${bob.userslug}/uploads`, { as: bob, viewport: DESKTOP });
    const items = page.locator('[data-testid="uploads-list"] li');
    await items.first().waitFor();
    const before = await items.count();
    expect(before).toBeGreaterThan(0);
    await shot(page, 'uploads-account-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);
    page.on('dialog', (d) => void d.accept());
    await items.first().getByRole('button', { name: /Delete/ }).click();
    await expect.poll(() => items.count()).toBe(before - 1);
    await page.setViewportSize(PHONE);
    await shot(page, 'uploads-account-phone');
  });

  it('serves an uploaded SVG so that its script never runs', async () => {
    const h = e2e();
    const { alice } = h.data;
    await h.forum.ctx.settings.set({ allowedFileExtensions: 'png,jpg,gif,webp,svg,txt' });
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><script>alert("xss");document.documentElement.setAttribute("data-ran","1")</script><rect width="40" height="40" fill="red"/></svg>';
    const [row] = await h.forum.ctx.uploads.upload(await h.forum.ctx.privileges.viewer(alice.uid), [{ name: 'evil.svg', bytes: Buffer.from(svg) }]);
    // A context of its own: the blocked script is reported as a policy violation, which is the point here.
    const ctx = await h.browser.newContext();
    try {
      const page = await ctx.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      const res = await page.goto(`${h.base}/assets/uploads/${row!.path}`);
      expect(res?.status()).toBe(200);
      const headers = res!.headers();
      expect(headers['content-type']).toBe('image/svg+xml');
      expect(headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
      expect(headers['x-content-type-options']).toBe('nosniff');
      await page.waitForTimeout(300);
      expect(dialogs).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.getAttribute('data-ran'))).toBeNull();
    } finally {
      await ctx.close();
    }
  });

  it('changes the profile picture with the button on the avatar (desktop and phone)', async () => {
    const h = e2e();
    const { carol } = h.data;
    const page = await h.open(`/user/${carol.userslug}`, { as: carol, viewport: DESKTOP });
    const button = page.getByRole('button', { name: 'Change picture' });
    await button.waitFor();
    await shot(page, 'uploads-picture-before-desktop');
    const chooser = page.waitForEvent('filechooser');
    await button.click();
    const bytes = await sharp({ create: { width: 800, height: 500, channels: 3, background: '#e07b39' } }).jpeg().toBuffer();
    await (await chooser).setFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: bytes });
    const img = page.locator('img.profile-avatar[src*="/assets/uploads/files/"]');
    await img.waitFor();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(512);
    await shot(page, 'uploads-picture-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    await shot(page, 'uploads-picture-phone');
    // Another member sees no button.
    const other = await h.open(`/user/${carol.userslug}`, { as: h.data.bob, viewport: PHONE });
    await other.locator('.profile-avatar').first().waitFor();
    expect(await other.getByRole('button', { name: 'Change picture' }).count()).toBe(0);
  });
});
