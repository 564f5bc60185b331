/**
 * The forum's real service worker in Chromium (spec §2, §8, §9): registered under the site
 * root (not in Safari), a failed registration only logged, and a web push from the forum's own
 * push sender shown as a notification whose click lands on the topic.
 *
 * What is real and what is not: the worker is dist/client's service-worker.js, registered by
 * the app through navigator.serviceWorker (nothing replaced). The push leaves the forum
 * encrypted (RFC 8291) over HTTP to a loopback push service (TestPushService); headless
 * Chromium has no push service of its own to subscribe to offline, so the test decrypts it
 * with the subscription's keys and hands the payload to the worker through the DevTools
 * protocol (ServiceWorker.deliverPushMessage), which fires the worker's real `push` event; the
 * worker's showNotification is real (read back with getNotifications). No protocol command
 * clicks a notification: the click is a `notificationclick` event dispatched inside the worker
 * on the notification it showed, so the worker's own handler runs (clients.matchAll,
 * postMessage) and the page navigates; being untrusted, its waitUntil is refused by the
 * browser, which a real click would not be.
 */
import type { Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushMessage } from '../../src/shared/schemas/push.js';
import { TestBrowser, TestPushService } from '../../src/server/domains/push/test-push.js';
import { seedSmall, topicPath, useE2E } from './harness.js';

const e2e = useE2E(seedSmall);

const SAFARI_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';

/** Records the app's calls to navigator.serviceWorker.register, and passes them on unchanged. */
async function watchRegister(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const calls: unknown[][] = [];
    (window as unknown as { __registerCalls: unknown[][] }).__registerCalls = calls;
    const container = navigator.serviceWorker;
    const register = container.register.bind(container);
    container.register = (...args: Parameters<ServiceWorkerContainer['register']>) => {
      calls.push(args.map((a) => (typeof a === 'object' ? JSON.parse(JSON.stringify(a)) : String(a))));
      return register(...args);
    };
  });
}
let pushService: TestPushService | null = null;
const registerCalls = (page: Page) => page.evaluate(() => (window as unknown as { __registerCalls: unknown[][] }).__registerCalls);

