/** Groups in the browser (issue 13 part 8): create a group, a member asks to join, the owner accepts, the badge shows beside the member's post. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, topicPath, useE2E } from './harness.js';


const e2e = useE2E(async (forum) => {
  const data = await seedSmall(forum);
  await forum.ctx.privileges.give(0, ['group:create'], 'registered-users');
  return data;
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled', fullPage: true });
const alertWith = (page: Page, text: string) => page.locator('.alert-toast').filter({ hasText: text }).first();

describe('groups', () => {
  it('a member creates a private group, another asks to join, the owner accepts, the badge shows beside the post (desktop)', async () => {
    const h = e2e();
    const { bob, carol, welcome } = h.data;

    const owner = await h.open('/groups', { as: bob, viewport: DESKTOP });
    await owner.getByTestId('group-create-toggle').click();
    await owner.getByLabel('Group Name:').fill('Helpers Crew');
    await owner.getByRole('button', { name: 'Create', exact: true }).click();
    await owner.waitForURL(/\/groups\/helpers-crew$/);
    await owner.locator('h1', { hasText: 'Helpers Crew' }).waitFor();
    // The owner sets the badge's label and colour.
    await owner.getByLabel('Badge Text').fill('Helper');
    await owner.locator('#group-description').fill('We answer questions in **Help & Support**.');
    await owner.getByRole('button', { name: 'Save changes' }).click();
    await alertWith(owner, 'Group details have been updated').waitFor();
    await owner.locator('.post-content strong, [component="post/content"] strong', { hasText: 'Help & Support' }).first().waitFor();

    const member = await h.open('/groups', { as: carol, viewport: DESKTOP });
    const card = member.locator('[data-group="helpers-crew"]');
    await card.waitFor();
    expect(await card.textContent()).toContain('Private');
    await shot(member, 'groups-list-desktop');
    expect(await seriousAxeViolations(member)).toEqual([]);
    await card.getByRole('link', { name: 'Helpers Crew' }).click();
    await member.waitForURL(/\/groups\/helpers-crew$/);
    await member.getByTestId('group-join').click();
    await alertWith(member, 'Your request to join was sent').waitFor();
    await member.getByRole('button', { name: 'Invitation Pending' }).waitFor();
    expect(await member.getByTestId('group-member-count').textContent()).toBe('1');

    await h.goto(owner, '/groups/helpers-crew');
    const pending = owner.getByTestId('group-pending');
    await pending.getByText('carol').waitFor();
    await shot(owner, 'group-details-owner-desktop');
    expect(await seriousAxeViolations(owner)).toEqual([]);
    await pending.getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => owner.getByTestId('group-member-count').textContent()).toBe('2');
    await owner.getByTestId('group-members').getByText('carol').waitFor();

    // Carol's post in the welcome topic now carries the group's badge, linking to the group.
    await h.goto(member, topicPath(welcome));
    const post = member.locator('article.post').filter({ has: member.locator('a', { hasText: 'carol' }) }).first();
    const badge = post.locator('.group-badge[data-group-badge="helpers-crew"]');
    await badge.waitFor();
    expect((await badge.textContent())?.trim()).toBe('Helper');
    expect(await badge.getAttribute('href')).toBe('/forum/groups/helpers-crew');
    // Bob (the owner) shows it too; Alice belongs to no group of her own and shows none.
    expect(await member.locator('article.post').filter({ has: member.locator('a', { hasText: 'alice' }) }).first().locator('.group-badge').count()).toBe(0);
    await shot(member, 'group-badge-topic-desktop');
    expect(await seriousAxeViolations(member)).toEqual([]);
  });

  it('the group pages and the account groups page on a phone', async () => {
    const h = e2e();
    const { carol, bob } = h.data;
    const viewer = async (u: typeof bob) => ({ ...(await h.forum.ctx.privileges.viewer(u.uid)) });
    const g = await h.forum.ctx.groups.create(await viewer(bob), { name: 'Night Owls', private: 0, userTitle: 'Owl', labelColor: '#5b2c83', description: 'For those who post late.' });
    const page = await h.open('/groups', { as: carol, viewport: PHONE });
    await page.locator('[data-group="night-owls"]').waitFor();
    await shot(page, 'groups-list-phone');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await h.goto(page, `/groups/${g.slug}`);
    await page.getByTestId('group-join').click();
    await alertWith(page, 'You joined the group').waitFor();
    await expect.poll(() => page.getByTestId('group-member-count').textContent()).toBe('2');
    await shot(page, 'group-details-phone');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await h.goto(page, `/groups/${g.slug}/members`);
    await page.getByTestId('group-member-list').getByText('carol').waitFor();
    await page.getByRole('searchbox').fill('bo');
    await page.getByRole('searchbox').press('Enter');
    await page.waitForURL(/query=bo/);
    await expect.poll(() => page.getByTestId('group-member-list').locator('li').count()).toBe(1);
    await shot(page, 'group-members-phone');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await h.goto(page, '/user/carol/groups');
    const row = page.locator('[data-group="night-owls"]');
    await row.waitFor();
    // Her first group's badge (Helpers Crew, from the first test) shows; she adds this one.
    const toggle = row.getByRole('switch');
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    await alertWith(page, 'Your badges were saved').waitFor();
    expect(await toggle.isChecked()).toBe(true);
    const shown = (await h.forum.ctx.groups.badgesOf([carol.uid])).get(carol.uid) ?? [];
    expect(shown.map((x) => x.name)).toEqual(['Helpers Crew', 'Night Owls']);
    await shot(page, 'account-groups-phone');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
