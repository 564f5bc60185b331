/** The composer in the browser (issue 12 parts 1, 3, 4, 5): toolbar, shortcuts, autocomplete, preview, resize, tags. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, topicPath, useE2E } from './harness.js';

const e2e = useE2E(seedSmall);

const composer = (page: Page) => page.locator('.composer');
const body = (page: Page) => composer(page).locator('textarea');
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled' });
const select = (page: Page, start: number, end: number) => body(page).evaluate((el: HTMLTextAreaElement, [s, e]) => el.setSelectionRange(s!, e!), [start, end]);

describe('composer', () => {
  it('formats with the toolbar and shortcuts (undo kept), autocompletes @member and :emoji:, previews, posts, and the member is notified', async () => {
    const h = e2e();
    const { welcome, bob, carol } = h.data;
    const page = await h.open(topicPath(welcome), { as: bob, viewport: DESKTOP });
    await page.locator('.page-header').getByRole('button', { name: 'Reply' }).click();
    await body(page).click();
    await page.keyboard.type('say hello now');

    // Toolbar: select "hello", click Bold.
    await select(page, 4, 9);
    await composer(page).locator('[data-format="bold"]').click();
    expect(await body(page).inputValue()).toBe('say **hello** now');
    // The browser's undo takes it back: the edit went through as typing.
    await page.keyboard.press('Control+z');
    expect(await body(page).inputValue()).toBe('say hello now');
    await page.keyboard.press('Control+y');
    await expect.poll(() => body(page).inputValue()).toBe('say **hello** now');

    // Shortcut: Ctrl+I on "now".
    await select(page, 14, 17);
    await page.keyboard.press('Control+i');
    expect(await body(page).inputValue()).toBe('say **hello** *now*');

    // @ autocomplete: carol posted in the topic.
    await body(page).press('End');
    await page.keyboard.type(' thanks @car');
    const menu = composer(page).locator('.autocomplete-menu');
    await menu.getByText('carol').waitFor();
    await shot(page, 'composer-mention-desktop');
    await page.keyboard.press('Enter');
    await expect.poll(() => body(page).inputValue()).toBe('say **hello** *now* thanks @carol ');

    // : autocomplete: pick the party popper with the mouse.
    await page.keyboard.type('great :tad');
    await menu.getByText(':tada:').waitFor();
    await menu.getByText(':tada:').click();
    await expect.poll(() => body(page).inputValue()).toBe('say **hello** *now* thanks @carol great :tada: ');

    // The side-by-side preview shows the formatting, the mention link and the emoji.
    const preview = composer(page).locator('.composer-preview');
    await preview.locator('strong', { hasText: 'hello' }).waitFor();
    await preview.locator('a.plugin-mentions-user', { hasText: '@carol' }).waitFor();
    await expect.poll(() => preview.textContent()).toContain('🎉');
    await shot(page, 'composer-desktop');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await composer(page).getByRole('button', { name: 'Submit' }).click();
    const posted = page.locator('article.post').last();
    await posted.locator('a.plugin-mentions-user', { hasText: '@carol' }).waitFor();
    expect(await posted.textContent()).toContain('🎉');
    await h.forum.ctx.hooks.idle();
    await expect
      .poll(async () => (await h.forum.ctx.db.selectFrom('notifications').select('type').where('uid', '=', carol.uid).where('type', '=', 'mention').execute()).length)
      .toBe(1);
  });

  it('the emoji picker inserts at the caret; the docked composer resizes by its top edge and keeps the height', async () => {
    const h = e2e();
    const { welcome, carol } = h.data;
    const page = await h.open(topicPath(welcome), { as: carol, viewport: DESKTOP });
    await page.locator('.page-header').getByRole('button', { name: 'Reply' }).click();
    await body(page).click();
    await page.keyboard.type('Nice ');
    await composer(page).locator('[data-format="emoji"]').click();
    const picker = composer(page).locator('.emoji-picker');
    await picker.getByRole('searchbox').fill('rocket');
    await shot(page, 'composer-emoji-picker-desktop');
    await picker.locator('.emoji-cell').first().click();
    expect(await body(page).inputValue()).toBe('Nice :rocket: ');

    const before = (await composer(page).boundingBox())!;
    const handle = (await composer(page).locator('.composer-resizer').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(handle.x + handle.width / 2, handle.y - 150, { steps: 5 });
    await page.mouse.up();
    const after = (await composer(page).boundingBox())!;
    expect(after.height).toBeGreaterThan(before.height + 100);
    const saved = Number(await page.evaluate(() => localStorage.getItem('palaver:composer-height')));
    expect(Math.abs(saved - after.height)).toBeLessThan(3);
    // Minimised to a bar and back, the text stays.
    await composer(page).getByRole('button', { name: 'Minimise composer' }).click();
    expect((await composer(page).boundingBox())!.height).toBeLessThan(100);
    await composer(page).getByRole('button', { name: 'Restore composer' }).click();
    expect(await body(page).inputValue()).toBe('Nice :rocket: ');
    expect(Math.abs((await composer(page).boundingBox())!.height - after.height)).toBeLessThan(3);
  });

  it('on a phone: full screen, the toolbar, a preview tab, and tags with suggestions and duplicate flash', async () => {
    const h = e2e();
    const { general, alice, bob } = h.data;
    const viewer = { ...(await h.forum.ctx.privileges.viewer(alice.uid)), master: true };
    await h.forum.ctx.topics.create(viewer, { cid: general.cid, title: 'Tagged already here', content: 'A topic that carries a tag.', tags: ['javascript'] });
    // The category allows two tags (fewer than the forum's five): the input fills at two.
    await h.forum.ctx.categories.update(viewer, general.cid, { maxTags: 2 });
    const page = await h.open(`/category/${general.slug}`, { as: bob, viewport: PHONE });
    await page.getByRole('button', { name: 'New topic' }).first().click();
    const box = (await composer(page).boundingBox())!;
    expect(box.height).toBeGreaterThan(PHONE.height - 80);
    await composer(page).getByPlaceholder('Enter your topic title here…').fill('Phone topic title');
    const tags = composer(page).locator('.tag-input-field');
    await tags.fill('java');
    await expect.poll(() => composer(page).locator('datalist option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual(['javascript']);
    await tags.fill('JavaScript');
    await tags.press('Enter');
    await tags.fill('javascript,');
    await tags.press(',');
    await composer(page).locator('.tag-flash').waitFor();
    expect(await composer(page).locator('.tag-input .badge').allTextContents()).toEqual(['javascript']);
    await tags.fill('second');
    await tags.press('Enter');
    await composer(page).locator('.tag-input.is-full').waitFor();
    await body(page).click();
    await page.keyboard.type('Hello from a **phone**');
    await composer(page).locator('[data-format="quote"]').click();
    expect(await body(page).inputValue()).toBe('> Hello from a **phone**');
    await shot(page, 'composer-phone');
    await composer(page).getByRole('tab', { name: 'Preview' }).click();
    await composer(page).locator('.composer-preview blockquote strong', { hasText: 'phone' }).waitFor();
    expect(await composer(page).locator('.composer-preview').isVisible()).toBe(true);
    expect(await body(page).isVisible()).toBe(false);
    await shot(page, 'composer-phone-preview');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
