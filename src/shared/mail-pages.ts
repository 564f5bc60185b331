import type { PageBase } from './types.js';

/** `/reset/:code` (template reset_code): NodeBB's `valid` and `code`, and the error key when not valid. */
export interface ResetCodePage extends PageBase {
  valid: boolean;
  code: string;
  /** A translation key ('error:reset-code-expired'), empty when valid. */
  error: string;
}

/** `/confirm/:code` (template confirm): the address confirmed, or the error key. */
export interface ConfirmPage extends PageBase {
  confirmed: boolean;
  error: string;
}

/** `/email/unsubscribe/:token` (template unsubscribe): done, or the error key. */
export interface UnsubscribePage extends PageBase {
  unsubscribed: boolean;
  error: string;
}
