import { describe, expect, it } from 'vitest';
import { currentPath } from './hooks';

describe('currentPath', () => {
  it('strips the relative path and keeps the query', () => {
    expect(currentPath('https://f.test/forum/recent?page=2', '/forum')).toBe('/recent?page=2');
    expect(currentPath('/forum', '/forum')).toBe('/');
    expect(currentPath('/recent', '')).toBe('/recent');
  });
});
