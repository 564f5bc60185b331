import { TIMEAGO_REFRESH_MS } from '../../shared/constants';
import { createStore } from './store';

/**
 * One shared clock for every relative timestamp (spec §9: refreshed every 60000 ms): it ticks
 * while at least one timestamp is shown, and stops when the last one goes.
 */
export const timeagoClock = createStore(0);
let timer: ReturnType<typeof setInterval> | undefined;
let users = 0;

/** A timestamp appears: the clock runs. Returns the release for when it goes. */
export function retainTimeagoClock(): () => void {
  users += 1;
  timer ??= setInterval(() => timeagoClock.set((n) => n + 1), TIMEAGO_REFRESH_MS);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    users -= 1;
    if (!users && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}
