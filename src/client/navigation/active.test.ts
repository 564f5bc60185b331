import { describe, expect, it } from 'vitest';
import { isActive } from './active';

const at = (path: string) => `https://forum.test/f${path}`;

describe('isActive', () => {
  it('is active on the same path or a child path', () => {
    expect(isActive('/f/users', at('/users'), '/f')).toBe(true);
    expect(isActive('/f/category/1', at('/category/1/general'), '/f')).toBe(true);
    expect(isActive('/f/users', at('/users-list'), '/f')).toBe(false);
  });
  it('the home link is active only at home', () => {
    expect(isActive('/f/', at('/'), '/f')).toBe(true);
    expect(isActive('/f/', at('/recent'), '/f')).toBe(false);
  });
  it('requires the link query parameters to match', () => {
    expect(isActive('/f/recent?filter=watched', at('/recent?filter=watched&page=2'), '/f')).toBe(true);
    expect(isActive('/f/recent?filter=watched', at('/recent'), '/f')).toBe(false);
    expect(isActive('/f/recent', at('/recent?filter=watched'), '/f')).toBe(true);
  });
});
