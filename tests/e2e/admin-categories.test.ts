/** The admin categories pages in the browser (issue 16 §5, §9): drag and drop, the phone's buttons, edit and save, the delete dialog. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => {
  const data = await seedSmall(forum);
  const { SYSTEM } = await import('../../src/server/setup.js');
  const drag = await forum.ctx.categories.create(SYSTEM, { name: 'Drag Me', icon: 'fa-star', bgColor: '#8e44ad' });
  const phone = await forum.ctx.categories.create(SYSTEM, { name: 'Phone Moves', icon: 'fa-bell', bgColor: '#e67e22' });
  return { ...data, drag, phone };
});

// Toasts closed and scrolled to the top, so the picture shows the page itself.
async function shot(page: Page, name: string) {
  for (const close of await page.locator('.alert-toast button[aria-label="Close"]').all()) await close.click().catch(() => undefined);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
}
// The admin layout's phone Menu button (the lead's AdminLayout) is left out: this file checks what its pages render.
async function axeOfPage(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const v of await seriousAxeViolations(page)) {
    const [head, nodes] = [v.slice(0, v.indexOf('): ') + 3), v.slice(v.indexOf('): ') + 3).split(', ')];
    const kept: string[] = [];
    for (const sel of nodes) {
      const isMenu = await page.evaluate((s) => !!document.querySelector(s)?.matches('button[aria-controls="admin-nav"]'), sel).catch(() => false);
      if (!isMenu) kept.push(sel);
    }
    if (kept.length) out.push(head + kept.join(', '));
  }
  return out;
}

const row = (page: Page, cid: number) => page.locator(`li[data-cid="${cid}"]`);
const putDone = (page: Page, cid: number) => page.waitForResponse((r) => r.url().endsWith(`/api/v3/categories/${cid}`) && r.request().method() === 'PUT' && r.status() === 200);

describe('admin categories', () => {
  it('drags a category into another with one request, then edits and saves it (desktop)', async () => {
    const h = e2e();
    const { forum, data } = h;
    const page = await h.open('/admin/manage/categories', { as: data.alice, viewport: DESKTOP });
    await expect.poll(() => row(page, data.drag.cid).count()).toBe(1);
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/api/v3/categories/')) puts.push(r.url());
    });
    const target = row(page, data.general.cid);
    const box = (await target.boundingBox())!;
    // The middle of a row: into it (a subcategory).
    await Promise.all([putDone(page, data.drag.cid), row(page, data.drag.cid).dragTo(target, { targetPosition: { x: box.width / 2, y: box.height / 2 } })]);
    expect(puts).toHaveLength(1);
    expect((await forum.ctx.categories.get(data.drag.cid))!.parent_cid).toBe(data.general.cid);
    await expect.poll(() => row(page, data.drag.cid).getAttribute('style')).toContain('padding-inline-start: 2.25rem');
    await shot(page, 'admin-categories-tree-desktop');
    expect(await axeOfPage(page)).toEqual([]);
    // The public categories page shows it under its new parent.
    const pub = (await forum.client().get('/api/categories')).body as { categories: { cid: number; children: { cid: number }[] }[] };
    expect(pub.categories.find((c) => c.cid === data.general.cid)!.children.map((c) => c.cid)).toContain(data.drag.cid);

    await row(page, data.drag.cid).getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(new RegExp(`/admin/manage/categories/${data.drag.cid}$`));
    await page.getByLabel('Name', { exact: true }).fill('Dragged and Renamed');
    await page.getByLabel('Description').fill('Now **edited** in the admin area.');
    await page.getByLabel('Allowed tags').fill('alpha, beta');
    // A bad colour: a clear 400, nothing typed lost.
    await page.locator('#cat-bg').fill('not-a-colour');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.locator('.alert-danger, [role=alert]').filter({ hasText: /colour|color/i }).count()).toBeGreaterThan(0);
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Dragged and Renamed');
    await page.locator('#cat-bg').fill('#336699');
    await Promise.all([putDone(page, data.drag.cid), page.getByRole('button', { name: 'Save changes' }).click()]);
    const saved = (await forum.ctx.categories.get(data.drag.cid))!;
    expect(saved).toMatchObject({ name: 'Dragged and Renamed', bg_color: '#336699', tag_whitelist: 'alpha,beta' });
    expect(saved.description_parsed).toContain('<strong>edited</strong>');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Dragged and Renamed');
    await shot(page, 'admin-category-edit-desktop');
    expect(await axeOfPage(page)).toEqual([]);
  });

  it('moves with the buttons and deletes a category with its topics moved (phone)', async () => {
    const h = e2e();
    const { forum, data } = h;
    const page = await h.open('/admin/manage/categories', { as: data.alice, viewport: PHONE });
    await expect.poll(() => row(page, data.phone.cid).count()).toBe(1);
    const before = (await forum.ctx.categories.get(data.phone.cid))!.position;
    await Promise.all([putDone(page, data.phone.cid), row(page, data.phone.cid).getByRole('button', { name: 'Move up' }).click()]);
    expect((await forum.ctx.categories.get(data.phone.cid))!.position).toBe(before - 1);
    // Indent: a subcategory of the one above it.
    const above = (await forum.ctx.db.selectFrom('categories').select('cid').where('parent_cid', '=', 0).where('position', '=', before - 2).executeTakeFirstOrThrow()).cid;
    await expect.poll(() => row(page, data.phone.cid).getByRole('button', { name: 'Make it a subcategory of the one above' }).isEnabled()).toBe(true);
    await Promise.all([putDone(page, data.phone.cid), row(page, data.phone.cid).getByRole('button', { name: 'Make it a subcategory of the one above' }).click()]);
    expect((await forum.ctx.categories.get(data.phone.cid))!.parent_cid).toBe(above);
    await shot(page, 'admin-categories-tree-phone');
    expect(await axeOfPage(page)).toEqual([]);

    // Help & Support holds a topic: the dialog asks where it goes.
    const help = data.help.cid;
    const generalBefore = (await forum.ctx.categories.get(data.general.cid))!;
    await row(page, help).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText('This category holds 1 topics and 1 posts.').count()).toBe(1);
    await dialog.getByLabel('Move the topics to').selectOption(String(data.general.cid));
    await shot(page, 'admin-categories-delete-phone');
    expect(await axeOfPage(page)).toEqual([]);
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith(`/api/v3/categories/${help}`) && r.request().method() === 'DELETE' && r.status() === 200),
      dialog.getByRole('button', { name: 'Delete category' }).click(),
    ]);
    expect(await forum.ctx.categories.get(help)).toBeNull();
    expect((await forum.ctx.topics.get(data.avatar.tid))!.cid).toBe(data.general.cid);
    const general = (await forum.ctx.categories.get(data.general.cid))!;
    expect(general.topic_count).toBe(generalBefore.topic_count + 1);
    expect(general.post_count).toBe(generalBefore.post_count + 1);
    await expect.poll(() => row(page, help).count()).toBe(0);

    // The edit page and the analytics bars on a phone.
    await h.goto(page, `/admin/manage/categories/${data.general.cid}`);
    await expect.poll(() => page.getByRole('button', { name: 'Save changes' }).count()).toBe(1);
    await shot(page, 'admin-category-edit-phone');
    await h.goto(page, `/admin/manage/categories/${data.general.cid}/analytics`);
    await expect.poll(() => page.locator('[data-series="cat-topics"] > div').count()).toBe(30);
    await shot(page, 'admin-category-analytics-phone');
    expect(await axeOfPage(page)).toEqual([]);
  });
});
