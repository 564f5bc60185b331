import { describe, expect, it } from 'vitest';
import { addTag, isTagConfirmKey, isTagInputFull, tagText, tagValue, type TagRules } from './tags';

describe('tag input', () => {
  const rules = { maxTags: 2, maxTagLength: 15 };
  it('cleans and adds', () => {
    expect(addTag([], '  Hello!World ', rules)).toEqual({ kind: 'added', tags: ['helloworld'] });
  });
  it('ignores blanks and rejects duplicates', () => {
    expect(addTag([], '  ', rules).kind).toBe('blank');
    expect(addTag(['a1'], 'A1', rules)).toEqual({ kind: 'duplicate', existing: 'a1' });
  });
  it('accepts a duplicate when allowed', () => {
    expect(addTag(['a1'], 'a1', { allowDuplicates: true })).toEqual({ kind: 'added', tags: ['a1', 'a1'] });
  });
  it('stops at maxTags', () => {
    expect(addTag(['a', 'b'], 'c', rules).kind).toBe('full');
    expect(isTagInputFull(['a', 'b'], rules)).toBe(true);
    expect(isTagInputFull(['a'], rules)).toBe(false);
  });
  it('confirms on Enter and comma', () => {
    expect(isTagConfirmKey('Enter')).toBe(true);
    expect(isTagConfirmKey(',')).toBe(true);
    expect(isTagConfirmKey('a')).toBe(false);
  });

  it('limits nothing by default: no maxTags, no maxChars, no maxInputLength; tags cut to 15 characters', () => {
    let tags: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = addTag(tags, `tag${i}`, {});
      expect(res.kind).toBe('added');
      tags = (res as { tags: string[] }).tags;
    }
    expect(tags).toHaveLength(40);
    expect(isTagInputFull(tags, {})).toBe(false);
    expect(addTag([], 'abcdefghijklmnopqrstuvwxyz', {})).toEqual({ kind: 'added', tags: ['abcdefghijklmno'] });
  });

  it('maxChars refuses a longer tag (not cut), and takes one at the limit', () => {
    const r = { maxChars: 5, maxTagLength: 50 };
    expect(addTag(['a'], 'sixsix', r)).toEqual({ kind: 'too-long' });
    expect(addTag(['a'], 'five5', r)).toEqual({ kind: 'added', tags: ['a', 'five5'] });
  });

  it('maxInputLength: the tags joined with commas stay within it, and the input is full when they reach it', () => {
    const r = { maxInputLength: 9 };
    // "abc,defg" is 8 characters: room for nothing more than one character.
    expect(addTag(['abc'], 'defg', r)).toEqual({ kind: 'added', tags: ['abc', 'defg'] });
    expect(isTagInputFull(['abc', 'defg'], r)).toBe(false);
    expect(addTag(['abc', 'defg'], 'hi', r)).toEqual({ kind: 'full' });
    // "abc,defg" + "," + "h" is 10: still too long; "ab,defg,h" is exactly 9 and full.
    expect(addTag(['abc', 'defg'], 'h', r)).toEqual({ kind: 'full' });
    expect(addTag(['ab', 'defg'], 'h', r)).toEqual({ kind: 'added', tags: ['ab', 'defg', 'h'] });
    expect(isTagInputFull(['ab', 'defg', 'h'], r)).toBe(true);
  });

  it('single-select keeps one tag: a new one takes the place of the one there', () => {
    const r = { singleSelect: true };
    expect(addTag([], 'first', r)).toEqual({ kind: 'added', tags: ['first'] });
    expect(addTag(['first'], 'second', r)).toEqual({ kind: 'added', tags: ['second'] });
    expect(addTag(['first'], 'first', r)).toEqual({ kind: 'duplicate', existing: 'first' });
  });

  describe('object tags (itemValue)', () => {
    interface Group {
      id: number;
      name: string;
    }
    const r: TagRules<Group> = { itemValue: (g) => String(g.id), itemText: (g) => g.name };
    const admins: Group = { id: 1, name: 'Administrators' };
    const mods: Group = { id: 2, name: 'Global Moderators' };

    it('adds objects, compares them by value and shows their text', () => {
      const res = addTag<Group>([admins], mods, r);
      expect(res).toEqual({ kind: 'added', tags: [admins, mods] });
      expect(addTag<Group>([admins, mods], { id: 2, name: 'Other name, same value' }, r)).toEqual({ kind: 'duplicate', existing: mods });
      expect(tagValue(mods, r)).toBe('2');
      expect(tagText(mods, r)).toBe('Global Moderators');
      expect(tagText(mods, { itemValue: r.itemValue })).toBe('2');
    });

    it('applies maxTags, maxChars and maxInputLength to their values', () => {
      expect(addTag<Group>([admins], mods, { ...r, maxTags: 1 }).kind).toBe('full');
      expect(addTag<Group>([], { id: 123456, name: 'x' }, { ...r, maxChars: 5 }).kind).toBe('too-long');
      // Values "1,2" are 3 characters.
      expect(isTagInputFull([admins, mods], { ...r, maxInputLength: 3 })).toBe(true);
    });

    it('refuses objects when no itemValue is set', () => {
      expect(() => addTag<Group>([], admins, {})).toThrow(/itemValue/);
    });
  });
});
