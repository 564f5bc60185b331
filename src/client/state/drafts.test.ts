import { describe, expect, it } from 'vitest';
import { listDrafts, migrateGuestDrafts, removeDraft, saveDraft, saveId, type KeyValueStore } from './drafts';

function memory(): KeyValueStore {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}

describe('drafts', () => {
  it('saves, replaces and removes drafts', () => {
    const s = memory();
    const id = saveId(5, 'posts.reply', 9);
    saveDraft(s, 5, { save_id: id, action: 'posts.reply', text: 'hi', timestamp: 1, tid: 9 });
    saveDraft(s, 5, { save_id: id, action: 'posts.reply', text: 'hello', timestamp: 2, tid: 9 });
    expect(listDrafts(s, 5).map((d) => d.text)).toEqual(['hello']);
    expect(removeDraft(s, 5, id)).toEqual([]);
  });
  it('drops empty drafts', () => {
    const s = memory();
    saveDraft(s, 1, { save_id: 'x', action: 'topics.post', text: '  ', title: '', timestamp: 1 });
    expect(listDrafts(s, 1)).toEqual([]);
  });
  it('migrates guest drafts on login', () => {
    const s = memory();
    saveDraft(s, 0, { save_id: saveId(-1, 'topics.post', 2), action: 'topics.post', text: 'guest', timestamp: 1, cid: 2 });
    const list = migrateGuestDrafts(s, 7);
    expect(list.map((d) => d.save_id)).toEqual(['draft:7:topics.post:2']);
    expect(listDrafts(s, 0)).toEqual([]);
  });
  it('reads corrupt storage as no drafts', () => {
    const s = memory();
    s.setItem('palaver:drafts:3', '{oops');
    expect(listDrafts(s, 3)).toEqual([]);
  });
});
