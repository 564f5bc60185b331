import { BOTTOM_BAR_THRESHOLD_PX } from '../../shared/constants';

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
