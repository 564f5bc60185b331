import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdEarlyClicks, isHeldEarlyClick } from './early-clicks';

describe('early clicks', () => {
  it('holds buttons and non-navigating links only', () => {
    expect(isHeldEarlyClick('BUTTON', null)).toBe(true);
    expect(isHeldEarlyClick('A', '#')).toBe(true);
    expect(isHeldEarlyClick('A', null)).toBe(true);
    expect(isHeldEarlyClick('A', 'javascript:void(0)')).toBe(true);
    expect(isHeldEarlyClick('A', '/recent')).toBe(false);
  });
});

describe('early clicks before the body exists (spec §9: retry every 50 ms)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('attaches its listener once the body appears, looking again every 50 ms', () => {
    vi.useFakeTimers();
    const listeners: string[] = [];
    const body = { addEventListener: (type: string) => listeners.push(type), removeEventListener: () => undefined };
    const doc = { body: null as typeof body | null };
    holdEarlyClicks(doc as unknown as Document);
    vi.advanceTimersByTime(120);
    expect(listeners).toEqual([]);
    doc.body = body;
    // The next look is at 150 ms.
    vi.advanceTimersByTime(29);
    expect(listeners).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(listeners).toEqual(['click']);
    vi.advanceTimersByTime(500);
    expect(listeners).toEqual(['click']);
  });

  it('stops looking once released', () => {
    vi.useFakeTimers();
    const doc = { body: null };
    const held = holdEarlyClicks(doc as unknown as Document);
    held.release();
    vi.advanceTimersByTime(50);
    expect(vi.getTimerCount()).toBe(0);
  });
});
