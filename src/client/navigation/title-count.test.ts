import { describe, expect, it } from 'vitest';
import { notificationsOf } from '../state/notifications';
import { setDocumentTitle, watchTitleCount } from './title-count';

describe('the unread count in the document title', () => {
  it('follows the count live and survives navigation', () => {
    const rt = {};
    const doc = { title: 'Recent | Palaver' };
    const stop = watchTitleCount(rt, doc);
    expect(doc.title).toBe('Recent | Palaver');
    notificationsOf(rt).set((s) => ({ ...s, unread: 3 }));
    expect(doc.title).toBe('(3) Recent | Palaver');
    setDocumentTitle(rt, 'Topic | Palaver', doc);
    expect(doc.title).toBe('(3) Topic | Palaver');
    notificationsOf(rt).set((s) => ({ ...s, unread: 0 }));
    expect(doc.title).toBe('Topic | Palaver');
    stop();
  });
  it('keeps a page title that starts with "(n) " itself', () => {
    const rt = {};
    const doc = { title: '' };
    setDocumentTitle(rt, '(5) things | Palaver', doc);
    const stop = watchTitleCount(rt, doc);
    notificationsOf(rt).set((s) => ({ ...s, unread: 1 }));
    expect(doc.title).toBe('(1) (5) things | Palaver');
    notificationsOf(rt).set((s) => ({ ...s, unread: 0 }));
    expect(doc.title).toBe('(5) things | Palaver');
    stop();
  });
});
