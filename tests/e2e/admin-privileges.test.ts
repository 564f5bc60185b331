/** The privileges matrix, a group edit and a reward rule in the browser (issue 16 §5 and §7). */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => {
  const data = await seedSmall(forum);
  const as = { ...(await forum.ctx.privileges.viewer(data.alice.uid)), master: true };
  const crew = await forum.ctx.groups.create(as, { name: 'Garden Crew', description: 'People who garden.' });
  return { ...data, crew };
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
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

describe('admin privileges', () => {
  for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`toggles a category privilege in the matrix and it sticks (${device})`, async () => {
      const h = e2e();
      const { forum, data } = h;
      const cid = data.help.cid;
      const page = await h.open(`/admin/manage/privileges/${cid}`, { as: data.alice, viewport });
      const box = page.locator(`input[data-member="registered-users"][data-privilege="topics:create"]`);
      await expect.poll(() => box.isChecked()).toBe(true);
      const bob = await forum.ctx.privileges.viewer(data.bob.uid);
      expect(await forum.ctx.privileges.can(bob, 'topics:create', cid)).toBe(true);
      await box.click();
      await expect.poll(async () => (await forum.ctx.privileges.list(cid))['topics:create']?.includes('registered-users') ?? false).toBe(false);
      expect(await forum.ctx.privileges.can(bob, 'topics:create', cid)).toBe(false);
      // The matrix scrolls sideways; the group column stays put.
      const wrap = page.locator('[data-testid="privilege-matrix"]');
      const widths = await wrap.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(widths.scroll).toBeGreaterThan(widths.client);
      const cell = page.locator('tbody tr th').first();
      const before = await cell.boundingBox();
      await wrap.evaluate((el) => el.scrollBy({ left: 400 }));
      const after = await cell.boundingBox();
      expect(Math.round(after!.x)).toBe(Math.round(before!.x));
      await wrap.evaluate((el) => el.scrollTo({ left: 0 }));
      await shot(page, `admin-privileges-matrix-${device}`);
      await page.reload();
      await expect.poll(() => page.locator(`input[data-member="registered-users"][data-privilege="topics:create"]`).isChecked()).toBe(false);
      expect(await axeOfPage(page)).toEqual([]);
      await page.locator(`input[data-member="registered-users"][data-privilege="topics:create"]`).click();
      await expect.poll(async () => (await forum.ctx.privileges.list(cid))['topics:create']?.includes('registered-users') ?? false).toBe(true);
    });
  }

  it('edits a group: description, badge colour and private switch; adds a member', async () => {
    const h = e2e();
    const { forum, data } = h;
    const page = await h.open('/admin/manage/groups', { as: data.alice });
    await page.getByRole('link', { name: 'Garden Crew' }).first().click();
    await page.waitForURL(/\/admin\/manage\/groups\/garden-crew/);
    await page.getByLabel('Description').fill('Green thumbs welcome.');
    await page.getByLabel('Badge text', { exact: true }).fill('Gardener');
    await page.getByLabel('Private (owners approve join requests)').uncheck();
    // Saving reloads the page (a fresh mount): wait for that reload before typing into the new form.
    const reloaded = page.waitForResponse((r) => r.url().includes('/api/admin/manage/groups/garden-crew'));
    await page.getByRole('button', { name: 'Save' }).click();
    await reloaded;
    await expect.poll(async () => (await forum.ctx.db.selectFrom('groups').select(['description', 'user_title', 'private']).where('name', '=', 'Garden Crew').executeTakeFirst())).toEqual({ description: 'Green thumbs welcome.', user_title: 'Gardener', private: 0 });
    await expect.poll(() => page.getByLabel('Description').inputValue()).toBe('Green thumbs welcome.');
    await page.getByLabel('User ID to add').fill(String(data.carol.uid));
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(async () => (await forum.ctx.groups.members('Garden Crew')).includes(data.carol.uid)).toBe(true);
    await expect.poll(() => page.locator('.list-group-item', { hasText: 'carol' }).count()).toBe(1);
    await shot(page, 'admin-group-edit-desktop');
    expect(await axeOfPage(page)).toEqual([]);
    const phone = await h.open('/admin/manage/groups', { as: data.alice, viewport: PHONE });
    await expect.poll(() => phone.getByRole('link', { name: 'Garden Crew' }).first().isVisible()).toBe(true);
    await shot(phone, 'admin-groups-phone');
  });

  it('adds a reward rule, disables it, and a member who crosses it joins the group', async () => {
    const h = e2e();
    const { forum, data } = h;
    const page = await h.open('/admin/extend/rewards', { as: data.alice, viewport: PHONE });
    await page.getByLabel("When a member's").selectOption('postcount');
    await page.getByLabel('reaches').fill('1');
    await page.getByLabel('add them to').selectOption('Garden Crew');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => page.locator('[data-testid="reward-rule"]').count()).toBe(1);
    // bob has posts already: the sweep queued by the new rule gives him the reward.
    await forum.ctx.jobs.runDue(Date.now() + 1000);
    await expect.poll(async () => (await forum.ctx.groups.members('Garden Crew')).includes(data.bob.uid)).toBe(true);
    await page.reload();
    // alice, bob and carol have each posted: three rewards given.
    await expect.poll(() => page.locator('[data-testid="reward-rule"]').first().textContent()).toContain('given 3');
    await shot(page, 'admin-rewards-phone');
    await page.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => page.locator('[data-testid="reward-rule"] .badge', { hasText: 'disabled' }).count()).toBe(1);
    expect((await forum.ctx.db.selectFrom('rewards').select('disabled').executeTakeFirst())?.disabled).toBe(1);
    const desk = await h.open('/admin/extend/rewards', { as: data.alice, viewport: DESKTOP });
    await shot(desk, 'admin-rewards-desktop');
    expect(await axeOfPage(desk)).toEqual([]);
  });
});
