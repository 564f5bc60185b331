/** Where the docked composer's height is remembered (spec §2 "resize"). */
export const HEIGHT_KEY = 'palaver:composer-height';
export const MIN_HEIGHT = 200;

/** A height kept within the window: at least MIN_HEIGHT, leaving 48 px of page above. */
export function clampHeight(px: number, windowHeight: number): number {
  return Math.round(Math.max(MIN_HEIGHT, Math.min(px, windowHeight - 48)));
}

/** The remembered height, or null (the stylesheet's default then). */
export function savedHeight(storage: Pick<Storage, 'getItem'>): number | null {
  try {
    const n = Number(storage.getItem(HEIGHT_KEY));
    return Number.isFinite(n) && n >= MIN_HEIGHT ? n : null;
  } catch {
    return null;
  }
}

export function saveHeight(storage: Pick<Storage, 'setItem'>, px: number): void {
  try {
    storage.setItem(HEIGHT_KEY, String(Math.round(px)));
  } catch {
    // Storage full or blocked: the height is simply not remembered.
  }
}
