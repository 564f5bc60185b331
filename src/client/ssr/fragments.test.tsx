import { afterEach, describe, expect, it, vi } from 'vitest';
import { cachedFrame, clearFragments, fragmentStats, keepFrame, type Frame } from './fragments';

const frame = (text: string): Frame => ({ pieces: [new TextEncoder().encode(text)], holes: [] });

describe('the frame pool', () => {
  afterEach(() => {
    vi.useRealTimers();
    clearFragments();
  });

  // A frame's key names the page's parts by identity: once the server rebuilt them (every few
  // seconds) nothing reads it again, and it must not wait for the pool's bound to go.
  it('drops frames left unread, and keeps the ones read', () => {
    vi.useFakeTimers();
    keepFrame('dead', frame('a page whose parts were rebuilt'));
    keepFrame('live', frame('a page read all the time'));
    for (let s = 0; s < 12; s++) {
      vi.advanceTimersByTime(1000);
      expect(cachedFrame('live')).toBeDefined();
    }
    keepFrame('new', frame('a new page'));
    expect(cachedFrame('dead')).toBeUndefined();
    expect(cachedFrame('live')).toBeDefined();
    expect(cachedFrame('new')).toBeDefined();
    expect(fragmentStats().frames.entries).toBe(2);
    expect(fragmentStats().frames.chars).toBe('live'.length + 'a page read all the time'.length + 'new'.length + 'a new page'.length);
  });
});
