/**
 * Rows of the client spec built but not yet seen in a browser (issue 52): the socket's
 * checkSession with another member's uid makes the page ask for a reload (spec §4), a chat room
 * is entered again after a reconnection and its new messages arrive (spec §9), and the
 * third-party captcha's script is asked for in the reader's language (`hl`, spec §1).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/server/http/auth.js';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, useE2E } from './harness.js';

const e2e = useE2E(seedSmall);
const connected = (page: Page) => page.waitForSelector('html[data-socket=connected]', { state: 'attached', timeout: 10_000 });
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
const viewer = async (uid: number) => ({ ...(await e2e().forum.ctx.privileges.viewer(uid)), master: true });

/** Stops the forum, waits until the page sees its socket drop, and starts it again on the same port: the socket reconnects. */
async function restart(page: Page) {
  const h = e2e();
  await h.stopServer();
  try {
    await page.waitForSelector('html[data-socket=disconnected]', { state: 'attached', timeout: 5000 });
  } finally {
    await h.startServer();
  }
}

describe('client rows in the browser', () => {
  it('the captcha script is asked for in the reader\'s language (hl), and nothing is fetched from the provider here', async () => {
    const h = e2e();
    await h.forum.ctx.settings.set({ 'captcha:register': true, 'captcha:provider': 'recaptcha', 'captcha:siteKey': '6LeExampleSiteKey' });
    try {
      for (const [locale, hl] of [['de', 'de'], ['en-GB', 'en-GB']] as const) {
        const context = await h.context({ locale, viewport: locale === 'de' ? PHONE : DESKTOP });
        // The script element's address is recorded and pointed at a local path that does not
        // exist: the test makes no request to the provider (the harness fails on any).
        await context.addInitScript(() => {
          const desc = Object.getOwnPropertyDescriptor(HTMLScriptElement.prototype, 'src')!;
          Object.defineProperty(HTMLScriptElement.prototype, 'src', {
            configurable: true,
            get() {
              return desc.get!.call(this) as string;
            },
            set(value: string) {
              if (/^https:\/\/(www\.google\.com|js\.hcaptcha\.com)\//.test(value)) {
                (window as unknown as { captchaScript?: string }).captchaScript = value;
                desc.set!.call(this, '/assets/no-such-captcha.js');
              } else desc.set!.call(this, value);
            },
          });
        });
        const page = await context.newPage();
        await h.goto(page, '/register');
        await expect.poll(() => page.evaluate(() => (window as unknown as { captchaScript?: string }).captchaScript ?? '')).toContain(`&hl=${hl}`);
        const src = await page.evaluate(() => (window as unknown as { captchaScript: string }).captchaScript);
        expect(new URL(src).searchParams.get('hl')).toBe(hl);
        expect(src.startsWith('https://www.google.com/recaptcha/api.js?render=explicit')).toBe(true);
      }
    } finally {
      await h.forum.ctx.settings.set({ 'captcha:register': false, 'captcha:provider': 'altcha', 'captcha:siteKey': '' });
    }
  });

  it('a chat room is entered again after a reconnection: the next message arrives live', async () => {
    const h = e2e();
    const { alice, bob } = h.data;
    const room = await h.forum.ctx.chats.create(await viewer(alice.uid), { uids: [bob.uid], roomName: 'After the restart' });
    await h.forum.ctx.chats.send(await viewer(bob.uid), room.roomId, 'Before the restart');
    const page = await h.open(`/chats/${room.roomId}`, { as: alice });
    await connected(page);
    const messages = page.getByTestId('chat-messages');
    await messages.getByText('Before the restart').waitFor();
    await restart(page);
    await connected(page);
    // Sent after the reconnection: only a socket in the room's channel hears it.
    await h.forum.ctx.chats.send(await viewer(bob.uid), room.roomId, 'Bob, after the restart');
    await messages.getByText('Bob, after the restart').waitFor({ timeout: 5000 });
    await shot(page, 'chat-after-reconnect-desktop');
  }, 90_000);

  it("a socket reconnecting with another member's session: the page says the session no longer matches and reloads as that member", async () => {
    const h = e2e();
    const { alice, bob } = h.data;
    const context = await h.context({ as: alice, viewport: PHONE });
    const page = await context.newPage();
    await h.goto(page, '/recent');
    await connected(page);
    expect(await page.evaluate(async (rp) => ((await (await fetch(`${rp}/api/config`)).json()) as { uid: number }).uid, h.rp)).toBe(alice.uid);
    // Another tab signed in as bob: the browser's cookie is now bob's session, the page still alice's.
    const sid = await h.forum.ctx.auth.createSession(bob.uid, '127.0.0.1', 'e2e', 30);
    await context.addCookies([{ name: SESSION_COOKIE, value: sid, domain: '127.0.0.1', path: h.rp || '/', httpOnly: true, sameSite: 'Lax' }]);
    // The reconnecting socket carries bob's cookie with alice's page's CSRF token: the server
    // refuses it (a checkSession naming another uid cannot come, as a session's token is its own),
    // and the page says its session no longer matches instead of retrying for ever.
    await restart(page);
    const dialog = page.getByRole('dialog').filter({ hasText: 'no longer matches with the server' });
    await dialog.waitFor({ timeout: 15_000 });
    expect(await dialog.getByText('Invalid session').isVisible()).toBe(true);
    await shot(page, 'session-mismatch-phone');
    await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: 'Reload' }).click()]);
    await page.waitForSelector('html[data-loaded]', { state: 'attached' });
    expect(await page.evaluate(async (rp) => ((await (await fetch(`${rp}/api/config`)).json()) as { uid: number }).uid, h.rp)).toBe(bob.uid);
  }, 90_000);
});
