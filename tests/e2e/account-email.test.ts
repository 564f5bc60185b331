/** A member changes their address in the browser, and a mail's links act only through their button (issue 51, defects 2 and 6). */
import { describe, expect, it } from 'vitest';
import { TEST_PASSWORD, type TestForum } from '../../src/server/test/harness.js';
import { useE2E } from './harness.js';

const e2e = useE2E(async (forum: TestForum) => ({ dora: await forum.createUser({ username: 'dora', email: 'dora@example.com' }) }));

/** The path of the newest mailed link to `prefix` for an address (mails wait in the outbox: no SMTP here). */
async function mailedPath(forum: TestForum, to: string, prefix: string): Promise<string> {
  const rows = await forum.ctx.db.selectFrom('mail_outbox').select('text').where('to_address', '=', to).orderBy('id', 'desc').execute();
  for (const r of rows) {
    const m = new RegExp(`${forum.ctx.config.url}(${prefix}[\\w.-]+)`).exec(r.text);
    if (m) return m[1]!;
  }
  throw new Error(`no ${prefix} link mailed to ${to}`);
}

describe('email change and mail links', () => {
  it('asks for the password, says the link waits (no SMTP here), and changes it once its button is pressed', async () => {
    const h = e2e();
    const { dora } = h.data;
    const page = await h.open(`/user/${dora.userslug}/edit/email`, { as: dora });
    await page.getByLabel('New email address').fill('dora.new@example.com');
    await page.getByLabel('Current password').fill('not-her-password');
    await page.getByRole('button', { name: 'Change email' }).click();
    await page.getByRole('alert').filter({ hasText: /current password/i }).waitFor();
    await page.getByLabel('Current password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Change email' }).click();
    // No SMTP here: the page says the link waits rather than "check your new address".
    await page.getByText('the confirmation link waits until an administrator sets up mail').waitFor();
    await page.getByTestId('pending-email').filter({ hasText: 'dora.new@example.com' }).waitFor();
    expect((await h.forum.ctx.users.get(dora.uid))!.email).toBe('dora@example.com');

    // Opening the mailed link changes nothing; the button does.
    const link = await h.open(await mailedPath(h.forum, 'dora.new@example.com', '/confirm/'));
    const button = link.getByRole('button', { name: 'Confirm my email address' });
    await button.waitFor();
    expect((await h.forum.ctx.users.get(dora.uid))!.email).toBe('dora@example.com');
    await button.click();
    await link.getByText('Thank you: your email address is confirmed.').waitFor();
    expect((await h.forum.ctx.users.get(dora.uid))!.email).toBe('dora.new@example.com');
  });

  it("an unsubscribe link shows a button; only pressing it stops that type's mails", async () => {
    const h = e2e();
    const { dora } = h.data;
    const page = await h.open(`/email/unsubscribe/${h.forum.ctx.mail.unsubscribeToken(dora.uid, 'new-reply')}`);
    const button = page.getByRole('button', { name: 'Unsubscribe' });
    await button.waitFor();
    expect(await h.forum.ctx.mail.unsubscribedTypes(dora.uid)).toEqual([]);
    await button.click();
    await page.getByText('You will no longer receive these notifications by email.').waitFor();
    expect(await h.forum.ctx.mail.unsubscribedTypes(dora.uid)).toEqual(['new-reply']);
  });
});
