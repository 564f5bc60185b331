import { describe, expect, it } from 'vitest';
import { badgeText } from './badge';
import {
  applyLive, applyRead, combineLists, DROPDOWN_SIZE, liveCount, liveItem, markRead, mergeLive, notificationsOf, showsLive,
  textRuns, titleWithCount, type NotificationItem,
} from './notifications';

const n = (nid: string, datetime = 1, read = false, type = 'new-reply'): NotificationItem => ({ nid, bodyShort: `[[notifications:x, ${nid}]]`, path: `/post/${nid}`, datetime, read, type });

describe('badgeText', () => {
  it('hides the badge at zero (drafts and notifications, spec §3)', () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(-1)).toBeNull();
    expect(badgeText(Number.NaN)).toBeNull();
  });
  it('shows the count, capped at 99+', () => {
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });
});

describe('titleWithCount', () => {
  it('puts NodeBB\'s "(n) " in front of the title when there are unread notifications', () => {
    expect(titleWithCount('Recent | Palaver', 3)).toBe('(3) Recent | Palaver');
    expect(titleWithCount('Recent | Palaver', 0)).toBe('Recent | Palaver');
  });
  it('leaves a title that itself starts with a count alone at zero', () => {
    expect(titleWithCount('(5) things | Palaver', 0)).toBe('(5) things | Palaver');
    expect(titleWithCount('(5) things | Palaver', 2)).toBe('(2) (5) things | Palaver');
  });
});

describe('merging a live notification into a list', () => {
  it('puts it on top', () => {
    expect(mergeLive([n('a'), n('b')], n('c', 5)).map((x) => x.nid)).toEqual(['c', 'a', 'b']);
  });
  it('replaces the older copy of a merged notification (same nid) instead of listing it twice', () => {
    const merged = { ...n('b', 9), bodyShort: 'alice and bob replied' };
    const list = mergeLive([n('a'), n('b'), n('c')], merged);
    expect(list.map((x) => x.nid)).toEqual(['b', 'a', 'c']);
    expect(list[0]!.bodyShort).toBe('alice and bob replied');
  });
  it('keeps the dropdown at its size', () => {
    const full = Array.from({ length: DROPDOWN_SIZE }, (_, i) => n(String(i)));
    expect(mergeLive(full, n('new'), DROPDOWN_SIZE)).toHaveLength(DROPDOWN_SIZE);
  });
});

describe('the unread count', () => {
  it('goes up by one for a new unread notification', () => {
    expect(applyLive({ unread: 2, latest: null }, n('x')).unread).toBe(3);
  });
  it('stays when a merge updates a notification already unread here', () => {
    const s = applyLive({ unread: 1, latest: [n('x')] }, { ...n('x', 2), bodyShort: 'two' });
    expect(s.unread).toBe(1);
    expect(s.latest?.[0]?.bodyShort).toBe('two');
  });
  it('goes up when a read notification becomes unread again by a merge', () => {
    expect(applyLive({ unread: 0, latest: [n('x', 1, true)] }, n('x', 2)).unread).toBe(1);
  });
  it('takes the server\'s count when the event carries one', () => {
    expect(applyLive({ unread: 1, latest: null }, n('x'), 7).unread).toBe(7);
    expect(liveCount({ unreadCount: 4 })).toBe(4);
    expect(liveCount(5)).toBe(5);
    expect(liveCount({ nid: '1' })).toBeUndefined();
  });
  it('drops when one is marked read, never below zero', () => {
    const s = applyRead({ unread: 1, latest: [n('x'), n('y')] }, 'x', true);
    expect(s.unread).toBe(0);
    expect(s.latest!.map((x) => x.read)).toEqual([true, false]);
    expect(applyRead({ unread: 0, latest: null }, 'x', true).unread).toBe(0);
  });
});

describe('lists', () => {
  it('marks all read', () => {
    expect(markRead([n('a'), n('b', 1, true)]).every((x) => x.read)).toBe(true);
  });
  it('combines the API\'s unread and read lists newest first', () => {
    expect(combineLists({ unread: [n('u', 2)], read: [n('r1', 3, true), n('r0', 1, true)] }).map((x) => x.nid)).toEqual(['r1', 'u', 'r0']);
    expect(combineLists(null)).toEqual([]);
  });
  it('reads the notification out of a live payload, or nothing from junk', () => {
    expect(liveItem({ nid: 7, bodyShort: 'b', path: '/post/1', datetime: 3 })).toMatchObject({ nid: '7', read: false });
    expect(liveItem({ notification: { nid: 'a', path: '/p' } })?.nid).toBe('a');
    expect(liveItem(null)).toBeNull();
    expect(liveItem({ path: '/x' })).toBeNull();
  });
  it('adds a live notification to the first page of a matching filter only', () => {
    expect(showsLive({}, n('a'))).toBe(true);
    expect(showsLive({ selectedFilter: { filter: 'mention' } }, n('a'))).toBe(false);
    expect(showsLive({ selectedFilter: { filter: 'new-reply' } }, n('a'))).toBe(true);
    expect(showsLive({ pagination: { currentPage: 2 } }, n('a'))).toBe(false);
    expect(showsLive({ selectedFilter: { filter: 'mention' } }, n('a', 1, false, 'quote'))).toBe(true);
    expect(showsLive({ selectedFilter: { filter: 'group' } }, n('a', 1, false, 'group-invite'))).toBe(true);
  });
});

describe('textRuns', () => {
  it('makes <strong> bold and never keeps other markup', () => {
    expect(textRuns('<strong>alice</strong> replied to <strong>T</strong><img src=x onerror=alert(1)>')).toEqual([
      { text: 'alice', bold: true }, { text: ' replied to ', bold: false }, { text: 'T', bold: true },
    ]);
  });
  it('decodes the text parts with the given decoder', () => {
    expect(textRuns('a &amp; b', (s) => s.replace('&amp;', '&'))).toEqual([{ text: 'a & b', bold: false }]);
  });
});

describe('notificationsOf', () => {
  it('gives each runtime (tab) its own store', () => {
    const a = {};
    const b = {};
    notificationsOf(a).set({ unread: 3, latest: null });
    expect(notificationsOf(a).get().unread).toBe(3);
    expect(notificationsOf(b).get().unread).toBe(0);
  });
});
