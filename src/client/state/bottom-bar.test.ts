import { describe, expect, it } from 'vitest';
import { nextBarState } from './bottom-bar';

const input = (y: number, extra: { dropdownOpen?: boolean; suspended?: boolean } = {}) => ({ y, dropdownOpen: false, suspended: false, ...extra });

describe('bottom bar', () => {
  it('hides only after scrolling down more than 10 px', () => {
    const s0 = { lastY: 0, hidden: false };
    expect(nextBarState(s0, input(10))).toEqual(s0);
    expect(nextBarState(s0, input(11))).toEqual({ lastY: 11, hidden: true });
  });
  it('shows on scrolling up', () => {
    expect(nextBarState({ lastY: 300, hidden: true }, input(290))).toEqual({ lastY: 290, hidden: false });
  });
  it('stays shown while a dropdown is open', () => {
    expect(nextBarState({ lastY: 0, hidden: false }, input(500, { dropdownOpen: true })).hidden).toBe(false);
  });
  it('ignores scrolling while posts load', () => {
    expect(nextBarState({ lastY: 0, hidden: false }, input(500, { suspended: true }))).toEqual({ lastY: 500, hidden: false });
  });
});
