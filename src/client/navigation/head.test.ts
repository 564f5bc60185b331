import { describe, expect, it } from 'vitest';
import { headTagsHtml, isManagedLink, isManagedMeta } from './head';

describe('managed head tags', () => {
  it('manages description, robots, og and article meta', () => {
    expect(isManagedMeta({ name: 'description', content: 'x' })).toBe(true);
    expect(isManagedMeta({ property: 'og:title', content: 'x' })).toBe(true);
    expect(isManagedMeta({ property: 'article:published_time', content: 'x' })).toBe(true);
    expect(isManagedMeta({ name: 'viewport', content: 'x' })).toBe(false);
  });
  it('manages canonical, alternate and up links', () => {
    expect(isManagedLink({ rel: 'canonical', href: '/x' })).toBe(true);
    expect(isManagedLink({ rel: 'stylesheet', href: '/x' })).toBe(false);
  });
  it('escapes attribute values', () => {
    expect(headTagsHtml([{ name: 'description', content: '"><script>' }], [])).toBe('<meta name="description" content="&quot;&gt;&lt;script&gt;">');
  });
});
