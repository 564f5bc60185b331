import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('/forum');
});
afterAll(async () => {
  await h?.close();
});

const push = (event: string, data: unknown) => fetch(`${h.base}/test/emit?event=${encodeURIComponent(event)}&data=${encodeURIComponent(JSON.stringify(data))}`);

describe('live connection (spec §4, §7)', () => {
  it('connects members only, under the relative path, and shows pushed alerts', async () => {
    const guest = await h.open('/', { guest: true });
    const member = await h.open('/');
    await member.page.waitForSelector('html[data-socket=connected]', { state: 'attached' });
    await guest.page.waitForTimeout(500);
    expect(await guest.page.getAttribute('html', 'data-socket')).toBeNull();
    await push('event:alert', { alert_id: 'x', type: 'info', title: 'Hi', message: 'Pushed message' });
    await member.page.waitForSelector('[data-alert-id=x]');
    expect(await member.page.textContent('[data-alert-id=x]')).toContain('Pushed message');
    await guest.context.close();
    await member.context.close();
  });

  it('shows the spinner after a drop and reconnects on the next navigation', async () => {
    const { page, context } = await h.open('/recent');
    await page.waitForSelector('html[data-socket=connected]', { state: 'attached' });
    await fetch(`${h.base}/test/disconnect`);
    await page.waitForSelector('.connection-reconnecting', { timeout: 5000 });
    await page.click('.sidebar a[href="/forum/users"]');
    await page.waitForSelector('.connection-recovered', { timeout: 5000 });
    await page.waitForSelector('.connection-indicator', { state: 'detached', timeout: 5000 });
    await context.close();
  });

  it('shows a ban in a dialog that cannot be dismissed', async () => {
    const { page, context } = await h.open('/');
    await page.waitForSelector('html[data-socket=connected]', { state: 'attached' });
    await push('event:banned', { reason: 'spam' });
    await page.waitForSelector('.modal-dialog');
    expect(await page.textContent('.modal-body')).toBe('Sorry, this account has been banned (Reason: spam)');
    await page.keyboard.press('Escape');
    expect(await page.$('.modal-dialog')).not.toBeNull();
    expect(await page.$('.modal-header .btn-close')).toBeNull();
    await context.close();
  });
});
