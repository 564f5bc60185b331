/** Web push in the browser (issue 10 part 7): the account page `web-push`. */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushMessage } from '../../src/shared/schemas/push.js';
import { TestBrowser, TestPushService } from '../../src/server/domains/push/test-push.js';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, useE2E } from './harness.js';

const e2e = useE2E(seedSmall);
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });

/**
 * Headless Chromium offline has no push service to subscribe with, so the page gets a
 * PushManager and a notification permission that behave as a browser's would, with the keys a
 * browser would make (made by the test, which decrypts what the forum then sends).
 */
async function fakePushBrowser(page: Page, sub: { endpoint: string; keys: { p256dh: string; auth: string } }): Promise<void> {
  await page.addInitScript((s) => {
    let permission: NotificationPermission = 'default';
    let current: object | null = null;
    const subscription = () => ({
      endpoint: s.endpoint,
      expirationTime: null,
      toJSON: () => ({ endpoint: s.endpoint, expirationTime: null, keys: s.keys }),
      unsubscribe: async () => {
        current = null;
        return true;
      },
    });
    const pushManager = {
      getSubscription: async () => current,
      subscribe: async (o: { userVisibleOnly: boolean; applicationServerKey: Uint8Array }) => {
        if (permission !== 'granted' || !o.userVisibleOnly || o.applicationServerKey.length !== 65) throw new Error('subscribe refused');
        (window as unknown as { __vapidKey: number[] }).__vapidKey = [...o.applicationServerKey];
        return (current = subscription());
      },
    };
    const registration = { scope: `${location.origin}/`, pushManager };
    Object.defineProperty(Notification, 'permission', { get: () => permission });
    Notification.requestPermission = async () => (permission = 'granted');
    const sw = navigator.serviceWorker;
    Object.defineProperty(sw, 'register', { value: async () => registration });
    Object.defineProperty(sw, 'getRegistration', { value: async () => registration });
    Object.defineProperty(sw, 'ready', { get: async () => registration });
  }, sub);
}

