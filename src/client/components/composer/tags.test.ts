import { describe, expect, it } from 'vitest';
import { addTag, isTagConfirmKey } from './tags';

describe('tag input', () => {
  const rules = { maxTags: 2, maxTagLength: 15 };
  it('cleans and adds', () => {
    expect(addTag([], '  Hello!World ', rules)).toEqual({ kind: 'added', tags: ['helloworld'] });
  });
  it('ignores blanks and rejects duplicates', () => {
    expect(addTag([], '  ', rules).kind).toBe('blank');
    expect(addTag(['a1'], 'A1', rules)).toEqual({ kind: 'duplicate', existing: 'a1' });
  });
  it('stops at maxTags', () => {
    expect(addTag(['a', 'b'], 'c', rules).kind).toBe('full');
  });
  it('confirms on Enter and comma', () => {
    expect(isTagConfirmKey('Enter')).toBe(true);
    expect(isTagConfirmKey(',')).toBe(true);
    expect(isTagConfirmKey('a')).toBe(false);
  });
});
