import { describe, expect, it } from 'vitest';
import { fillArgs, translateBrackets } from './brackets';

describe('translateBrackets', () => {
  const dict: Record<string, string> = { 'error:no-privileges': 'No privileges', 'error:too-many-posts': 'Wait %1 s' };
  const lookup = (key: string, args: string[]) => fillArgs(dict[key] ?? key, args);
  it('translates keys with and without arguments', () => {
    expect(translateBrackets('[[error:no-privileges]]', lookup)).toBe('No privileges');
    expect(translateBrackets('Oops: [[error:too-many-posts, 10]]!', lookup)).toBe('Oops: Wait 10 s!');
  });
  it('leaves plain text alone and shows unknown keys as their key', () => {
    expect(translateBrackets('plain', lookup)).toBe('plain');
    expect(translateBrackets('[[x:missing]]', lookup)).toBe('x:missing');
  });
});
