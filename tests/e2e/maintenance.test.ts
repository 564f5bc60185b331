/** Maintenance mode in the browser (issue 52): the admin sets it on the advanced settings page; members see the page with the admin's message, an exempt group's member and the admin still use the forum. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => {
  const data = await seedSmall(forum);
  const admin = await forum.ctx.privileges.viewer(data.alice.uid);
  await forum.ctx.groups.create(admin, { name: 'Crew' });
  const crew = await forum.createUser({ username: 'crewmate' });
  await forum.ctx.groups.join('Crew', crew.uid);
  return { ...data, crew };
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
const MESSAGE = 'We are moving to a faster server. Back within the hour.';

describe('maintenance mode', () => {
  it('the admin turns it on with a message and an exempt group; a member sees the page, the crew and the admin the forum', async () => {
    const h = e2e();
    const admin = await h.open('/admin/settings/advanced', { as: h.data.alice, viewport: DESKTOP });
    // The help text names the exempt groups beside the administrators.
    expect(await admin.getByText('Only administrators and members of the groups listed below can use the forum.').isVisible()).toBe(true);
    await admin.getByLabel('Maintenance mode').check();
    await admin.getByLabel('Maintenance message').fill(MESSAGE);
    await admin.getByLabel('Groups that may use the forum during maintenance').fill('Crew');
    await shot(admin, 'admin-settings-maintenance-desktop');
    await admin.getByRole('button', { name: /Save/ }).first().click();
    await expect.poll(async () => (await h.forum.ctx.settings.get()).maintenanceMode).toBe(true);
    try {
      expect((await h.forum.ctx.settings.get()).maintenanceModeMessage).toBe(MESSAGE);
      for (const [viewport, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']] as const) {
        const page = await (await h.context({ as: h.data.bob, viewport })).newPage();
        const res = await page.goto(`${h.base}/recent`);
        expect(res?.status()).toBe(503);
        expect(res?.headers()['retry-after']).toBe('120');
        await expect.poll(() => page.getByRole('heading', { name: 'Under maintenance' }).isVisible()).toBe(true);
        expect(await page.getByText(MESSAGE).isVisible()).toBe(true);
        // The admin's words stand instead of the standard texts, not beside them.
        expect(await page.getByText('undergoing maintenance').count()).toBe(0);
        expect(await page.getByText('closed for a short while').count()).toBe(0);
        await shot(page, `maintenance-message-${name}`);
      }
      const crew = await h.open('/recent', { as: h.data.crew });
      expect(await crew.getByRole('heading', { name: 'Under maintenance' }).count()).toBe(0);
      // Without a message, the standard texts.
      await h.forum.ctx.settings.set({ maintenanceModeMessage: '' });
      const guest = await (await h.context()).newPage();
      await guest.goto(`${h.base}/recent`);
      await expect.poll(() => guest.getByText('closed for a short while').isVisible()).toBe(true);
      expect(await guest.getByText('undergoing maintenance').isVisible()).toBe(true);
      await h.goto(admin, '/recent');
      expect(await admin.getByRole('heading', { name: 'Under maintenance' }).count()).toBe(0);
    } finally {
      await h.forum.ctx.settings.set({ maintenanceMode: false });
    }
  });
});
