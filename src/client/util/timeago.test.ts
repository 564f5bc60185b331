import { describe, expect, it } from 'vitest';
import { formatRelative, timeago } from './timeago';

const now = Date.UTC(2026, 5, 15, 12, 0, 0);
const hour = 3600000;
const day = 86400000;

describe('timeago', () => {
  it('is always absolute with a cutoff of 0', () => {
    const t = timeago(now - hour, now, 'en-GB', 0, 'UTC');
    expect(t.absolute).toBe(true);
    expect(t.text).toBe(t.title);
    expect(t.text).toMatch(/15 Jun 2026/);
  });
  it('is relative inside the cutoff, absolute beyond it', () => {
    expect(timeago(now - 3 * hour, now, 'en-GB', 30).text).toBe('3 hours ago');
    expect(timeago(now - 31 * day, now, 'en-GB', 30, 'UTC').absolute).toBe(true);
    expect(timeago(now - 29 * day, now, 'en-GB', 30).absolute).toBe(false);
  });
  it('allows future times and speaks the member language', () => {
    expect(formatRelative(now + 2 * day, now, 'en-GB')).toBe('in 2 days');
    expect(formatRelative(now - 5 * 60000, now, 'fr')).toBe('il y a 5 minutes');
    expect(formatRelative(now - 10000, now, 'en-GB')).toBe('now');
  });
  it('falls back to en-GB for unknown languages', () => {
    expect(formatRelative(now - day, now, 'xx-invalid-@@')).toBe('yesterday');
  });
});