describe('web push page', () => {
  let service: TestPushService;
  beforeAll(async () => {
    service = await new TestPushService().start();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('headless Chromium: the page renders; with notifications refused it says so clearly', async () => {
    const h = e2e();
    const { carol } = h.data;
    const page = await h.open(`/user/${carol.userslug}/web-push`, { as: carol });
    expect(await page.locator('h1').textContent()).toBe('Push notifications');
    const state = page.getByTestId('web-push-state');
    await expect.poll(() => state.getAttribute('data-state')).toBe('off');
    expect(await page.getByTestId('web-push-no-devices').textContent()).toBe('No browser receives push notifications yet.');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'web-push-desktop');
    // Headless Chromium refuses notifications (a prompt from a click is never answered): once
    // refused, the page says so and offers no button that cannot work.
    expect(await page.evaluate(() => Notification.requestPermission())).toBe('denied');
    await h.goto(page, `/user/${carol.userslug}/web-push`);
    await expect.poll(() => state.getAttribute('data-state')).toBe('denied');
    expect(await state.textContent()).toContain('Notifications are blocked for this site');
    expect(await page.getByTestId('web-push-enable').count()).toBe(0);
    await shot(page, 'web-push-denied-desktop');
  });

  it('a browser without push support gets a clear message', async () => {
    const h = e2e();
    const { bob } = h.data;
    const context = await h.context({ as: bob, viewport: PHONE });
    const page = await context.newPage();
    await page.addInitScript(() => {
      delete (window as unknown as { PushManager?: unknown }).PushManager;
    });
    await h.goto(page, `/user/${bob.userslug}/web-push`);
    const state = page.getByTestId('web-push-state');
    await expect.poll(() => state.getAttribute('data-state')).toBe('unsupported');
    expect(await state.textContent()).toBe('This browser does not support push notifications.');
    expect(await page.getByTestId('web-push-enable').count()).toBe(0);
  });

  it('turns push on: the subscription reaches the forum, a notification is pushed to it, then it is turned off', async () => {
    const h = e2e();
    const { bob, carol, welcome } = h.data;
    const browser = new TestBrowser();
    const endpoint = service.endpoint('e2e-carol');
    const context = await h.context({ as: carol, viewport: PHONE });
    const page = await context.newPage();
    await fakePushBrowser(page, browser.subscription(endpoint));
    await h.goto(page, `/user/${carol.userslug}/web-push`);
    const state = page.getByTestId('web-push-state');
    await expect.poll(() => state.getAttribute('data-state')).toBe('off');
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/plugins/web-push/subscription') && r.status() === 200),
      page.getByTestId('web-push-enable').click(),
    ]);
    await expect.poll(() => state.getAttribute('data-state')).toBe('on');
    // The page subscribed with the forum's VAPID key.
    const vapid = await page.evaluate(() => (window as unknown as { __vapidKey: number[] }).__vapidKey);
    expect(Buffer.from(vapid).toString('base64url')).toBe(await h.forum.ctx.push.publicKey());
    const devices = page.getByTestId('web-push-devices').locator('li');
    expect(await devices.count()).toBe(1);
    expect(await devices.first().textContent()).toContain('This browser');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'web-push-phone');

    // A notification for carol is pushed to that subscription.
    const { rows } = await h.forum.ctx.notifications.list(await h.forum.ctx.privileges.viewer(carol.uid), { page: 1, perPage: 1 });
    const n =
      rows[0] ??
      (
        await h.forum.ctx.notifications.notify({
          type: 'new-reply',
          mergeKey: `new_post:tid:${welcome.tid}`,
          subject: { type: 'post', id: welcome.main_pid },
          from: bob.uid,
          path: `/post/${welcome.main_pid}`,
          bodyKey: 'notifications:user-posted-to',
          params: [welcome.title],
          tid: welcome.tid,
          uids: [carol.uid],
        })
      )[0]!;
    service.received = [];
    await h.forum.ctx.hooks.fire('action:notifications.push', { uids: [carol.uid], notification: n });
    await h.forum.ctx.hooks.idle();
    await h.forum.ctx.jobs.runDue(Date.now());
    const got = service.to('e2e-carol');
    expect(got.length).toBeGreaterThanOrEqual(1);
    const message = browser.decrypt(got[0]!.body) as PushMessage;
    expect(message.url).toBe(`${h.forum.ctx.config.url}${n.path}`);
    expect(message.title).toBe('Palaver');

    // Off again: the forum forgets the browser.
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/plugins/web-push/subscription') && r.request().method() === 'DELETE'),
      page.getByTestId('web-push-disable').click(),
    ]);
    await expect.poll(() => state.getAttribute('data-state')).toBe('off');
    expect(await page.getByTestId('web-push-no-devices').count()).toBe(1);
    expect(await h.forum.ctx.push.devices(carol.uid)).toEqual([]);
  });

  it('an admin sees a member\u2019s devices and may remove them; another member gets the 403 page', async () => {
    const h = e2e();
    const { alice, bob, carol } = h.data;
    const browser = new TestBrowser();
    await h.forum.ctx.push.subscribe(
      await h.forum.ctx.privileges.viewer(bob.uid),
      browser.subscription(service.endpoint('e2e-bob')),
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
    );
    const page = await h.open(`/user/${bob.userslug}/web-push`, { as: alice, viewport: DESKTOP });
    expect(await page.getByRole('status').first().textContent()).toContain('Only bob can turn on push notifications');
    const devices = page.getByTestId('web-push-devices').locator('li');
    expect(await devices.first().textContent()).toContain('Chrome · Linux');
    await shot(page, 'web-push-admin-desktop');
    await page.getByRole('button', { name: /Remove/ }).click();
    await expect.poll(() => page.getByTestId('web-push-no-devices').count()).toBe(1);
    expect(await h.forum.ctx.push.devices(bob.uid)).toEqual([]);

    const other = await h.open(`/user/${bob.userslug}/web-push`, { as: carol });
    expect(await other.locator('h1').textContent()).toBe('Access denied');
  });
});
