/** Account security in the browser (issue 13 part 4): two-factor enrolment and login, sessions, password change. */
import { readFile } from 'node:fs/promises';
import { generate } from 'otplib';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../../src/server/test/harness.js';
import { DESKTOP, PHONE, SCREENSHOTS, seriousAxeViolations, useE2E } from './harness.js';

const e2e = useE2E(async () => ({}));
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
}

let n = 0;
const uidOf = (page: Page) => page.evaluate(async (rp) => ((await (await fetch(`${rp}/api/config`)).json()) as { uid: number }).uid, e2e().rp);

/** Logs in through the login form; with a key the browser ends on /login/2fa. */
async function passwordLogin(context: BrowserContext, username: string, password = TEST_PASSWORD): Promise<Page> {
  const h = e2e();
  const page = await context.newPage();
  await h.goto(page, '/login');
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  return page;
}

describe('two-factor authentication', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`enrols a key in the browser, then logs in with a TOTP code and with a backup code (${device})`, async () => {
      const h = e2e();
      const user = await h.forum.createUser({ username: `tfa${device}${++n}` });
      const context = await h.context({ viewport });
      const login = await passwordLogin(context, user.username);
      await login.waitForURL(`${h.base}/`);

      await h.goto(login, `/user/${user.userslug}/2factor`);
      const page = login;
      expect(await page.locator('h1').textContent()).toBe('Two-factor authentication');
      await page.getByTestId('two-factor-begin').click();
      const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      // The QR code is an image made by the forum itself (a data URL: no request leaves the forum).
      expect(await page.getByTestId('two-factor-qr').getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `two-factor-enrol-${device}`);
      await page.getByLabel('Authentication code').fill(await generate({ secret }));
      await page.getByRole('button', { name: 'Confirm' }).click();
      // The codes arrive with the confirmation's answer.
      await expect.poll(() => page.getByTestId('backup-codes').locator('li').count(), { timeout: 10_000 }).toBe(10);
      const codes = (await page.getByTestId('backup-codes').locator('li').allTextContents()).map((c) => c.trim());
      expect(codes).toHaveLength(10);
      await shot(page, `two-factor-backup-codes-${device}`);
      // Download: a text file with the codes, one a line.
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download (.txt)' }).click()]);
      expect(file.suggestedFilename()).toMatch(/backup-codes\.txt$/);
      const saved = await readFile((await file.path())!, 'utf8');
      expect(saved.trim().split('\n')).toEqual(codes);
      // Copy: the same lines on the clipboard.
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(h.base).origin });
      await page.getByRole('button', { name: 'Copy', exact: true }).click();
      await page.getByText('Backup codes copied.').waitFor();
      expect((await page.evaluate(() => navigator.clipboard.readText())).trim().split('\n')).toEqual(codes);
      await page.getByRole('button', { name: 'I have saved them' }).click();
      expect(await page.getByTestId('two-factor-state').getAttribute('data-enabled')).toBe('1');

      // Log out; the password alone now leads to the code page.
      await context.clearCookies();
      const second = await passwordLogin(context, user.username);
      await second.waitForURL(`${h.base}/login/2fa`);
      expect(await uidOf(second)).toBe(0);
      expect(await seriousAxeViolations(second)).toEqual([]);
      await shot(second, `login-2fa-${device}`);
      // A wrong code is refused with the reason, and the member stays a guest.
      await second.getByLabel('Authentication code').fill('000000');
      await second.getByRole('button', { name: 'Verify' }).click();
      await expect.poll(() => second.getByRole('alert').textContent()).toContain('That code is not right');
      // The next step's code (the enrolment used this step's).
      await second.getByLabel('Authentication code').fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
      await second.getByRole('button', { name: 'Verify' }).click();
      await second.waitForURL(`${h.base}/`);
      expect(await uidOf(second)).toBe(user.uid);

      await context.clearCookies();
      const third = await passwordLogin(context, user.username);
      await third.waitForURL(`${h.base}/login/2fa`);
      await third.getByTestId('two-factor-switch').click();
      await third.waitForURL(`${h.base}/login/2fa/backup`);
      await shot(third, `login-2fa-backup-${device}`);
      await third.getByLabel('Backup code').fill(codes[0]!);
      await third.getByRole('button', { name: 'Verify' }).click();
      await third.waitForURL(`${h.base}/`);
      expect(await uidOf(third)).toBe(user.uid);
    });
  }
});

describe('sessions and password', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`lists the sessions and logs another one out (${device})`, async () => {
      const h = e2e();
      const user = await h.forum.createUser({ username: `sess${device}${++n}` });
      // Another device, logged in through the form with a phone's user agent.
      const other = h.forum.client();
      await other.post('/login', { username: user.username, password: TEST_PASSWORD }, { headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1' } });
      const page = await h.open(`/user/${user.userslug}/sessions`, { as: user, viewport });
      const items = page.getByTestId('sessions').locator('li');
      await expect.poll(() => items.count()).toBe(2);
      expect(await page.locator('li[data-current="1"]').textContent()).toContain('This session');
      expect(await page.locator('li[data-current="0"]').textContent()).toContain('Safari 17 · iOS');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `sessions-${device}`);
      await page.locator('li[data-current="0"]').getByRole('button', { name: /Log out/ }).click();
      await expect.poll(() => items.count()).toBe(1);
      expect(((await other.get('/api/config')).body as { uid: number }).uid).toBe(0);
      expect(await uidOf(page)).toBe(user.uid);
    });

    it(`changes the password (${device})`, async () => {
      const h = e2e();
      const user = await h.forum.createUser({ username: `pass${device}${++n}` });
      const page = await h.open(`/user/${user.userslug}/edit/password`, { as: user, viewport });
      expect(await page.locator('h1').textContent()).toBe('Password');
      await page.getByLabel('Current password').fill('not-my-password');
      await page.getByLabel('New password', { exact: true }).fill('Brand-New-Horse-88');
      await page.getByLabel('Confirm new password').fill('Brand-New-Horse-88');
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('Your current password is not correct');
      await page.getByLabel('Current password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => page.getByText('Your password is updated!').count()).toBeGreaterThan(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `edit-password-${device}`);
      const res = await h.forum.client().post('/login', { username: user.username, password: 'Brand-New-Horse-88' });
      expect(res.status).toBe(200);
    });
  }

  it('shows the username, email and tokens pages (desktop and phone)', async () => {
    const h = e2e();
    const user = await h.forum.createUser({ username: `misc${++n}` });
    await h.forum.ctx.auth.createToken(user.uid, 'backup script');
    for (const [device, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      for (const path of ['edit/username', 'edit/email', 'tokens']) {
        const page = await h.open(`/user/${user.userslug}/${path}`, { as: user, viewport });
        expect(await seriousAxeViolations(page)).toEqual([]);
        await shot(page, `${path.replace('/', '-')}-${device}`);
      }
    }
    const page = await h.open(`/user/${user.userslug}/tokens`, { as: user });
    expect(await page.getByTestId('tokens').textContent()).toContain('backup script');
    await page.getByPlaceholder('Label (what is it for?)').fill('deploy bot');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByTestId('new-token').textContent())!.trim();
    await expect.poll(() => page.getByTestId('tokens').locator('li').count()).toBe(2);
    const api = h.forum.client();
    api.bearer = token;
    expect(((await api.get('/api/config')).body as { uid: number }).uid).toBe(user.uid);
  });
});
