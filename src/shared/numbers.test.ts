import { describe, expect, it } from 'vitest';
import { humanReadableNumber } from './numbers.js';

describe('large numbers shortened (spec §5)', () => {
  it('k above 999, m above 999999, one decimal cut (not rounded) and dropped when zero', () => {
    expect(humanReadableNumber(0)).toBe('0');
    expect(humanReadableNumber(999)).toBe('999');
    expect(humanReadableNumber(1000)).toBe('1k');
    expect(humanReadableNumber(1250)).toBe('1.2k');
    expect(humanReadableNumber(1299)).toBe('1.2k');
    expect(humanReadableNumber(999999)).toBe('999.9k');
    expect(humanReadableNumber(1000000)).toBe('1m');
    expect(humanReadableNumber(2560000)).toBe('2.5m');
  });
  it('keeps the sign of a negative count (votes)', () => {
    expect(humanReadableNumber(-5)).toBe('-5');
    expect(humanReadableNumber(-1500)).toBe('-1.5k');
  });
});
