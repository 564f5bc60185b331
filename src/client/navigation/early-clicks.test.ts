import { describe, expect, it } from 'vitest';
import { isHeldEarlyClick } from './early-clicks';

describe('early clicks', () => {
  it('holds buttons and non-navigating links only', () => {
    expect(isHeldEarlyClick('BUTTON', null)).toBe(true);
    expect(isHeldEarlyClick('A', '#')).toBe(true);
    expect(isHeldEarlyClick('A', null)).toBe(true);
    expect(isHeldEarlyClick('A', 'javascript:void(0)')).toBe(true);
    expect(isHeldEarlyClick('A', '/recent')).toBe(false);
  });
});
