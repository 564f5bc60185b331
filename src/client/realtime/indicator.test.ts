import { describe, expect, it } from 'vitest';
import { INITIAL_INDICATOR, isForumUpdated, nextIndicator, roomFor, type IndicatorEvent } from './indicator';

const run = (events: IndicatorEvent[]) => events.reduce(nextIndicator, INITIAL_INDICATOR).view;

describe('connection indicator', () => {
  it('shows the spinner only 2 s after a drop', () => {
    expect(run([{ type: 'disconnect', at: 0 }, { type: 'tick', at: 1999 }])).toBe('hidden');
    expect(run([{ type: 'disconnect', at: 0 }, { type: 'tick', at: 2000 }])).toBe('reconnecting');
  });
  it('shows nothing when the socket comes back within 2 s', () => {
    expect(run([{ type: 'disconnect', at: 0 }, { type: 'connect', at: 1500 }, { type: 'tick', at: 2500 }])).toBe('hidden');
  });
  it('turns into a plug on final failure', () => {
    expect(run([{ type: 'disconnect', at: 0 }, { type: 'tick', at: 2000 }, { type: 'reconnect-failed', at: 9000 }])).toBe('failed');
  });
  it('shows the check mark on recovery and hides it after 3 s', () => {
    const events: IndicatorEvent[] = [{ type: 'disconnect', at: 0 }, { type: 'tick', at: 2000 }, { type: 'connect', at: 5000 }];
    expect(run(events)).toBe('recovered');
    expect(run([...events, { type: 'tick', at: 7999 }])).toBe('recovered');
    expect(run([...events, { type: 'tick', at: 8000 }])).toBe('hidden');
  });
});

describe('rooms and updates', () => {
  it('names rooms by page', () => {
    expect(roomFor('topic', { tid: 3 })).toBe('topic_3');
    expect(roomFor('category', { cid: 2 })).toBe('category_2');
    expect(roomFor('recent', {})).toBe('recent_topics');
    expect(roomFor('users', {})).toBe('');
  });
  it('detects a forum update on the same host only', () => {
    const cur = { buster: 'a', hostname: 'h1' };
    expect(isForumUpdated(cur, { 'cache-buster': 'b', hostname: 'h1' })).toBe(true);
    expect(isForumUpdated(cur, { 'cache-buster': 'b', hostname: 'h2' })).toBe(false);
    expect(isForumUpdated(cur, { 'cache-buster': 'a', hostname: 'h1' })).toBe(false);
  });
});
