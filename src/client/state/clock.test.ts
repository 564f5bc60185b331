import { afterEach, describe, expect, it, vi } from 'vitest';
import { retainTimeagoClock, timeagoClock } from './clock';

describe('relative timestamps clock (spec §9: every 60000 ms)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ticks every 60 s while a timestamp is shown, once for all of them, and stops with the last', () => {
    vi.useFakeTimers();
    const start = timeagoClock.get();
    const first = retainTimeagoClock();
    const second = retainTimeagoClock();
    vi.advanceTimersByTime(59_999);
    expect(timeagoClock.get()).toBe(start);
    vi.advanceTimersByTime(1);
    expect(timeagoClock.get()).toBe(start + 1);
    vi.advanceTimersByTime(60_000);
    expect(timeagoClock.get()).toBe(start + 2);
    first();
    first();
    vi.advanceTimersByTime(60_000);
    expect(timeagoClock.get()).toBe(start + 3);
    second();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(600_000);
    expect(timeagoClock.get()).toBe(start + 3);
  });
});