describe('service worker', () => {
  beforeAll(async () => {
    pushService = await new TestPushService().start();
  });
  afterAll(async () => {
    await pushService?.stop();
  });

  it('registers the real worker at {relative_path}/service-worker.js, scoped to the forum', async () => {
    const h = e2e();
    const { bob } = h.data;
    const context = await h.context({ as: bob, serviceWorkers: 'allow' });
    const page = await context.newPage();
    await watchRegister(page);
    await h.goto(page, '/recent');
    const reg = await page.evaluate(async () => {
      const r = await navigator.serviceWorker.ready;
      return { scope: r.scope, script: r.active?.scriptURL ?? '' };
    });
    expect(reg).toEqual({ scope: `${h.base}/`, script: `${h.base}/service-worker.js` });
    expect(await registerCalls(page)).toEqual([[`${h.rp}/service-worker.js`, { scope: `${h.rp}/` }]]);
    expect(context.serviceWorkers().map((w) => w.url())).toContain(`${h.base}/service-worker.js`);
  });

  it('does not register in Safari', async () => {
    const h = e2e();
    const { bob } = h.data;
    const context = await h.context({ as: bob, serviceWorkers: 'allow', userAgent: SAFARI_UA });
    const page = await context.newPage();
    await watchRegister(page);
    await h.goto(page, '/recent');
    expect(await registerCalls(page)).toEqual([]);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  });

  it('a failed registration is only logged: no error shown, the page works', async () => {
    const h = e2e();
    const { bob } = h.data;
    const context = await h.context({ as: bob, serviceWorkers: 'allow' });
    const page = await context.newPage();
    // The worker's script is missing (a broken deployment): the browser refuses the registration.
    await context.route('**/service-worker.js', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' }));
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await h.goto(page, '/recent');
    await expect.poll(() => warnings.some((w) => w.startsWith('[service-worker] registration failed'))).toBe(true);
    expect(await page.locator('.alert-toast').count()).toBe(0);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
    await page.locator('.sidebar').getByRole('link', { name: 'Tags' }).click();
    await page.waitForURL(`${h.base}/tags`);
  });

  it('shows a web push from the forum as a notification; its click brings the open tab to the topic', async () => {
    const h = e2e();
    const { carol } = h.data;
    const context = await h.context({ as: carol, serviceWorkers: 'allow' });
    await context.grantPermissions(['notifications'], { origin: new URL(h.base).origin });
    const page = await context.newPage();
    await h.goto(page, '/recent');
    await page.evaluate(async () => void (await navigator.serviceWorker.ready));
    const worker = context.serviceWorkers().find((w) => w.url() === `${h.base}/service-worker.js`)!;
    expect(worker).toBeDefined();

    // The forum's public address is the one the browser uses (the test forum's is set without its
    // port), as in production: the push's link is then one of the forum's own pages.
    const config = h.forum.ctx.config as { url: string };
    const siteUrl = config.url;
    config.url = h.base;
    try {
      await pushAndClick(page, worker);
    } finally {
      config.url = siteUrl;
    }
  });
});

/** The forum pushes a notification to carol's subscription; the worker shows it; it is clicked. */
async function pushAndClick(page: Page, worker: Worker) {
  const h = e2e();
  const { bob, carol, welcome } = h.data;
  const context = page.context();
  const service = pushService!;
  // Carol's browser is subscribed with the forum (keys as a browser makes them).
  const browser = new TestBrowser();
  await h.forum.ctx.push.subscribe(
    await h.forum.ctx.privileges.viewer(carol.uid),
    browser.subscription(service.endpoint('sw-carol')),
    'Mozilla/5.0 Chrome/120.0',
  );
  service.received = [];
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
  });
  await h.forum.ctx.hooks.idle();
  await expect
    .poll(async () => {
      await h.forum.ctx.jobs.runDue(Date.now());
      return service.to('sw-carol').length;
    })
    .toBeGreaterThanOrEqual(1);
  const message = browser.decrypt(service.to('sw-carol')[0]!.body) as PushMessage;
  expect(message.url).toBe(`${h.forum.ctx.config.url}/post/${welcome.main_pid}`);

  // The push reaches the worker's push event (the browser's push service's part, through DevTools).
  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
      const r = e.registrations.find((x) => x.scopeURL === `${h.base}/` && !x.isDeleted);
      if (r) resolve(r.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(h.base).origin, registrationId: await registrationId, data: JSON.stringify(message) });

  // The worker showed it.
  const shown = async () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        url: (n.data as { url?: string } | null)?.url,
      })),
    );
  await expect.poll(shown).toHaveLength(1);
  const [notification] = await shown();
  expect(notification).toEqual({ title: message.title, body: message.body, url: message.url });
  expect(notification!.body).toContain('Welcome to Palaver');

  // Clicked: the worker tells the open tab, which goes to the post's topic in-page.
  await page.evaluate(() => ((window as unknown as { __mark: number }).__mark = 1));
  await worker.evaluate(async () => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean };
    const [n] = await scope.registration.getNotifications();
    const Ev = (self as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }).NotificationEvent;
    try {
      scope.dispatchEvent(new Ev('notificationclick', { notification: n! }));
    } catch {
      // waitUntil refuses an untrusted event (see the file's comment); the handler ran up to it.
    }
  });
  await page.waitForURL(new RegExp(`${topicPath(welcome).replace(/[/.]/g, '\\$&')}`), { timeout: 10_000 });
  await page.locator('h1', { hasText: 'Welcome to Palaver' }).waitFor();
  expect(await page.evaluate(() => (window as unknown as { __mark?: number }).__mark)).toBe(1);
  await expect.poll(shown).toHaveLength(0);
}
