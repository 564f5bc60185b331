import { CONNECTION_INDICATOR_DELAY_MS, CONNECTION_RECOVERED_HIDE_MS } from '../../shared/constants';

/** What the connection indicator shows (spec §2 "Connection indicator"). */
export type IndicatorView = 'hidden' | 'reconnecting' | 'failed' | 'recovered';

export interface IndicatorState {
  view: IndicatorView;
  /** When the socket dropped (ms), null while connected. */
  droppedAt: number | null;
  /** When the recovery check mark appeared. */
  recoveredAt: number | null;
}

export type IndicatorEvent =
  | { type: 'disconnect'; at: number }
  | { type: 'reconnect-failed'; at: number }
  | { type: 'connect'; at: number }
  | { type: 'tick'; at: number };

export const INITIAL_INDICATOR: IndicatorState = { view: 'hidden', droppedAt: null, recoveredAt: null };

/**
 * Spinner 2 s after a drop; a plug icon on final failure; on recovery a check mark that
 * hides 3 s later. A recovery within the 2 s shows nothing at all.
 */
export function nextIndicator(s: IndicatorState, e: IndicatorEvent): IndicatorState {
  switch (e.type) {
    case 'disconnect':
      return s.droppedAt === null ? { view: s.view === 'recovered' ? 'hidden' : s.view, droppedAt: e.at, recoveredAt: null } : s;
    case 'reconnect-failed':
      return { ...s, view: 'failed', droppedAt: s.droppedAt ?? e.at };
    case 'connect':
      if (s.droppedAt === null) return s;
      return s.view === 'hidden' ? INITIAL_INDICATOR : { view: 'recovered', droppedAt: null, recoveredAt: e.at };
    case 'tick':
      if (s.view === 'hidden' && s.droppedAt !== null && e.at - s.droppedAt >= CONNECTION_INDICATOR_DELAY_MS) return { ...s, view: 'reconnecting' };
      if (s.view === 'recovered' && s.recoveredAt !== null && e.at - s.recoveredAt >= CONNECTION_RECOVERED_HIDE_MS) return INITIAL_INDICATOR;
      return s;
  }
}

/** The room a page joins for live updates ('' for none). */
export function roomFor(template: string, data: { tid?: number; cid?: number }): string {
  if (template === 'topic' && data.tid) return `topic_${data.tid}`;
  if (template === 'category' && data.cid) return `category_${data.cid}`;
  if (['recent', 'popular', 'unread', 'top'].includes(template)) return `${template}_topics`;
  return '';
}

/** Spec §4: after a reconnect, a changed cache-buster on the same host means the forum was updated. */
export function isForumUpdated(current: { buster: string; hostname: string }, reply: { 'cache-buster'?: string; hostname?: string } | null): boolean {
  if (!reply?.['cache-buster'] || !reply.hostname) return false;
  return reply.hostname === current.hostname && reply['cache-buster'] !== current.buster;
}
