import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScrollTracker, nextBarState } from './bottom-bar';

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

describe('bottom bar scroll tracking (spec §4, §9: throttle 250 ms, re-enable 250 ms)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const setup = () => {
    vi.useFakeTimers();
    const page = { y: 0, dropdownOpen: false, paused: false };
    const shown: boolean[] = [];
    const tracker = createScrollTracker(() => ({ ...page }), (hidden) => shown.push(hidden), 0);
    return { page, shown, tracker };
  };

  it('evaluates a scroll at once, then at most every 250 ms, keeping the last position', () => {
    const { page, shown, tracker } = setup();
    page.y = 100;
    tracker.onScroll();
    expect(shown).toEqual([true]);
    // Scrolling up within 250 ms: nothing yet...
    vi.advanceTimersByTime(100);
    page.y = 50;
    tracker.onScroll();
    vi.advanceTimersByTime(100);
    page.y = 20;
    tracker.onScroll();
    expect(shown).toEqual([true]);
    vi.advanceTimersByTime(49);
    expect(shown).toEqual([true]);
    // ...then one evaluation 250 ms after the first, with the latest position.
    vi.advanceTimersByTime(1);
    expect(shown).toEqual([true, false]);
    vi.advanceTimersByTime(1000);
    expect(shown).toEqual([true, false]);
  });

  it('stays put while posts load and for 250 ms after they finished', () => {
    const { page, shown, tracker } = setup();
    page.paused = true;
    page.y = 500;
    tracker.onScroll();
    expect(shown).toEqual([false]);
    page.paused = false;
    tracker.postsLoaded();
    vi.advanceTimersByTime(250);
    page.y = 900;
    tracker.onScroll();
    // 250 ms after the posts loaded, scrolling down hides the bar again.
    expect(shown.at(-1)).toBe(true);
  });

  it('ignores a scroll inside the 250 ms after posts loaded', () => {
    const { page, shown, tracker } = setup();
    vi.advanceTimersByTime(1000);
    tracker.postsLoaded();
    vi.advanceTimersByTime(249);
    page.y = 800;
    tracker.onScroll();
    expect(shown).toEqual([false]);
    vi.advanceTimersByTime(300);
    page.y = 1200;
    tracker.onScroll();
    expect(shown).toEqual([false, true]);
  });
});
