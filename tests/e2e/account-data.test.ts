/** Your data and blocks (issue 13 items 7, 9): block from the blocks page and see the folded post, export and download, delete an account. */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, topicPath, useE2E } from './harness.js';
import { TEST_PASSWORD } from '../../src/server/test/harness.js';

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });

const e2e = useE2E(async (forum) => {
  const seed = await seedSmall(forum);
  const dave = await forum.createUser({ username: 'dave' });
  return { ...seed, dave };
});

describe('account data and blocks', () => {
  it('blocks a member from the blocks page; their post in a topic shows folded, and unfolds on request', async () => {
    const h = e2e();
    const { bob, welcome } = h.data;
    const page = await h.open(`/user/${bob.userslug}/blocks`, { as: bob, viewport: DESKTOP });
    await page.getByTestId('blocks-none').waitFor();
    await page.getByLabel('Block a member by username').fill('carol');
    await page.getByRole('button', { name: 'Block', exact: true }).click();
    await page.getByTestId('blocks-list').getByRole('link', { name: 'carol' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'blocks-desktop');
    await page.setViewportSize(PHONE);
    await shot(page, 'blocks-phone');
    await page.setViewportSize(DESKTOP);

    await h.goto(page, topicPath(welcome));
    const folded = page.locator('[data-blocked="1"]');
    await folded.waitFor();
    expect(await folded.count()).toBe(1);
    expect(await folded.textContent()).toContain('A post from a member you blocked.');
    expect(await page.locator('.post').filter({ hasText: 'Happy to be here' }).count()).toBe(0);
    await shot(page, 'blocked-post-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await folded.getByRole('button', { name: 'Show' }).click();
    await page.locator('.post').filter({ hasText: 'Happy to be here' }).waitFor();
    await page.setViewportSize(PHONE);
    await h.goto(page, topicPath(welcome));
    await page.locator('[data-blocked="1"]').waitFor();
    await shot(page, 'blocked-post-phone');

    // Unblocked from the list, the post shows as any other.
    await h.goto(page, `/user/${bob.userslug}/blocks`);
    await page.getByRole('button', { name: 'Unblock: carol' }).click();
    await page.getByTestId('blocks-none').waitFor();
  });

  it('asks for an export, gets it made and downloads it', async () => {
    const h = e2e();
    const { bob } = h.data;
    const page = await h.open(`/user/${bob.userslug}/data`, { as: bob, viewport: DESKTOP });
    await page.getByTestId('request-profile').click();
    await page.locator('[data-export="profile"]').getByText('Being made…').waitFor();
    await h.forum.ctx.jobs.runDue();
    await h.goto(page, `/user/${bob.userslug}/data`);
    const link = page.getByTestId('download-profile');
    await link.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'data-desktop');
    const download = page.waitForEvent('download');
    await link.click();
    const file = await (await download).path();
    const json = JSON.parse(readFileSync(file, 'utf8'));
    expect(json.user.username).toBe('bob');
    await page.setViewportSize(PHONE);
    await shot(page, 'data-phone');
  });

  it('deletes an account with the password: the member is signed out and gone', async () => {
    const h = e2e();
    const { dave } = h.data;
    const page = await h.open(`/user/${dave.userslug}/data`, { as: dave, viewport: PHONE });
    page.on('dialog', (d) => void d.accept());
    await page.getByLabel('Delete the account and everything I wrote').check();
    // A wrong password is refused and the account stays.
    await page.getByLabel('Your password, to confirm').fill('not-the-password');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.locator('.alert-danger, [role="alert"]').filter({ hasText: /password/i }).first().waitFor();
    expect(await h.forum.ctx.users.get(dave.uid)).not.toBeNull();
    await page.getByLabel('Your password, to confirm').fill(TEST_PASSWORD);
    await shot(page, 'delete-phone');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((u) => !u.pathname.includes('/data'));
    await expect.poll(async () => h.forum.ctx.users.get(dave.uid)).toBeNull();
    // The browser's session ended with the account: it is a guest now.
    expect(await page.evaluate(async (rp) => ((await (await fetch(`${rp}/api/config`)).json()) as { uid: number }).uid, h.rp)).toBe(0);
    await shot(page, 'deleted-phone');
  });
});
