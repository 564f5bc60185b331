/** Member moderation in the browser (issue 14 parts 3–5): ban from the profile, the info page, the IP blacklist page. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, useE2E } from './harness.js';

const e2e = useE2E(seedSmall);
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
const connected = (page: Page) => page.waitForSelector('html[data-socket=connected]', { state: 'attached', timeout: 10_000 });

describe('bans from the profile', () => {
  for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`an admin bans a member from the profile; the member's open page shows the banned dialog (${name})`, async () => {
      const h = e2e();
      const { alice } = h.data;
      const victim = await h.forum.createUser({ username: `spammy-${name}` });
      const member = await h.open('/recent', { as: victim, viewport });
      await connected(member);

      const admin = await h.open(`/user/${victim.userslug}`, { as: alice, viewport });
      await shot(admin, `profile-moderation-${name}`);
      await admin.getByRole('button', { name: 'Ban Account' }).click();
      const dialog = admin.getByTestId('ban-dialog');
      await dialog.waitFor();
      await dialog.getByLabel('Reason').selectOption('Harassment');
      await dialog.getByLabel('Permanent').uncheck();
      await dialog.getByLabel('Duration').fill('2');
      await shot(admin, `ban-dialog-${name}`);
      expect(await seriousAxeViolations(admin)).toEqual([]);
      await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
      await admin.getByText('User banned').first().waitFor();

      const banned = member.getByRole('dialog');
      await banned.waitFor({ timeout: 5000 });
      expect(await banned.getByRole('heading').textContent()).toBe('User banned');
      expect(await banned.textContent()).toMatch(/banned until .+\(Reason: Harassment\)/);
      await shot(member, `banned-dialog-${name}`);

      // The profile now offers the unban; the info page shows the ban in its history.
      await admin.getByRole('button', { name: 'Unban Account' }).waitFor();
      await h.goto(admin, `/user/${victim.userslug}/info`);
      await admin.getByTestId('info-state').getByText(/Banned until/).waitFor();
      expect(await admin.locator('section', { hasText: 'Recent Ban History' }).textContent()).toContain('Reason: Harassment');
      await admin.getByRole('textbox', { name: 'Moderation Note' }).fill('Posted the same link in ten topics.');
      await admin.getByRole('button', { name: 'Add note' }).click();
      await admin.getByTestId('info-notes').getByText('Posted the same link in ten topics.').waitFor();
      expect(await admin.locator('section', { hasText: 'Usernames' }).textContent()).toContain(victim.username);
      await shot(admin, `info-page-${name}`);
      expect(await seriousAxeViolations(admin)).toEqual([]);
    });
  }
});

describe('mutes and the end of a ban, live', () => {
  it("a member's open page tells them of a mute and of its end; the unbanned dialog goes home (phone)", async () => {
    const h = e2e();
    const member = await h.forum.createUser({ username: 'hushed' });
    const page = await h.open('/recent', { as: member, viewport: PHONE });
    await connected(page);
    const until = Date.now() + 3_600_000;
    await h.forum.ctx.moderation.mute(await h.forum.ctx.privileges.viewer(h.data.alice.uid), member.uid, until, 'Cool down');
    const alert = page.locator('.alert-toast', { hasText: 'Muted' });
    await alert.waitFor({ timeout: 5000 });
    expect(await alert.textContent()).toContain('Reason: Cool down');
    await shot(page, 'muted-alert-phone');
    await h.forum.ctx.moderation.unmute(await h.forum.ctx.privileges.viewer(h.data.alice.uid), member.uid);
    await page.locator('.alert-toast', { hasText: 'You can post and chat again.' }).waitFor({ timeout: 5000 });
    // A ban closes the member's sockets, so the end of one reaches a page opened after it: sent as the service sends it.
    await h.forum.ctx.hooks.fire('action:user.unbanned', { uid: member.uid, by: h.data.alice.uid });
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ timeout: 5000 });
    expect(await dialog.textContent()).toContain('Your ban has been lifted.');
    await shot(page, 'unbanned-dialog-phone');
    await dialog.getByRole('button').last().click();
    await page.waitForURL((u) => u.pathname === '/forum/' || u.pathname === '/forum', { timeout: 5000 });
  });
});

describe('the spam report on profiles (spec §6, §8)', () => {
  it("reports a member: 'User reported!', the member is banned and their topic gone; a refusal shows the server's message", async () => {
    const h = e2e();
    const { alice, general } = h.data;
    const spammer = await h.forum.createUser({ username: 'spambot' });
    const topic = await h.forum.ctx.topics.create({ ...(await h.forum.ctx.privileges.viewer(spammer.uid)), master: true }, { cid: general.cid, title: 'Cheap watches here', content: 'Buy now at the link.' });
    const page = await h.open(`/user/${spammer.userslug}`, { as: alice });
    await page.getByRole('button', { name: 'Report spam' }).click();
    await page.getByText('User reported!').first().waitFor();
    expect((await h.forum.ctx.users.get(spammer.uid))!.banned).toBe(1);
    expect(await h.forum.ctx.topics.get(topic.topic.tid)).toBeFalsy();
    // A refusal (a 403 answer, stubbed here) shows the server's message.
    await page.route('**/spam-be-gone/report', (route) => route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ status: { code: 'forbidden', message: "You can't ban other admins!" }, response: {} }) }));
    await page.getByRole('button', { name: 'Report spam' }).click();
    await page.getByText("You can't ban other admins!").first().waitFor();
  });
});

