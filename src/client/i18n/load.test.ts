import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestForum, type TestForum } from '../../server/test/harness.js';
import { execFileSync } from 'node:child_process';
import { createI18n, ensureNamespaces, loadLanguages, NAMESPACES, onMissingNamespace, pageNamespaces, translate } from './index';
import { SHELL_NAMESPACES } from './page-namespaces';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum({ relativePath: '/forum' });
});
afterAll(async () => forum?.close());
afterEach(() => {
  vi.restoreAllMocks();
});

describe('translation files (spec §8)', () => {
  it('loads the namespaces asked for from the forum, with the cache-buster', async () => {
    const out = await loadLanguages(forum.baseUrl.replace(/\/$/, ''), 'en-GB', forum.ctx.config.cacheBuster, NAMESPACES);
    expect(Object.keys(out['en-GB']!).sort()).toEqual([...NAMESPACES].sort());
    expect(out['en-GB']!.error!['revalidate-failure']).toBe('Your session could not be checked again, reconnecting…');
  });

  it('a namespace that fails to load is logged with the status text and left out; the others still load', async () => {
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.join(' ')));
    const out = await loadLanguages(forum.baseUrl.replace(/\/$/, ''), 'en-GB', 'x', ['no-such-namespace', 'global']);
    expect(logged).toEqual(['[i18n] could not load en-GB/no-such-namespace: Not Found']);
    expect(out['en-GB']!['no-such-namespace']).toBeUndefined();
    expect(out['en-GB']!.global).toBeDefined();
  });

  it('a missing translation falls back to its key, and is logged once', () => {
    const warned: string[] = [];
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warned.push(args.join(' ')));
    const i18n = createI18n('en-GB', { 'en-GB': { global: { home: 'Home' } } });
    expect(translate(i18n, 'global:home')).toBe('Home');
    expect(translate(i18n, 'global:not-a-key-anywhere')).toBe('global:not-a-key-anywhere');
    expect(translate(i18n, 'global:not-a-key-anywhere')).toBe('global:not-a-key-anywhere');
    expect(warned).toEqual(['[i18n] missing translation: global:not-a-key-anywhere']);
  });

  it("a page loads only the namespaces it needs: the shell's, its module's, the admin frame's on admin pages and its data's markers", () => {
    const home = pageNamespaces('/', 'categories', 'categories', '{"title":"[[pages:home]]"}');
    expect(home).toEqual(expect.arrayContaining([...SHELL_NAMESPACES, 'category']));
    for (const ns of ['register', 'login', 'groups', 'email', 'ip-blacklist', 'admin', 'admin-settings']) expect(home).not.toContain(ns);
    expect(pageNamespaces('/register', 'register', 'register')).toEqual(expect.arrayContaining(['register']));
    expect(pageNamespaces('/admin/settings/general', 'admin/settings/general', 'admin/settings/index')).toEqual(expect.arrayContaining(['admin', 'admin-settings']));
    // A server text's marker brings its namespace.
    expect(pageNamespaces('/x', 'topic', 'topic', '{"events":[{"text":"[[groups:membership.accept]]"}]}')).toContain('groups');
  });

  it('a key of a namespace not loaded reads as nothing, loads the namespace, then reads as its text', async () => {
    const base = forum.baseUrl.replace(/\/$/, '');
    const i18n = createI18n('de', await loadLanguages(base, 'de', forum.ctx.config.cacheBuster, ['global']));
    const asked: string[] = [];
    onMissingNamespace(i18n, (ns) => void asked.push(ns));
    expect(translate(i18n, 'register:register')).toBe('');
    expect(asked).toEqual(['register']);
    await ensureNamespaces(i18n, base, forum.ctx.config.cacheBuster, ['register']);
    expect(translate(i18n, 'register:register')).toBe('Registrieren');
  });

  it('the generated page namespaces are up to date with the sources', () => {
    expect(() => execFileSync(process.execPath, ['scripts/language-namespaces.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});
