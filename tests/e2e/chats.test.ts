/**
 * Chats in the browser (issue 11 item 4; spec §2 chats pages and the sidebar chat list, §7
 * modules.chats.enter): two members in two browser contexts. A opens a direct message with B,
 * B sees it arrive live with the unread badge and "(n)" in the title, sees A typing and A's
 * edit; on a phone the list and the room show one at a time.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestForum } from '../../src/server/test/harness.js';
import { PHONE, SCREENSHOTS, seedSmall, seriousAxeViolations, topicPath, useE2E } from './harness.js';

const e2e = useE2E((forum: TestForum) => seedSmall(forum));

const connected = (page: Page) => page.waitForSelector('html[data-socket=connected]', { state: 'attached', timeout: 10_000 });
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, animations: 'disabled' });
const titleCount = (title: string) => Number(/^\((\d+)\) /.exec(title)?.[1] ?? 0);
const notificationCount = async (page: Page) => Number((await page.locator('.sidebar [data-testid=notifications-count]').textContent({ timeout: 200 }).catch(() => '0')) || 0);
/** Serious axe violations inside the chat dock (axe loaded by seriousAxeViolations first). */
const dockViolations = (page: Page) =>
  page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<Result> } }).axe;
    const res = await axe.run({ include: [['[data-testid=chat-dock]']] }, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
    return res.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
const viewer = async (uid: number) => ({ ...(await e2e().forum.ctx.privileges.viewer(uid)), master: true });

describe('chats (issue 11)', () => {
  it('A opens a DM with B; B gets it live with the badge, sees A typing and A\'s edit', async () => {
    const h = e2e();
    const { alice, bob } = h.data;
    const a = await h.open('/chats', { as: alice });
    const b = await h.open('/recent', { as: bob });
    await Promise.all([connected(a), connected(b)]);
    expect(await b.locator('.sidebar [data-testid=chats-count]').count()).toBe(0);

    // A finds B by name and opens the room.
    await a.getByTestId('chat-new').click();
    await a.getByTestId('chat-user-search').fill('bob');
    await a.getByTestId('chat-user-result').filter({ hasText: 'bob' }).first().click();
    await a.getByTestId('chat-create').click();
    await a.waitForURL(/\/chats\/\d+$/);
    const roomId = Number(/\/chats\/(\d+)$/.exec(a.url())![1]);
    await a.getByTestId('chat-input').waitFor();

    // Enter sends; Shift+Enter makes a new line first.
    await a.getByTestId('chat-input').fill('Hello Bob');
    await a.getByTestId('chat-input').press('Shift+Enter');
    await a.getByTestId('chat-input').pressSequentially('second line');
    expect(await a.getByTestId('chat-input').inputValue()).toBe('Hello Bob\nsecond line');
    await a.getByTestId('chat-input').press('Enter');
    await a.locator('[data-testid=chat-message]', { hasText: 'second line' }).waitFor();
    expect(await a.getByTestId('chat-input').inputValue()).toBe('');
    // The live echo of A's own message does not show it twice.
    await a.waitForTimeout(300);
    expect(await a.locator('[data-testid=chat-message]', { hasText: 'Hello Bob' }).count()).toBe(1);

    expect(await seriousAxeViolations(a)).toEqual([]);

    // B, elsewhere, gets the badge and the title count live.
    const badge = b.locator('.sidebar [data-testid=chats-count]');
    await badge.waitFor({ timeout: 5000 });
    expect(await badge.textContent()).toBe('1');
    // The title's "(n)" counts unread chats on top of unread notifications (a chat may notify too).
    await expect.poll(async () => titleCount(await b.title()), { timeout: 5000 }).toBe((await notificationCount(b)) + 1);
    // The dropdown lists the room, unread, with the teaser; it opens the room.
    await b.locator('.sidebar .chats-toggle').click();
    const row = b.locator('.sidebar [data-testid=chats-menu] [data-testid=chat-room]').first();
    await row.waitFor();
    expect(await row.textContent()).toContain('alice');
    expect(await row.textContent()).toContain('Hello Bob');
    expect(await row.locator('[data-testid=chat-unread]').count()).toBe(1);
    await shot(b, 'chats-dropdown-desktop');
    // On a desktop the room opens in a floating window; its "open full page" goes to the room's page.
    await row.click();
    const window = b.locator(`[data-testid=chat-window][data-roomid="${roomId}"]`);
    await window.locator('[data-testid=chat-message]', { hasText: 'Hello Bob' }).waitFor();
    await window.getByTestId('chat-window-full').click();
    await b.waitForURL(new RegExp(`/chats/${roomId}$`));
    expect(await b.getByTestId('chat-window').count()).toBe(0);
    await b.locator('[data-testid=chat-message]', { hasText: 'Hello Bob' }).waitFor();
    // Reading the room clears the badge and the title count.
    await badge.waitFor({ state: 'detached', timeout: 5000 });
    await expect.poll(async () => titleCount(await b.title()) - (await notificationCount(b)), { timeout: 5000 }).toBe(0);

    // A types: B sees it; A's new message reaches B's open room live.
    await a.getByTestId('chat-input').pressSequentially('typing a reply');
    await expect.poll(() => b.getByTestId('chat-typing').textContent(), { timeout: 5000 }).toContain('alice is typing');
    await a.getByTestId('chat-input').press('Enter');
    await b.locator('[data-testid=chat-message]', { hasText: 'typing a reply' }).waitFor({ timeout: 5000 });
    await expect.poll(() => b.getByTestId('chat-typing').textContent(), { timeout: 8000 }).toBe('');

    // B answers; A sees it live.
    await b.getByTestId('chat-input').fill('Hi Alice!');
    await b.getByTestId('chat-input').press('Enter');
    await a.locator('[data-testid=chat-message]', { hasText: 'Hi Alice!' }).waitFor({ timeout: 5000 });
    // A reads it where it arrives (once A's tab is in front): no unread mark, none on the server.
    await a.bringToFront();
    await expect.poll(() => a.locator(`.chats-list [data-roomid="${roomId}"] [data-testid=chat-unread]`).count(), { timeout: 5000 }).toBe(0);
    await expect.poll(async () => h.forum.ctx.chats.unreadCount(await viewer(alice.uid)), { timeout: 5000 }).toBe(0);

    // A edits the last own message with the up arrow; B sees the edit and the marker.
    await a.getByTestId('chat-input').press('ArrowUp');
    const edit = a.getByTestId('chat-edit-input');
    await edit.waitFor();
    expect(await edit.inputValue()).toBe('typing a reply');
    await edit.fill('typing a reply (edited)');
    await edit.press('Enter');
    const edited = b.locator('[data-testid=chat-message]', { hasText: 'typing a reply (edited)' });
    await edited.waitFor({ timeout: 5000 });
    await edited.getByTestId('chat-edited').waitFor();
    await shot(a, 'chats-room-desktop');
    await shot(b, 'chats-room-desktop-b');
  });

  it('lets an owner pin, search, rename, reply, delete and restore, and manage members', async () => {
    const h = e2e();
    const { alice, bob } = h.data;
    const me = await viewer(alice.uid);
    const room = await h.forum.ctx.chats.create(me, { uids: [bob.uid], roomName: 'Planning' });
    await h.forum.ctx.chats.send(me, room.roomId, 'We need bananas for the picnic');
    await h.forum.ctx.chats.send(await viewer(bob.uid), room.roomId, 'And apples');
    await h.forum.ctx.hooks.idle();
    const page = await h.open(`/chats/${room.roomId}`, { as: alice });
    await connected(page);
    expect(await page.getByTestId('chat-room-name').textContent()).toBe('Planning');
    const bananas = page.locator('[data-testid=chat-message]', { hasText: 'bananas' });

    // Pin, then the pinned panel lists it.
    await bananas.hover();
    await bananas.getByTestId('chat-tools').click();
    await page.getByTestId('chat-pin').click();
    await bananas.locator('.chat-pinned').waitFor();
    await page.getByTestId('chat-pinned-button').click();
    await page.locator('[data-testid=chat-pinned] [data-testid=chat-found]', { hasText: 'bananas' }).waitFor();
    await shot(page, 'chats-pinned-desktop');
    await page.keyboard.press('Escape');
    await page.locator('.chat-panel').waitFor({ state: 'detached' });

    // Search in the room.
    await page.getByTestId('chat-search-button').click();
    await page.getByTestId('chat-search-input').fill('apples');
    await page.getByTestId('chat-search-input').press('Enter');
    await page.locator('[data-testid=chat-search-results] [data-testid=chat-found]', { hasText: 'apples' }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.chat-panel').waitFor({ state: 'detached' });

    // Rename (owners).
    await page.getByTestId('chat-options').click();
    await page.getByTestId('chat-rename').click();
    await page.getByTestId('chat-rename-input').fill('Picnic');
    await page.getByTestId('chat-rename-input').press('Enter');
    await expect.poll(() => page.getByTestId('chat-room-name').textContent()).toBe('Picnic');

    // Reply: the new message quotes the one replied to; :emoji autocomplete offers shortcodes.
    const apples = page.locator('[data-testid=chat-message]', { hasText: 'And apples' });
    await apples.hover();
    await apples.getByTestId('chat-tools').click();
    await page.getByRole('button', { name: 'Reply' }).click();
    await page.getByTestId('chat-replying').waitFor();
    await page.getByTestId('chat-input').pressSequentially('Sure :smil');
    await page.locator('.chat-composer .autocomplete-menu').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('chat-input').fill('Sure, two kilos');
    await page.getByTestId('chat-input').press('Enter');
    const reply = page.locator('[data-testid=chat-message]', { hasText: 'Sure, two kilos' });
    await reply.getByTestId('chat-quote').waitFor();
    expect(await reply.getByTestId('chat-quote').textContent()).toContain('And apples');

    // Delete own message: a placeholder the author may restore.
    await reply.hover();
    await reply.getByTestId('chat-tools').click();
    page.once('dialog', (d) => void d.accept());
    await reply.getByTestId('chat-delete').click();
    const placeholder = page.locator('[data-testid=chat-message].deleted');
    await placeholder.getByTestId('chat-deleted').waitFor();
    await placeholder.hover();
    await placeholder.getByTestId('chat-tools').click();
    await placeholder.getByTestId('chat-restore').click();
    await page.locator('[data-testid=chat-message]', { hasText: 'Sure, two kilos' }).waitFor();

    // Members: add carol, then remove her.
    await page.getByTestId('chat-members-button').click();
    const panel = page.getByTestId('chat-members');
    await panel.getByTestId('chat-user-search').fill('car');
    await panel.getByTestId('chat-user-result').filter({ hasText: 'carol' }).click();
    const carolRow = panel.locator('[data-testid=chat-member]', { hasText: 'carol' });
    await carolRow.waitFor();
    await shot(page, 'chats-members-desktop');
    await carolRow.getByTestId('chat-kick').click();
    await carolRow.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');

    // Notification setting: none.
    await page.getByTestId('chat-options').click();
    await page.getByTestId('chat-notify-0').click();
    await page.getByTestId('chat-options').click();
    expect(await page.getByTestId('chat-notify-0').getAttribute('class')).toContain('active');
    await page.keyboard.press('Escape');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('lists a public room an admin opened, lets a member write in it, and opens a room at a message', async () => {
    const h = e2e();
    const { alice, bob, carol } = h.data;
    const lobby = await h.forum.ctx.chats.create(await viewer(alice.uid), { uids: [], roomName: 'Lobby', type: 'public' });
    const page = await h.open('/chats', { as: bob });
    await connected(page);
    const row = page.locator(`.chats-list [data-roomid="${lobby.roomId}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Lobby');
    await row.click();
    await page.getByTestId('chat-room-view').waitFor();
    await page.getByTestId('chat-input').fill('Hello lobby');
    await page.getByTestId('chat-input').press('Enter');
    await page.locator('[data-testid=chat-message]', { hasText: 'Hello lobby' }).waitFor();
    await shot(page, 'chats-public-desktop');

    // /chats/:roomid/:index (1-based) opens at that message, highlighted.
    const dm = await h.forum.ctx.chats.create(await viewer(carol.uid), { uids: [bob.uid] });
    for (let i = 1; i <= 3; i += 1) await h.forum.ctx.chats.send(await viewer(carol.uid), dm.roomId, `Numbered message ${i}`);
    await h.goto(page, `/chats/${dm.roomId}/2`);
    await page.locator('[data-testid=chat-message].highlight', { hasText: 'Numbered message 2' }).waitFor();
  });

  it('loads older messages when the list is scrolled to the top', async () => {
    const h = e2e();
    const { bob, carol } = h.data;
    const me = await viewer(carol.uid);
    const room = await h.forum.ctx.chats.create(me, { uids: [bob.uid], roomName: 'Long talk' });
    for (let i = 1; i <= 70; i += 1) await h.forum.ctx.chats.send(me, room.roomId, `Line number ${i}.`);
    await h.forum.ctx.hooks.idle();
    const page = await h.open(`/chats/${room.roomId}`, { as: bob });
    await connected(page);
    await page.locator('[data-testid=chat-message]', { hasText: 'Line number 70.' }).waitFor();
    expect(await page.locator('[data-testid=chat-message]', { hasText: 'Line number 1.' }).count()).toBe(0);
    const before = await page.locator('[data-testid=chat-message]').count();
    await page.getByTestId('chat-messages').evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.locator('[data-testid=chat-message]', { hasText: 'Line number 1.' }).waitFor({ timeout: 5000 });
    const after = await page.locator('[data-testid=chat-message]').count();
    expect(after).toBeGreaterThan(before);
    // Each message once, in order.
    const texts = await page.locator('[data-testid=chat-message] .chat-content').allTextContents();
    const numbers = texts.map((x) => Number(/(\d+)/.exec(x)?.[1]));
    expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('uploads a pasted image into the message', async () => {
    const h = e2e();
    const { alice, carol } = h.data;
    const room = await h.forum.ctx.chats.create(await viewer(alice.uid), { uids: [carol.uid] });
    const page = await h.open(`/chats/${room.roomId}`, { as: alice });
    await connected(page);
    const input = page.getByTestId('chat-input');
    await input.fill('A picture:');
    // A 1×1 PNG pasted from the clipboard.
    await input.evaluate((el) => {
      const bytes = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'dot.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => input.inputValue(), { timeout: 5000 }).toMatch(/^A picture:\n!\[[^\]]*\]\([^)]+\)$/);
    await input.press('Enter');
    await page.locator('[data-testid=chat-message] .chat-content img').waitFor({ timeout: 5000 });
  });

  it('keeps the text when sending fails, and shows the error by its key', async () => {
    const h = e2e();
    const { alice, carol } = h.data;
    const room = await h.forum.ctx.chats.create(await viewer(alice.uid), { uids: [carol.uid] });
    const page = await h.open(`/chats/${room.roomId}`, { as: alice });
    await connected(page);
    const max = (await h.forum.ctx.settings.get()).maximumChatMessageLength;
    const long = 'x'.repeat(max + 1);
    await page.getByTestId('chat-input').fill(long);
    await page.getByTestId('chat-input').press('Enter');
    await page.getByTestId('chat-error').waitFor();
    expect(await page.getByTestId('chat-input').inputValue()).toBe(long);
  });

  it('opens a room in a floating window from the dropdown: live, kept across in-page navigation, Escape closes it', async () => {
    const h = e2e();
    const { alice, carol, welcome } = h.data;
    const room = await h.forum.ctx.chats.create(await viewer(carol.uid), { uids: [alice.uid], roomName: 'Window talk' });
    await h.forum.ctx.chats.send(await viewer(carol.uid), room.roomId, 'Carol says hi');
    await h.forum.ctx.hooks.idle();
    const a = await h.open(topicPath(welcome), { as: alice });
    const c = await h.open(`/chats/${room.roomId}`, { as: carol });
    await Promise.all([connected(a), connected(c)]);

    // A, reading a topic, opens the room from the sidebar dropdown: a window docked bottom-right.
    await a.locator('.sidebar .chats-toggle').click();
    await a.locator(`.sidebar [data-testid=chats-menu] [data-testid=chat-room][data-roomid="${room.roomId}"]`).click();
    const win = a.locator(`[data-testid=chat-window][data-roomid="${room.roomId}"]`);
    await win.locator('[data-testid=chat-message]', { hasText: 'Carol says hi' }).waitFor();
    expect(a.url()).toContain(topicPath(welcome));
    expect(await win.getByTestId('chat-window-title').textContent()).toBe('Window talk');
    // Focus is in the window's composer.
    await expect.poll(() => a.evaluate(() => document.activeElement?.closest('[data-testid=chat-window]') !== null && document.activeElement?.getAttribute('data-testid'))).toBe('chat-input');
    const box = await win.boundingBox();
    const size = a.viewportSize()!;
    expect(box!.x + box!.width).toBeGreaterThan(size.width - 40);
    expect(box!.y + box!.height).toBeGreaterThan(size.height - 5);
    // Opening it read the room.
    await expect.poll(async () => h.forum.ctx.chats.unreadCount(await viewer(alice.uid)), { timeout: 5000 }).toBe(0);

    // A sends from the window; C sees it live on the room page.
    await a.keyboard.type('Sent from the floating window');
    await a.keyboard.press('Enter');
    await win.locator('[data-testid=chat-message]', { hasText: 'Sent from the floating window' }).waitFor();
    await c.locator('[data-testid=chat-message]', { hasText: 'Sent from the floating window' }).waitFor({ timeout: 5000 });

    // C types and answers, then edits: the window shows each live.
    await c.getByTestId('chat-input').pressSequentially('an answer');
    await expect.poll(() => win.getByTestId('chat-typing').textContent(), { timeout: 5000 }).toContain('carol is typing');
    await c.getByTestId('chat-input').press('Enter');
    await win.locator('[data-testid=chat-message]', { hasText: 'an answer' }).waitFor({ timeout: 5000 });
    await c.getByTestId('chat-input').press('ArrowUp');
    await c.getByTestId('chat-edit-input').fill('an answer, edited');
    await c.getByTestId('chat-edit-input').press('Enter');
    await win.locator('[data-testid=chat-message]', { hasText: 'an answer, edited' }).getByTestId('chat-edited').waitFor({ timeout: 5000 });

    // A moves to another page in the app: the window stays, with the conversation.
    await a.locator('.sidebar a[href$="/recent"]').first().click();
    await a.waitForURL(/\/recent$/);
    await win.locator('[data-testid=chat-message]', { hasText: 'Sent from the floating window' }).waitFor();
    expect(await win.locator('[data-testid=chat-message]', { hasText: 'an answer, edited' }).count()).toBe(1);
    // And still live there.
    await c.getByTestId('chat-input').fill('after the navigation');
    await c.getByTestId('chat-input').press('Enter');
    await win.locator('[data-testid=chat-message]', { hasText: 'after the navigation' }).waitFor({ timeout: 5000 });
    await shot(a, 'chats-window-desktop');
    // The window itself passes axe (the page under it is the pages' own business).
    await seriousAxeViolations(a);
    expect(await dockViolations(a)).toEqual([]);

    // A reload brings the window back: the tab remembers its docked rooms.
    await a.goto(`${h.forum.baseUrl}${topicPath(welcome)}`);
    await win.locator('[data-testid=chat-message]', { hasText: 'after the navigation' }).waitFor();
    // The topic's composer opens below the window, not over it: the window moves up, whole.
    await a.locator('.page-header').getByRole('button', { name: 'Reply' }).click();
    const composerBox = async () => (await a.locator('section.composer').boundingBox())!;
    await a.locator('section.composer textarea').first().waitFor();
    await expect.poll(async () => Math.round((await win.boundingBox())!.y + (await win.boundingBox())!.height) <= Math.round((await composerBox()).y) + 1).toBe(true);
    expect((await win.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await win.getByTestId('chat-input').fill('typed above the composer');
    await win.getByTestId('chat-input').press('Enter');
    await c.locator('[data-testid=chat-message]', { hasText: 'typed above the composer' }).waitFor({ timeout: 5000 });
    await shot(a, 'chats-window-above-composer-desktop');
    await a.locator('section.composer').getByRole('button', { name: 'Discard' }).click();
    await expect.poll(async () => Math.round((await win.boundingBox())!.y + (await win.boundingBox())!.height)).toBeGreaterThan(a.viewportSize()!.height - 5);

    // Minimise makes it a chip; the chip opens it again.
    await win.getByTestId('chat-window-minimize').click();
    const chip = a.locator(`[data-testid=chat-dock-chip][data-roomid="${room.roomId}"]`);
    await chip.waitFor();
    expect(await win.count()).toBe(0);
    await shot(a, 'chats-window-chip-desktop');
    await chip.locator('button').first().click();
    await win.locator('[data-testid=chat-message]', { hasText: 'after the navigation' }).waitFor();
    // Escape in the composer closes the window.
    await win.getByTestId('chat-input').focus();
    await a.keyboard.press('Escape');
    await win.waitFor({ state: 'detached' });
    expect(await a.getByTestId('chat-dock').count()).toBe(0);
  });

  it('brings back docked windows after a reload, and closes one whose room the member may no longer read', async () => {
    const h = e2e();
    const { alice, bob, carol, welcome } = h.data;
    // Bob, not Alice: an administrator may read any room.
    const mine = await h.forum.ctx.chats.create(await viewer(carol.uid), { uids: [bob.uid], roomName: 'Still mine' });
    const other = await h.forum.ctx.chats.create(await viewer(carol.uid), { uids: [alice.uid], roomName: 'Not for bob' });
    const a = await h.open(topicPath(welcome), { as: bob });
    // The tab's storage says both were docked (as a reload in another session might leave it).
    await a.evaluate(([key, rooms]) => sessionStorage.setItem(key, rooms), [`palaver:chat-dock:${bob.uid}`, JSON.stringify([{ roomId: mine.roomId, minimised: true }, { roomId: other.roomId, minimised: false }])] as const);
    await a.reload();
    await a.locator(`[data-testid=chat-dock-chip][data-roomid="${mine.roomId}"]`).waitFor();
    await a.locator('.alert-toast').filter({ hasText: 'You do not have enough privileges for this action.' }).first().waitFor();
    expect(await a.locator(`[data-testid=chat-window][data-roomid="${other.roomId}"]`).count()).toBe(0);
    expect(await a.getByText('Not for bob').count()).toBe(0);
    await expect.poll(() => a.evaluate((key) => sessionStorage.getItem(key), `palaver:chat-dock:${bob.uid}`)).toBe(JSON.stringify([{ roomId: mine.roomId, minimised: true }]));
  });

  it("opens the direct message room in a floating window from a profile's Chat button", async () => {
    const h = e2e();
    const { bob, carol } = h.data;
    const page = await h.open(`/user/${carol.userslug}`, { as: bob });
    await connected(page);
    await page.getByTestId('profile-chat').click();
    const win = page.getByTestId('chat-window');
    await win.getByTestId('chat-input').waitFor();
    expect(page.url()).toContain(`/user/${carol.userslug}`);
    expect(await win.getByTestId('chat-window-title').textContent()).toBe('carol');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('chat-input');
    await page.keyboard.type('Hello from your profile');
    await page.keyboard.press('Enter');
    await win.locator('[data-testid=chat-message]', { hasText: 'Hello from your profile' }).waitFor();
    const roomId = Number(await win.getAttribute('data-roomid'));
    expect(roomId).toBe(await h.forum.ctx.chats.dmRoomWith(await viewer(bob.uid), carol.uid));
    // "Open full page" goes to the room's page and closes the window.
    await win.getByTestId('chat-window-full').click();
    await page.waitForURL(new RegExp(`/chats/${roomId}$`));
    await page.getByTestId('chat-room-view').locator('[data-testid=chat-message]', { hasText: 'Hello from your profile' }).waitFor();
    expect(await page.getByTestId('chat-window').count()).toBe(0);
  });

  it("shows the chat badge in the server's render, before any script runs", async () => {
    const h = e2e();
    const { bob, carol } = h.data;
    const room = await h.forum.ctx.chats.create(await viewer(carol.uid), { uids: [bob.uid], roomName: 'Badge room' });
    await h.forum.ctx.chats.send(await viewer(carol.uid), room.roomId, 'Unread before the socket');
    await h.forum.ctx.hooks.idle();
    const expected = await h.forum.ctx.chats.unreadCount(await viewer(bob.uid));
    expect(expected).toBeGreaterThan(0);
    const page = await h.open('/recent', { as: bob, javaScript: false });
    expect(await page.locator('.sidebar [data-testid=chats-count]').textContent()).toBe(String(expected));
  });

  it('on a phone, a room picked in the chats dropdown opens its page', async () => {
    const h = e2e();
    const { alice, carol } = h.data;
    const room = await h.forum.ctx.chats.create(await viewer(carol.uid), { uids: [alice.uid], roomName: 'Phone pick' });
    await h.forum.ctx.chats.send(await viewer(carol.uid), room.roomId, 'Open me on the phone');
    await h.forum.ctx.hooks.idle();
    const page = await h.open('/recent', { as: alice, viewport: PHONE });
    await connected(page);
    await page.locator('.bottombar .chats-toggle').click();
    const row = page.locator(`.bottombar [data-testid=chats-menu] [data-testid=chat-room][data-roomid="${room.roomId}"]`);
    await row.waitFor();
    await shot(page, 'chats-dropdown-phone');
    await row.click();
    await page.waitForURL(new RegExp(`/chats/${room.roomId}$`));
    await page.locator('[data-testid=chat-message]', { hasText: 'Open me on the phone' }).waitFor();
    expect(await page.getByTestId('chat-window').count()).toBe(0);
    await shot(page, 'chats-room-from-dropdown-phone');
  });

  it('on a phone shows the list, then the room, then the list again', async () => {
    const h = e2e();
    const { alice, bob } = h.data;
    const room = await h.forum.ctx.chats.create(await viewer(alice.uid), { uids: [bob.uid] });
    await h.forum.ctx.chats.send(await viewer(alice.uid), room.roomId, 'A message for the phone');
    await h.forum.ctx.hooks.idle();
    const page = await h.open('/chats', { as: bob, viewport: PHONE });
    await connected(page);
    const list = page.locator('.chats-list');
    await list.locator('[data-testid=chat-room]').first().waitFor();
    expect(await page.getByTestId('chat-room-view').count()).toBe(0);
    // The bottom bar has the chat button with the unread count.
    await page.locator('.bottombar .chats-toggle').waitFor();
    await shot(page, 'chats-list-phone');
    await list.locator(`[data-roomid="${room.roomId}"]`).click();
    await page.getByTestId('chat-room-view').waitFor();
    expect(await list.isVisible()).toBe(false);
    await page.locator('[data-testid=chat-message]', { hasText: 'A message for the phone' }).waitFor();
    await shot(page, 'chats-room-phone');
    await page.getByTestId('chat-back').click();
    await page.waitForURL(/\/chats$/);
    await list.waitFor({ state: 'visible' });
    expect(await page.getByTestId('chat-room-view').count()).toBe(0);
  });
});
