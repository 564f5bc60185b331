/** The backups admin page in the browser (issue 55): make a backup, see it listed, restore it by typing the forum's title; the maintenance page members see meanwhile. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => {
  await forum.ctx.settings.set({ siteTitle: 'Garden Club' });
  return seedSmall(forum);
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

describe('admin backups page', () => {
  it('makes a backup with a progress bar and lists it; restores it after the title is typed (desktop)', async () => {
    const h = e2e();
    const page = await h.open('/admin/advanced/backups', { as: h.data.alice, viewport: DESKTOP });
    await expect.poll(() => page.getByText('No backups yet.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Create a backup' }).click();
    // Queued as a job: the progress card shows until a process runs it.
    await expect.poll(() => page.getByText('Waiting to start…').isVisible()).toBe(true);
    await shot(page, 'admin-backups-queued-desktop');
    await h.forum.ctx.jobs.runDue();
    const row = page.locator('table.admin-backups tbody tr');
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.first().textContent()).toMatch(/on request/);
    await expect.poll(() => page.getByText(/Backup palaver-.* is ready\./).isVisible()).toBe(true);
    await shot(page, 'admin-backups-list-desktop');

    // A topic written after the backup: the restore takes the forum back to before it.
    const as = { ...(await h.forum.ctx.privileges.viewer(h.data.bob.uid)), master: true };
    const later = await h.forum.ctx.topics.create(as, { cid: h.data.general.cid, title: 'Written after the backup', content: 'The restore takes this away.' });

    await row
      .first()
      .getByRole('button', { name: /Restore/ })
      .click();
    const start = page.getByRole('button', { name: 'Replace the forum with this backup' });
    expect(await start.isDisabled()).toBe(true);
    await page.getByLabel("Type the forum's title, Garden Club, to confirm").fill('Garden');
    expect(await start.isDisabled()).toBe(true);
    await page.getByLabel("Type the forum's title, Garden Club, to confirm").fill('Garden Club');
    await shot(page, 'admin-backups-restore-confirm-desktop');
    await start.click();
    await expect.poll(() => page.getByText('Waiting to start…').isVisible()).toBe(true);
    await h.forum.ctx.jobs.runDue();
    await expect.poll(() => page.getByText(/The forum was restored from/).isVisible(), { timeout: 10_000 }).toBe(true);
    await shot(page, 'admin-backups-restored-desktop');
    expect(await h.forum.ctx.topics.get(later.topic.tid)).toBeFalsy();
  });

  it('fits a phone, with the schedule saved as settings', async () => {
    const h = e2e();
    const page = await h.open('/admin/advanced/backups', { as: h.data.alice, viewport: PHONE });
    await page.getByLabel('How often').selectOption('weekly');
    await page.getByLabel('Keep').fill('4');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await expect.poll(async () => (await h.forum.ctx.settings.get()).backupSchedule).toBe('weekly');
    expect((await h.forum.ctx.settings.get()).backupKeep).toBe(4);
    expect(await noSidewaysScroll(page)).toBe(true);
    await shot(page, 'admin-backups-phone');
    await h.forum.ctx.settings.set({ backupSchedule: 'off' });
  });

  it('shows members the maintenance page while the forum is in maintenance (phone)', async () => {
    const h = e2e();
    await h.forum.ctx.settings.set({ maintenanceMode: true });
    try {
      const page = await (await h.context({ as: h.data.bob, viewport: PHONE })).newPage();
      const res = await page.goto(`${h.base}/recent`);
      expect(res?.status()).toBe(503);
      expect(res?.headers()['retry-after']).toBe('120');
      await expect.poll(() => page.getByRole('heading', { name: 'Under maintenance' }).isVisible()).toBe(true);
      expect(await page.getByText('This community is undergoing maintenance').isVisible()).toBe(true);
      await shot(page, 'maintenance-phone');
    } finally {
      await h.forum.ctx.settings.set({ maintenanceMode: false });
    }
  });
});
