import { describe, expect, it } from 'vitest';
import { apiUrl, crossesAdminBoundary, isAdminPath, isHashOnlyChange, isInternal, pagePath, isUnremembered } from './url';

const base = 'https://forum.test/community/topic/1';

describe('isInternal', () => {
  it('accepts paths under the relative path', () => {
    expect(isInternal('/community/recent', base, '/community')).toBe(true);
    expect(isInternal('/community', base, '/community')).toBe(true);
    expect(isInternal('recent', base, '/community')).toBe(true);
  });
  it('rejects paths outside the relative path and other origins', () => {
    expect(isInternal('/communityx/recent', base, '/community')).toBe(false);
    expect(isInternal('/other', base, '/community')).toBe(false);
    expect(isInternal('https://elsewhere.test/community/x', base, '/community')).toBe(false);
    expect(isInternal('mailto:a@b.c', base, '/community')).toBe(false);
  });
  it('treats every same-origin path as internal without a relative path', () => {
    expect(isInternal('/anything', 'https://forum.test/', '')).toBe(true);
  });
});

describe('page paths', () => {
  it('strips the relative path and keeps the query', () => {
    expect(pagePath(new URL('https://f.test/community/recent?page=2'), '/community')).toBe('/recent?page=2');
    expect(pagePath(new URL('https://f.test/community'), '/community')).toBe('/');
  });
  it('builds the api address', () => {
    expect(apiUrl('/recent?page=2', '/community')).toBe('/community/api/recent?page=2');
    expect(apiUrl('/', '')).toBe('/api/');
  });
});

describe('admin boundary', () => {
  it('knows admin paths', () => {
    expect(isAdminPath('/admin')).toBe(true);
    expect(isAdminPath('/admin/settings?x=1')).toBe(true);
    expect(isAdminPath('/administrators')).toBe(false);
  });
  it('forces a full load only when crossing', () => {
    expect(crossesAdminBoundary('/recent', '/admin/manage')).toBe(true);
    expect(crossesAdminBoundary('/admin', '/recent')).toBe(true);
    expect(crossesAdminBoundary('/recent', '/popular')).toBe(false);
  });
});

describe('hash-only change', () => {
  it('detects same page with a new hash', () => {
    expect(isHashOnlyChange(new URL('https://f.test/a?x=1'), new URL('https://f.test/a?x=1#top'))).toBe(true);
    expect(isHashOnlyChange(new URL('https://f.test/a'), new URL('https://f.test/b#top'))).toBe(false);
    expect(isHashOnlyChange(new URL('https://f.test/a#x'), new URL('https://f.test/a'))).toBe(false);
  });
});

describe('unremembered pages', () => {
  it('does not remember reset pages', () => {
    expect(isUnremembered('/reset')).toBe(true);
    expect(isUnremembered('/reset/abc')).toBe(true);
    expect(isUnremembered('/recent')).toBe(false);
  });
});
