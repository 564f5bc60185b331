/** The captcha provider in the browser (issue 13 part 5): the admin chooses reCAPTCHA with its keys (the secret never comes back); the register page with ALTCHA, the default, asks nothing of a third party. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => seedSmall(forum));
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });

describe('captcha provider', () => {
  it('the register page with ALTCHA requests nothing from another origin and solves its challenge (phone)', async () => {
    const h = e2e();
    await h.forum.ctx.settings.set({ 'captcha:register': true, 'captcha:provider': 'altcha' });
    try {
      const page = await h.open('/register', { viewport: PHONE });
      const origins = new Set<string>();
      page.on('request', (r) => origins.add(new URL(r.url()).origin));
      await page.reload();
      await page.locator('#altcha-captcha[data-state="done"]').waitFor({ timeout: 20_000 });
      expect([...origins].filter((o) => o !== new URL(h.forum.baseUrl).origin && !o.startsWith('data:'))).toEqual([]);
      expect(await page.locator('script[src*="google"], script[src*="hcaptcha"]').count()).toBe(0);
      await shot(page, 'register-altcha-phone');
    } finally {
      await h.forum.ctx.settings.set({ 'captcha:register': false });
    }
  });

  it('the admin chooses reCAPTCHA and sets its keys; the secret is not shown again (desktop, then phone)', async () => {
    const h = e2e();
    const page = await h.open('/admin/settings/user', { as: h.data.alice, viewport: DESKTOP });
    const provider = page.getByLabel('Captcha provider');
    expect(await provider.inputValue()).toBe('altcha');
    await provider.selectOption('recaptcha');
    await page.getByLabel('Captcha site key').fill('6LeExampleSiteKey');
    await page.getByLabel('Captcha secret key').fill('the-secret-key-42');
    // The save's answer first: a busy machine can take longer than a poll to answer it.
    const saved = page.waitForResponse((r) => r.request().method() !== 'GET' && r.url().includes('/admin/settings'), { timeout: 20_000 });
    await page.getByTestId('settings-save').click();
    expect((await saved).status()).toBe(200);
    expect((await h.forum.ctx.settings.get())['captcha:provider']).toBe('recaptcha');
    const s = await h.forum.ctx.settings.get();
    expect([s['captcha:siteKey'], s['captcha:secretKey']]).toEqual(['6LeExampleSiteKey', 'the-secret-key-42']);
    await page.getByLabel('Captcha provider').scrollIntoViewIfNeeded();
    await shot(page, 'admin-captcha-settings-desktop');
    try {
      const phone = await h.open('/admin/settings/user', { as: h.data.alice, viewport: PHONE });
      await expect.poll(() => phone.getByLabel('Captcha provider').inputValue()).toBe('recaptcha');
      expect(await phone.getByLabel('Captcha secret key').inputValue()).toBe('');
      expect(await phone.content()).not.toContain('the-secret-key-42');
      await phone.getByLabel('Captcha provider').scrollIntoViewIfNeeded();
      await shot(phone, 'admin-captcha-settings-phone');
    } finally {
      await h.forum.ctx.settings.set({ 'captcha:provider': 'altcha', 'captcha:siteKey': '', 'captcha:secretKey': '' });
    }
  });
});
