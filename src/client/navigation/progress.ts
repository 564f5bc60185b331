import type { Runtime } from '../app/runtime';

let doneTimer: ReturnType<typeof setTimeout> | undefined;

/** Spec §2: the bar jumps to 70 % when a navigation starts. */
export function progressStart(rt: Runtime): void {
  clearTimeout(doneTimer);
  rt.progress.set(70);
}

/** Completes the bar, then hides it once the transition has played. */
export function progressDone(rt: Runtime): void {
  if (rt.progress.get() === null) return;
  rt.progress.set(100);
  clearTimeout(doneTimer);
  doneTimer = setTimeout(() => rt.progress.set(null), 350);
}
