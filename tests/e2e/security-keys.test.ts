/**
 * Security keys (WebAuthn, the 2factor plugin's `authn` variant) in the browser: Chromium's
 * virtual authenticator (DevTools protocol) stands in for a USB key. WebAuthn needs a domain,
 * not an IP address, so this file browses the forum as http://localhost:<port> (a secure
 * context) and the forum's configured URL, whose host is the relying party, says the same.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../src/server/test/harness.js';
import { DESKTOP, PHONE, SCREENSHOTS, seriousAxeViolations, useE2E } from './harness.js';

const e2e = useE2E(async (forum) => {
  const url = new URL(forum.baseUrl);
  const base = `http://localhost:${url.port}${url.pathname.replace(/\/$/, '')}`;
  // The forum as a member reaches it here: rpID `localhost`, origin http://localhost:<port>.
  forum.ctx.config.url = base;
  return { base };
});

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
}

/** Goes to a forum path on localhost and waits for the app to boot. */
async function go(page: Page, path: string) {
  await page.goto(e2e().data.base + path);
  await page.waitForSelector('html[data-loaded]', { state: 'attached', timeout: 10_000 });
}

const uidOf = (page: Page) => page.evaluate(async (rp) => ((await (await fetch(`${rp}/api/config`)).json()) as { uid: number }).uid, e2e().rp);

/** A page with a virtual security key attached (CTAP2, resident keys, user verification). */
async function withVirtualKey(context: BrowserContext): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { page, cdp, authenticatorId };
}

async function passwordLogin(page: Page, username: string) {
  await go(page, '/login');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

let n = 0;

describe('security keys', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`adds a security key on the 2factor page, then logs in with the password and the key (${device})`, async () => {
      const h = e2e();
      const { base } = h.data;
      const user = await h.forum.createUser({ username: `key${device}${++n}` });
      const context = await h.context({ viewport });
      const { page, cdp, authenticatorId } = await withVirtualKey(context);

      await passwordLogin(page, user.username);
      await page.waitForURL(`${base}/`);
      await go(page, `/user/${user.userslug}/2factor`);
      await expect.poll(() => page.getByTestId('security-keys').textContent()).toContain('You have no security keys yet.');
      await page.getByLabel('Name of the key').fill('Virtual key');
      await page.getByTestId('security-key-add').click();
      // The first second factor comes with backup codes, shown once.
      await expect.poll(() => page.getByTestId('backup-codes').locator('li').count(), { timeout: 10_000 }).toBe(10);
      await page.getByRole('button', { name: 'I have saved them' }).click();
      const item = page.getByTestId('security-key');
      await expect.poll(() => item.count()).toBe(1);
      expect(await item.textContent()).toContain('Virtual key');
      expect(await item.textContent()).toContain('Not used yet');
      expect(await page.getByTestId('backup-codes-left').textContent()).toBe('Unused backup codes: 10');
      // The browser holds the credential the forum stored.
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);
      const stored = await h.forum.ctx.db.selectFrom('webauthn_credentials').select(['id', 'label']).where('uid', '=', user.uid).execute();
      expect(stored).toEqual([{ id: Buffer.from(credentials[0]!.credentialId, 'base64').toString('base64url'), label: 'Virtual key' }]);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `two-factor-security-key-${device}`);

      // Log out; the password alone leads to the key.
      await context.clearCookies();
      await passwordLogin(page, user.username);
      await page.waitForURL(`${base}/login/2fa`);
      expect(await uidOf(page)).toBe(0);
      const start = page.getByTestId('authn-start');
      await start.waitFor();
      expect(await start.textContent()).toBe('Use your security key');
      // The member has a key and backup codes: the other way is offered.
      expect(await page.getByTestId('two-factor-switch').allTextContents()).toEqual(['Lost your device? Use a backup code']);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `login-2fa-authn-${device}`);
      await start.click();
      await page.waitForURL(`${base}/`);
      expect(await uidOf(page)).toBe(user.uid);
      const used = await h.forum.ctx.db.selectFrom('webauthn_credentials').select(['last_used']).where('uid', '=', user.uid).executeTakeFirstOrThrow();
      expect(Number(used.last_used)).toBeGreaterThan(0);

      // The key list shows the use; removing the key asks for the password.
      await go(page, `/user/${user.userslug}/2factor`);
      expect(await page.getByTestId('security-key').textContent()).toContain('Last used');
      await page.getByTestId('security-key').getByRole('button', { name: 'Remove' }).click();
      await page.getByTestId('security-key').getByPlaceholder('Current password').fill('not-my-password');
      await page.getByTestId('security-key-remove-confirm').click();
      await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Your current password is not correct');
      await page.getByTestId('security-key').getByPlaceholder('Current password').fill(TEST_PASSWORD);
      await page.getByTestId('security-key-remove-confirm').click();
      await expect.poll(() => page.getByTestId('security-key').count()).toBe(0);
      expect(await h.forum.ctx.db.selectFrom('webauthn_credentials').select('id').where('uid', '=', user.uid).execute()).toEqual([]);
    });
  }

  it('shows a translated error when the key is not there (no matching credential)', async () => {
    const h = e2e();
    const { base } = h.data;
    const user = await h.forum.createUser({ username: `keyerr${++n}` });
    const context = await h.context();
    const { page, cdp, authenticatorId } = await withVirtualKey(context);
    await passwordLogin(page, user.username);
    await page.waitForURL(`${base}/`);
    await go(page, `/user/${user.userslug}/2factor`);
    await page.getByLabel('Name of the key').fill('Lost key');
    await page.getByTestId('security-key-add').click();
    await expect.poll(() => page.getByTestId('security-key').count(), { timeout: 10_000 }).toBe(1);

    // The key is lost: the authenticator no longer holds the credential.
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    await context.clearCookies();
    await passwordLogin(page, user.username);
    await page.waitForURL(`${base}/login/2fa`);
    await page.getByTestId('authn-start').click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 }).toContain('The security key request was cancelled or timed out');
    expect(await uidOf(page)).toBe(0);
    // A backup code still works.
    await page.getByTestId('two-factor-switch').click();
    await page.waitForURL(`${base}/login/2fa/backup`);
    expect(await page.getByLabel('Backup code').count()).toBe(1);
  });
});
