import { describe, expect, it } from 'vitest';
import { externalLinkAction, isWhitelisted, shouldHandleClick, type ClickInfo, type LinkInfo } from './links';

const site = { base: 'https://forum.test/f/recent', relativePath: '/f' };
const left: ClickInfo = { button: 0, ctrlKey: false, shiftKey: false, metaKey: false };
const link = (href: string | null, extra: Partial<LinkInfo> = {}): LinkInfo => ({ href, target: null, ajaxify: null, ...extra });

describe('shouldHandleClick', () => {
  it('handles a left click on an internal page link', () => {
    expect(shouldHandleClick(link('/f/topic/1/hello'), left, site)).toBe(true);
    expect(shouldHandleClick(link('popular'), left, site)).toBe(true);
  });
  it.each([
    ['/f/feed.rss'],
    ['/f/sitemap.xml'],
    ['/f/sitemap/topics.1.xml'],
    ['/f/uploads/files/a.png'],
    ['/f/assets/main.js'],
    ['/f/api/recent'],
    [''],
    ['#'],
    ['javascript:void(0)'],
    ['mailto:x@y.z'],
    ['ftp://forum.test/f/x'],
    ['https://other.test/f/recent'],
    ['/elsewhere'],
  ])('leaves %s to the browser', (href) => {
    expect(shouldHandleClick(link(href), left, site)).toBe(false);
  });
  it('leaves links without href, with a target or data-ajaxify=false', () => {
    expect(shouldHandleClick(link(null), left, site)).toBe(false);
    expect(shouldHandleClick(link('/f/recent', { target: '_blank' }), left, site)).toBe(false);
    expect(shouldHandleClick(link('/f/recent', { ajaxify: 'false' }), left, site)).toBe(false);
  });
  it('leaves modified and non-left clicks', () => {
    expect(shouldHandleClick(link('/f/recent'), { ...left, ctrlKey: true }, site)).toBe(false);
    expect(shouldHandleClick(link('/f/recent'), { ...left, shiftKey: true }, site)).toBe(false);
    expect(shouldHandleClick(link('/f/recent'), { ...left, metaKey: true }, site)).toBe(false);
    expect(shouldHandleClick(link('/f/recent'), { ...left, button: 1 }, site)).toBe(false);
  });
});

describe('outgoing links', () => {
  const opts = { useOutgoingLinksPage: true, openOutgoingLinksInNewTab: false, outgoingLinksWhitelist: '', probe: false };
  it('sends external links through the interstitial unless whitelisted', () => {
    expect(externalLinkAction('https://x.test/a', opts)).toEqual({ kind: 'navigate', path: '/outgoing?url=https%3A%2F%2Fx.test%2Fa' });
    expect(externalLinkAction('https://x.test/a', { ...opts, outgoingLinksWhitelist: 'y.test, x.test' })).toEqual({ kind: 'default' });
  });
  it('an empty whitelist skips none', () => {
    expect(isWhitelisted('https://x.test', '')).toBe(false);
    expect(isWhitelisted('https://x.test', 'a.test x.test')).toBe(true);
  });
  it('probes first when federation probing is on, else new tab when configured', () => {
    expect(externalLinkAction('https://x.test', { ...opts, probe: true }).kind).toBe('navigate');
    expect(externalLinkAction('https://x.test', { ...opts, useOutgoingLinksPage: false, openOutgoingLinksInNewTab: true })).toEqual({ kind: 'new-tab' });
  });
});