describe('the IP blacklist page', () => {
  for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`saves rules and tests an address against them (${name})`, async () => {
      const h = e2e();
      const page = await h.open('/ip-blacklist', { as: h.data.alice, viewport });
      await page.getByLabel('Blacklist rules').fill('# a noisy network\n203.0.113.0/24\n2001:db8::/32');
      await page.getByRole('button', { name: 'Apply Blacklist' }).click();
      await page.getByText('Blacklist Applied').first().waitFor();
      await page.getByTestId('blacklist-rules').getByText('203.0.113.0/24').waitFor();

      await page.getByLabel('IP address').fill('203.0.113.7');
      await page.getByRole('button', { name: 'Test', exact: true }).click();
      expect(await page.getByTestId('blacklist-result').textContent()).toBe('203.0.113.7 is blocked by rule "203.0.113.0/24" (line 2).');
      await page.getByLabel('IP address').fill('198.51.100.1');
      await page.getByRole('button', { name: 'Test', exact: true }).click();
      await page.getByTestId('blacklist-result').getByText('198.51.100.1 is not blocked.').waitFor();
      await page.getByLabel('IP address').fill('2001:db8:ffff::1');
      await page.getByRole('button', { name: 'Test', exact: true }).click();
      await page.getByTestId('blacklist-result').getByText(/is blocked by rule "2001:db8::\/32"/).waitFor();
      await shot(page, `ip-blacklist-${name}`);
      expect(await seriousAxeViolations(page)).toEqual([]);

      // A rule that does not parse is refused with its line; the saved rules stay.
      await page.getByLabel('Blacklist rules').fill('10.0.0.0/40');
      await page.getByRole('button', { name: 'Apply Blacklist' }).click();
      await page.getByText('Line 1 of the blacklist is not an IP address or CIDR range: 10.0.0.0/40. Nothing was saved.').first().waitFor();
      expect(await h.forum.ctx.moderation.blacklist.view()).toMatchObject({ rules: '# a noisy network\n203.0.113.0/24\n2001:db8::/32' });
      await h.forum.ctx.moderation.blacklist.save(0, '', '');
    });
  }

  it('is refused to a member who is not a moderator', async () => {
    const h = e2e();
    const page = await h.open('/ip-blacklist', { as: h.data.bob });
    expect(await page.locator('main').textContent()).not.toContain('Apply Blacklist');
  });
});
