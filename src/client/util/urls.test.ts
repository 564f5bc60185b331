import { describe, expect, it } from 'vitest';
import { categoryPath, topicPath, withQuery } from './urls';

describe('object paths', () => {
  it('builds topic paths from either slug style', () => {
    expect(topicPath(3, 'hello')).toBe('/topic/3/hello');
    expect(topicPath(3, '3/hello', 5)).toBe('/topic/3/hello/5');
    expect(topicPath(3, 'hello', 1)).toBe('/topic/3/hello');
    expect(categoryPath(2, '2/general')).toBe('/category/2/general');
  });
  it('edits query parameters', () => {
    expect(withQuery('/recent?page=2&x=1', 'page', 3)).toBe('/recent?page=3&x=1');
    expect(withQuery('/recent?page=2', 'page', null)).toBe('/recent');
  });
});
