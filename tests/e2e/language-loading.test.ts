/**
 * Language files per namespace (issue 56): a guest's first page downloads only the namespaces
 * that page needs (src/client/i18n/page-namespaces.ts), a page the guest goes to next brings
 * its own, and no text is missing on either. The bytes of the first page are logged.
 */
import { describe, expect, it } from 'vitest';
import { seedSmall, useE2E } from './harness.js';

const e2e = useE2E(seedSmall);

describe('language files a page downloads', () => {
  it("a guest's first page loads only its namespaces; going to the register page loads that page's", async () => {
    const h = e2e();
    const ctx = await h.context({ locale: 'de' });
    const page = await ctx.newPage();
    const sizes: { url: string; bytes: number }[] = [];
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (/\[i18n\]/.test(m.text())) warnings.push(m.text());
    });
    page.on('requestfinished', (r) => {
      void r.sizes().then((s) => sizes.push({ url: r.url(), bytes: s.responseBodySize + s.responseHeadersSize }));
    });
    await h.goto(page, '/');
    await page.waitForLoadState('networkidle');
    const names = () => sizes.filter((s) => s.url.includes('/language/')).map((s) => /\/language\/([^/]+)\/([^.]+)\.json/.exec(s.url)!.slice(1).join('/'));
    const first = names();
    const total = sizes.reduce((a, s) => a + s.bytes, 0);
    const langBytes = sizes.filter((s) => s.url.includes('/language/')).reduce((a, s) => a + s.bytes, 0);
    console.log(`guest home (de): ${sizes.length} requests, ${total} bytes; language files: ${first.length} requests, ${langBytes} bytes (${first.join(', ')})`);
    expect(first).toEqual(expect.arrayContaining(['de/global', 'de/category', 'de/error']));
    for (const ns of ['register', 'login', 'groups', 'email', 'ip-blacklist', 'admin', 'reset_password']) expect(first).not.toContain(`de/${ns}`);
    expect(await page.locator('h1, h2').first().textContent()).not.toBe('');
    // In the page: the register page's chunk and its namespace come together, the form in German.
    await page.locator('a[href$="/register"]').first().click();
    await expect.poll(() => page.locator('h1', { hasText: 'Registrieren' }).count()).toBeGreaterThan(0);
    expect(names()).toContain('de/register');
    expect(await page.getByText('Hast du schon ein Konto?').count()).toBeGreaterThan(0);
    expect(warnings).toEqual([]);
  });
});
