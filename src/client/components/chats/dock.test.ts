import { describe, expect, it } from 'vitest';
import { closeDocked, dockOf, limitDock, MAX_DOCKED, MAX_OPEN_WINDOWS, openDocked, toggleDocked } from './dock';

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
});
