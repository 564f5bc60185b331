import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestForum, type TestForum } from '../../server/test/harness.js';
import { createI18n, loadLanguages, NAMESPACES, translate } from './index';

let forum: TestForum;
beforeAll(async () => {
  forum = await startTestForum({ relativePath: '/forum' });
});
afterAll(async () => forum?.close());
afterEach(() => {
  vi.restoreAllMocks();
});

describe('translation files (spec §8)', () => {
  it('loads every namespace of a language from the forum, with the cache-buster', async () => {
    const out = await loadLanguages(forum.baseUrl.replace(/\/$/, ''), 'en-GB', forum.ctx.config.cacheBuster);
    expect(Object.keys(out['en-GB']!).sort()).toEqual([...NAMESPACES].sort());
    expect(out['en-GB']!.error!['revalidate-failure']).toBe('Your session could not be checked again, reconnecting…');
  });

  it('a namespace that fails to load is logged with the status text and left out; the others still load', async () => {
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.join(' ')));
    const out = await loadLanguages(forum.baseUrl.replace(/\/$/, ''), 'en-GB', 'x', ['no-such-namespace']);
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
});
