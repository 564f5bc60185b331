import { ALERT_ERROR_TIMEOUT_MS, ALERT_TIMEOUT_MS } from '../../shared/constants';

export type AlertType = 'success' | 'info' | 'warning' | 'danger';

/** Spec §3 alert: id, title, message, type, timeout and handlers. */
export interface AlertInput {
  alert_id?: string;
  title?: string;
  message: string;
  /** 'error' is accepted as an alias of 'danger'. */
  type?: AlertType | 'error';
  /** Milliseconds before it closes itself; 0 keeps it open. */
  timeout?: number;
  clickfn?: () => void;
  closefn?: () => void;
  timeoutfn?: () => void;
}

export interface AlertItem extends Required<Pick<AlertInput, 'alert_id' | 'message' | 'timeout'>> {
  title?: string;
  type: AlertType;
  clickfn?: () => void;
  closefn?: () => void;
  timeoutfn?: () => void;
  /** Bumped on every update so a fresh timer starts for a reused id. */
  version: number;
}

let counter = 0;

/** Fills in the defaults: an id, 'info', and 5 s (10 s for errors) before closing. */
export function normaliseAlert(input: AlertInput): AlertItem {
  const type: AlertType = input.type === 'error' ? 'danger' : (input.type ?? 'info');
  const timeout = input.timeout ?? (type === 'danger' ? ALERT_ERROR_TIMEOUT_MS : ALERT_TIMEOUT_MS);
  counter += 1;
  return {
    alert_id: input.alert_id ?? `alert_${Date.now()}_${counter}`,
    title: input.title,
    message: input.message,
    type,
    timeout,
    clickfn: input.clickfn,
    closefn: input.closefn,
    timeoutfn: input.timeoutfn,
    version: 0,
  };
}

/** Adds an alert, or updates in place (same position) the one with the same id. */
export function upsertAlert(list: readonly AlertItem[], input: AlertInput): AlertItem[] {
  const next = normaliseAlert(input);
  const i = list.findIndex((a) => a.alert_id === next.alert_id);
  if (i === -1) return [...list, next];
  const copy = list.slice();
  copy[i] = { ...next, version: list[i]!.version + 1 };
  return copy;
}

/** Removes an alert by id. */
export function removeAlert(list: readonly AlertItem[], id: string): AlertItem[] {
  return list.filter((a) => a.alert_id !== id);
}
