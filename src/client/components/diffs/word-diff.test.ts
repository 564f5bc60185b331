import { describe, expect, it } from 'vitest';
import { wordDiff } from './word-diff';

describe('wordDiff', () => {
  it('marks inserted and deleted words, keeps the rest', () => {
    expect(wordDiff('the quick brown fox', 'the slow brown fox jumps')).toEqual([
      { kind: 'same', text: 'the ' },
      { kind: 'del', text: 'quick' },
      { kind: 'ins', text: 'slow' },
      { kind: 'same', text: ' brown fox ' },
      { kind: 'ins', text: 'jumps' },
    ]);
  });

  it('answers one unchanged run for equal texts', () => {
    expect(wordDiff('same text', 'same text')).toEqual([{ kind: 'same', text: 'same text' }]);
  });
});
