import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentTitle } from './render.js';
import type { ClientConfig, PageBase } from '../../shared/types.js';
import { useForum } from '../test/forum-kit.js';

const kit = useForum({ category: 'Platform' });

const HOUR = 3_600_000;

describe('public files', () => {
  it('serves a language file to a member without looking up the session', async () => {
    const { client, user } = await kit.forum.loginAs();
    // A session last seen two hours ago is rolled forward after the first request that reads it.
    const stale = Date.now() - 2 * HOUR;
    await kit.forum.ctx.db.updateTable('sessions').set({ last_seen: stale }).where('uid', '=', user.uid).execute();
    const lastSeen = async () =>
      (await kit.forum.ctx.db.selectFrom('sessions').select('last_seen').where('uid', '=', user.uid).executeTakeFirstOrThrow()).last_seen;

    const lang = await client.get('/assets/language/en-GB/global.json?v=1');
    expect(lang.status).toBe(200);
    expect(lang.body).toHaveProperty('home');
    expect(lang.headers.getSetCookie()).toEqual([]);
    expect(kit.forum.ctx.activity.pending()).toBe(0);
    await kit.forum.ctx.activity.flush();
    expect(await lastSeen()).toBe(stale);

    // The same cookie on a page does read the session: the signal above is a real one.
    const page = await client.get('/api/recent');
    expect(page.status).toBe(200);
    expect(page.body.loggedIn).toBe(true);
    // Rolled by the activity recorder's batch (users/activity.ts), after the request.
    await kit.forum.ctx.activity.flush();
    expect(await lastSeen()).toBeGreaterThan(stale);
  });

  it('still answers a missing language file with a plain 404', async () => {
    const { client } = await kit.forum.loginAs();
    expect((await client.get('/language/en-GB/nope.json')).status).toBe(404);
    expect((await client.get('/assets/language/xx/global.json')).status).toBe(404);
    expect((await client.get('/assets/language/..%2Fen-GB/global.json')).status).toBe(404);
  });

  it('serves a language file long-cached with the cache buster, every key of en-GB in it', async () => {
    const client = kit.forum.client();
    const res = await client.get('/assets/language/en-GB/topic.json?v=abc');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('max-age=31536000');
    expect(res.headers.get('content-type')).toContain('application/json');
    const en = JSON.parse(readFileSync(new URL('../../../public/language/en-GB/topic.json', import.meta.url), 'utf8')) as Record<string, string>;
    expect(res.body).toEqual(en);
    // Without the buster, an hour.
    expect((await client.get('/language/en-GB/topic.json')).headers.get('cache-control')).toContain('max-age=3600');
  });
});

describe('security headers', () => {
  it('sends a content-security policy without inline scripts, nosniff, frame-ancestors and a referrer policy', async () => {
    const res = await kit.forum.client().get('/recent');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values]),
    );
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('script-src-attr')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'self'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    // Plain http: upgrading the page's own requests would break it.
    expect(directives.has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('serves every script in the page from a file: the JSON data blocks are the only inline ones', async () => {
    const res = await kit.forum.client().get('/recent');
    const scripts = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      if (body!.trim()) expect(attrs).toMatch(/type="application\/json"/);
      else expect(attrs).toMatch(/src="/);
    }
    expect(res.text).not.toMatch(/\son[a-z]+=/i);
  });

  it('sends the headers on API answers and errors too', async () => {
    const res = await kit.forum.client().get('/api/v3/topics/999999');
    expect(res.status).toBe(404);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
  });
});

describe('page title', () => {
  const config = { siteTitle: 'Palaver', browserTitle: 'Palaver', titleLayout: '{pageTitle} | {browserTitle}' } as ClientConfig;

  it("keeps $' and $& in a title as typed", () => {
    const page = { title: 'x', titleRaw: "Costs $' and $& and $$" } as unknown as PageBase;
    expect(documentTitle(page, config)).toBe("Costs $' and $& and $$ | Palaver");
  });

  it("shows a topic titled with $' and $& as typed in the page's <title>", async () => {
    const { client } = await kit.forum.loginAs();
    const title = "Costs $' and $& here";
    const made = await client.post('/api/v3/topics', { cid: kit.cid, title, content: 'Dollar signs in the title' });
    expect(made.status).toBe(200);
    const page = await kit.forum.client().get(`/topic/${made.body.response.slug}`);
    expect(page.status).toBe(200);
    const shown = /<title>([^<]*)<\/title>/
      .exec(page.text)?.[1]
      ?.replace(/&#39;|&quot;|&lt;|&gt;|&amp;/g, (e) => ({ '&#39;': "'", '&quot;': '"', '&lt;': '<', '&gt;': '>', '&amp;': '&' })[e]!);
    expect(shown).toBe("Costs $' and $& here | Palaver");
  });
});
