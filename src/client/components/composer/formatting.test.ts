import { describe, expect, it } from 'vitest';
import { formatEdit, shortcutOf } from './formatting';

/** Applies an edit and shows the selection with [ and ]. */
function run(value: string, start: number, end: number, id: Parameters<typeof formatEdit>[3]) {
  const e = formatEdit(value, start, end, id, 'text');
  const next = value.slice(0, e.start) + e.text + value.slice(e.end);
  return `${next.slice(0, e.selStart)}[${next.slice(e.selStart, e.selEnd)}]${next.slice(e.selEnd)}`;
}

describe('formatting toolbar edits', () => {
  it('wraps the selection, and unwraps it when already wrapped', () => {
    expect(run('say hello now', 4, 9, 'bold')).toBe('say **[hello]** now');
    expect(run('say **hello** now', 6, 11, 'bold')).toBe('say [hello] now');
    expect(run('a b', 2, 3, 'italic')).toBe('a *[b]*');
    expect(run('a b', 2, 3, 'strike')).toBe('a ~~[b]~~');
    expect(run('a b', 2, 3, 'spoiler')).toBe('a ||[b]||');
    expect(run('a b', 2, 3, 'code')).toBe('a `[b]`');
  });
  it('inserts a selected placeholder with nothing selected', () => {
    expect(run('x ', 2, 2, 'bold')).toBe('x **[text]**');
    expect(run('', 0, 0, 'heading')).toBe('## [text]');
  });
  it('prefixes every selected line, and removes the prefixes when all have them', () => {
    expect(run('one\ntwo', 0, 7, 'quote')).toBe('[> one\n> two]');
    expect(run('> one\n> two', 0, 11, 'quote')).toBe('[one\ntwo]');
    expect(run('one\ntwo', 1, 5, 'olist')).toBe('[1. one\n2. two]');
    expect(run('one', 1, 1, 'list')).toBe('[- one]');
  });
  it('makes links and images, selecting the URL when text was selected', () => {
    expect(run('see docs', 4, 8, 'link')).toBe('see [docs]([https://])');
    expect(run('', 0, 0, 'image')).toBe('![[text]](https://)');
    expect(run('a\nb', 0, 3, 'code')).toBe('```\n[a\nb]\n```');
  });
  it('maps Ctrl/Cmd shortcuts', () => {
    expect(shortcutOf({ key: 'b', ctrlKey: true, metaKey: false, shiftKey: false, altKey: false })).toBe('bold');
    expect(shortcutOf({ key: 'I', ctrlKey: false, metaKey: true, shiftKey: false, altKey: false })).toBe('italic');
    expect(shortcutOf({ key: 'b', ctrlKey: false, metaKey: false, shiftKey: false, altKey: false })).toBeNull();
  });
});
