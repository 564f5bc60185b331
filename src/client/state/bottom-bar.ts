import { BOTTOM_BAR_REENABLE_MS, BOTTOM_BAR_THRESHOLD_PX, BOTTOM_BAR_THROTTLE_MS } from '../../shared/constants';

export interface BarState {
  lastY: number;
  hidden: boolean;
}

export interface ScrollInput {
  y: number;
  /** A dropdown inside the sticky tools is open. */
  dropdownOpen: boolean;
  /** Posts are loading (infinite scroll): tracking is suspended. */
  suspended: boolean;
}

/** Spec §4: hide after scrolling down more than 10 px, show on scrolling up or with an open dropdown. */
export function nextBarState(state: BarState, input: ScrollInput): BarState {
  if (input.suspended) return { ...state, lastY: input.y };
  if (input.dropdownOpen) return { lastY: input.y, hidden: false };
  const delta = input.y - state.lastY;
  if (delta > BOTTOM_BAR_THRESHOLD_PX) return { lastY: input.y, hidden: true };
  if (delta < 0) return { lastY: input.y, hidden: false };
  return state;
}

/** What the tracker reads at each evaluation. */
export interface ScrollReading {
  y: number;
  dropdownOpen: boolean;
  /** Tracking paused (posts loading, or the theme keeps the bar in view). */
  paused: boolean;
}

export interface ScrollTracker {
  /** A scroll event: evaluated at most every 250 ms, the last one always. */
  onScroll(): void;
  /** Posts finished loading: tracking resumes 250 ms later. */
  postsLoaded(): void;
  dispose(): void;
}

/**
 * Spec §4 bottom bar: scroll events throttled to 250 ms (a trailing evaluation keeps the last
 * position), suspended while posts load and for 250 ms after; `show` gets hidden or not.
 */
export function createScrollTracker(read: () => ScrollReading, show: (hidden: boolean) => void, startY: number): ScrollTracker {
  let state: BarState = { lastY: startY, hidden: false };
  let last = 0;
  let suspendedUntil = 0;
  let trailing: ReturnType<typeof setTimeout> | undefined;
  const evaluate = () => {
    last = Date.now();
    const r = read();
    state = nextBarState(state, { y: r.y, dropdownOpen: r.dropdownOpen, suspended: r.paused || Date.now() < suspendedUntil });
    show(state.hidden);
  };
  return {
    onScroll() {
      const wait = BOTTOM_BAR_THROTTLE_MS - (Date.now() - last);
      clearTimeout(trailing);
      if (wait <= 0) evaluate();
      else trailing = setTimeout(evaluate, wait);
    },
    postsLoaded() {
      suspendedUntil = Date.now() + BOTTOM_BAR_REENABLE_MS;
    },
    dispose() {
      clearTimeout(trailing);
    },
  };
}
