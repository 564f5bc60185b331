/**
 * No English left (issue 56): a member's journey in German, Arabic and Japanese (register, a
 * new topic, a reply, search, settings, notifications) and an administrator's pages, each page
 * scanned: every visible text node is checked against en-GB's strings, and one that is an
 * en-GB text (and not also the language's own) fails the test. User content (posts, titles,
 * names: dir="auto") and brand names are left out of the scan.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { categoryPath, DESKTOP, seedSmall, topicPath, useE2E } from './harness.js';

const e2e = useE2E(seedSmall);
const LANGS = join(import.meta.dirname, '../../public/language');

/** Every value of a language's files. */
function strings(lang: string): string[] {
  return readdirSync(join(LANGS, lang)).flatMap((f) => Object.values(JSON.parse(readFileSync(join(LANGS, lang, f), 'utf8')) as Record<string, string>));
}

/** Texts that are English by nature on any page: brand and product names, codes, the seed's content. */
const ALLOWED = new Set(['Palaver', 'NodeBB', 'Markdown', 'GitHub', 'RSS', 'API', 'OK', 'Email', 'E-mail', 'URL', 'HTML', 'CSS', 'JavaScript', 'SQLite', 'PostgreSQL', 'Redis', 'IP']);

/** A checker: does this text read as one of en-GB's strings that the language says otherwise? */
function englishChecker(lang: string): (text: string) => boolean {
  const own = new Set(strings(lang).map((s) => s.trim()));
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const raw of strings('en-GB')) {
    const s = raw.replace(/<[^>]+>/g, '').trim();
    // Short or letterless texts ("%1", "·", "OK") say nothing about the language.
    if (s.replace(/%\d/g, '').replace(/[^A-Za-z]/g, '').length < 4 || own.has(raw.trim()) || ALLOWED.has(s)) continue;
    if (/%\d/.test(s)) patterns.push(new RegExp(`^${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%\d/g, '.+')}$`));
    else exact.add(s);
  }
  return (text) => exact.has(text) || patterns.some((p) => p.test(text));
}

/** The visible text nodes of the page, less user content. */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.nodeValue ?? '').replace(/\s+/g, ' ').trim();
      const el = n.parentElement;
      if (!text || !el || el.closest('script, style, noscript, code, pre, .post-content, [dir="auto"], .chat-content')) continue;
      if (!el.checkVisibility()) continue;
      out.push(text);
    }
    // Texts a reader meets without seeing them as nodes: labels, placeholders, titles.
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('[placeholder], [aria-label], [title]'))) {
      if (el.closest('[dir="auto"], .post-content') || !el.checkVisibility()) continue;
      for (const a of ['placeholder', 'aria-label', 'title']) {
        const v = el.getAttribute(a)?.trim();
        if (v) out.push(v);
      }
    }
    return out;
  });
}

for (const lang of ['de', 'ar', 'ja']) {
  describe(`no English on the pages of a member and an administrator who read ${lang}`, () => {
    it(`${lang}: register, write, reply, search, settings, notifications, admin pages`, async () => {
      const h = e2e();
      const { general, alice, bob } = h.data;
      const english = englishChecker(lang);
      const found: string[] = [];
      const scan = async (page: Page, where: string) => {
        await page.evaluate(() => document.fonts.ready);
        for (const t of await visibleTexts(page)) if (english(t)) found.push(`${where}: "${t}"`);
      };
      // A guest whose browser reads the language registers.
      const ctx = await h.context({ locale: lang, viewport: DESKTOP });
      const page = await ctx.newPage();
      await h.goto(page, '/register');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      await scan(page, 'register');
      const name = `reader${lang.replace('-', '')}`;
      await page.locator('input[autocomplete="username"]').fill(name);
      await page.locator('input[type="email"]').fill(`${name}@example.com`);
      await page.locator('input[type="password"]').nth(0).fill('Sturdy-Lantern-93');
      await page.locator('input[type="password"]').nth(1).fill('Sturdy-Lantern-93');
      await page.locator('form button[type="submit"]').click();
      await page.waitForURL(`${h.base}/`);
      await page.waitForSelector('html[data-loaded]', { state: 'attached' });
      await scan(page, 'home');
      const member = (await h.forum.ctx.users.byUsername(name))!;
      // A new topic from the category page.
      await h.goto(page, categoryPath(general));
      await scan(page, 'category');
      await page.locator('#new_topic').click();
      await page.locator('.composer textarea.composer-textarea').waitFor();
      await scan(page, 'composer');
      await page.locator('.composer input[dir="auto"]').first().fill('Eine Frage zum Forum');
      await page.locator('.composer textarea.composer-textarea').fill('Wie ändere ich mein Profilbild? Danke im Voraus.');
      await page.locator('.composer button[type="submit"]').click();
      await page.waitForURL(/\/topic\//);
      await page.waitForSelector('.post-content');
      await scan(page, 'new topic');
      // bob replies and mentions the member: a notification.
      const tid = Number(/\/topic\/(\d+)/.exec(page.url())![1]);
      await h.forum.ctx.posts.reply({ ...(await h.forum.ctx.privileges.viewer(bob.uid)), master: true }, tid, { content: `@${name} schau mal in den Einstellungen nach.` });
      await h.forum.ctx.hooks.idle();
      // The member replies in the welcome topic.
      await h.goto(page, topicPath(h.data.welcome));
      await scan(page, 'topic');
      const posts = await page.locator('.post-content').count();
      await page.locator('.page-header .btn-primary').first().click();
      await page.locator('.composer textarea.composer-textarea').fill('Danke, sieht gut aus!');
      await page.locator('.composer button[type="submit"]').click();
      await expect.poll(() => page.locator('.post-content').count()).toBe(posts + 1);
      await scan(page, 'topic after the reply');
      await h.goto(page, `/search?term=${encodeURIComponent('Palaver')}&in=titlesposts`);
      await scan(page, 'search');
      await h.goto(page, `/user/${member.userslug}/settings`);
      await scan(page, 'settings');
      await h.goto(page, '/notifications');
      await scan(page, 'notifications');
      await h.goto(page, `/user/${member.userslug}`);
      await scan(page, 'profile');
      // The administrator, in the same language.
      await h.forum.ctx.users.saveSettings(await h.forum.ctx.privileges.viewer(alice.uid), alice.uid, { userLang: lang });
      const admin = await h.open('/admin', { as: alice, viewport: DESKTOP });
      await scan(admin, 'admin dashboard');
      for (const path of ['/admin/settings/general', '/admin/manage/categories', '/admin/manage/users', '/admin/settings/language']) {
        await h.goto(admin, path);
        await scan(admin, path);
      }
      await h.forum.ctx.users.saveSettings(await h.forum.ctx.privileges.viewer(alice.uid), alice.uid, { userLang: '' });
      expect([...new Set(found)]).toEqual([]);
    });
  });
}
