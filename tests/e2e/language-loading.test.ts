/**
 * Language files per namespace (issue 56): a guest's first page downloads only the namespaces
 * that page's render uses, and the bytes it downloads are measured.
 */
import { describe, expect, it } from 'vitest';
import { seedSmall, useE2E } from './harness.js';

const e2e = useE2E(seedSmall);

describe('language files a page downloads', () => {
  it("a guest's first page: the bytes it downloads", async () => {
    const h = e2e();
    const ctx = await h.context({});
    const page = await ctx.newPage();
    const sizes: { url: string; bytes: number }[] = [];
    page.on('requestfinished', (r) => {
      void r.sizes().then((s) => sizes.push({ url: r.url(), bytes: s.responseBodySize + s.responseHeadersSize }));
    });
    await h.goto(page, '/');
    await page.waitForLoadState('networkidle');
    const lang = sizes.filter((s) => s.url.includes('/language/'));
    const total = sizes.reduce((a, s) => a + s.bytes, 0);
    console.log(`guest home: ${sizes.length} requests, ${total} bytes; language files: ${lang.length} requests, ${lang.reduce((a, s) => a + s.bytes, 0)} bytes`);
    expect(total).toBeGreaterThan(0);
  });
});
