import { describe, expect, it } from 'vitest';
import { closeDocked, dockKey, dockOf, limitDock, loadDock, MAX_DOCKED, MAX_OPEN_WINDOWS, openDocked, saveDock, toggleDocked } from './dock';

const state = (rt: object) => dockOf(rt).get().rooms.map((r) => `${r.roomId}${r.minimised ? '-' : ''}`);

describe('chat dock', () => {
  it('keeps at most three windows open: a fourth minimises the oldest open one to a chip', () => {
    const rt = {};
    for (const id of [1, 2, 3]) openDocked(rt, id);
    expect(state(rt)).toEqual(['1', '2', '3']);
    openDocked(rt, 4);
    expect(MAX_OPEN_WINDOWS).toBe(3);
    expect(state(rt)).toEqual(['1-', '2', '3', '4']);
    // A chip opened again is the newest window; the oldest open one becomes a chip.
    toggleDocked(rt, 1);
    expect(state(rt)).toEqual(['2-', '3', '4', '1']);
    // Opening a room already docked does not add a second window for it.
    openDocked(rt, 3);
    expect(state(rt)).toEqual(['2-', '4', '1', '3']);
    toggleDocked(rt, 4);
    expect(state(rt)).toEqual(['2-', '4-', '1', '3']);
    closeDocked(rt, 2);
    expect(state(rt)).toEqual(['4-', '1', '3']);
  });

  it('drops the oldest chip beyond the docked limit', () => {
    const rooms = Array.from({ length: MAX_DOCKED + 1 }, (_, i) => ({ roomId: i + 1, minimised: i < MAX_DOCKED - 2 }));
    const out = limitDock(rooms);
    expect(out).toHaveLength(MAX_DOCKED);
    expect(out.map((r) => r.roomId)).not.toContain(1);
    expect(out.filter((r) => !r.minimised)).toHaveLength(3);
  });

  it("keeps a member's docked rooms in the tab's storage and reads back only well-formed ones", () => {
    const map = new Map<string, string>();
    const storage = { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
    saveDock(storage, 7, [{ roomId: 3, minimised: true }, { roomId: 5, minimised: false }]);
    expect(loadDock(storage, 7)).toEqual([{ roomId: 3, minimised: true }, { roomId: 5, minimised: false }]);
    // Another member in the same tab sees none of them.
    expect(loadDock(storage, 8)).toEqual([]);
    // Closing the last window forgets the key.
    saveDock(storage, 7, []);
    expect(map.has(dockKey(7))).toBe(false);
    // Tampered or broken values: bad entries dropped, duplicates once, the limits applied.
    map.set(dockKey(7), JSON.stringify([{ roomId: 'x' }, null, { roomId: -1 }, { roomId: 2, minimised: 'yes' }, { roomId: 2 }, ...[10, 11, 12, 13].map((roomId) => ({ roomId }))]));
    const rooms = loadDock(storage, 7);
    expect(rooms.map((r) => r.roomId)).toEqual([2, 10, 11, 12, 13]);
    expect(rooms.filter((r) => !r.minimised)).toHaveLength(MAX_OPEN_WINDOWS);
    map.set(dockKey(7), '{not json');
    expect(loadDock(storage, 7)).toEqual([]);
  });
});
