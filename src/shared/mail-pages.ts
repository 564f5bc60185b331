import type { PageBase } from './types.js';

/** `/reset/:code` (template reset_code): NodeBB's `valid` and `code`, and the error key when not valid. */
export interface ResetCodePage extends PageBase {
  valid: boolean;
  code: string;
  minimumPasswordLength: number;
  minimumPasswordStrength: number;
  /** A translation key ('error:reset-code-expired'), empty when valid. */
  error: string;
}

/** `/confirm/:code` (template confirm): as NodeBB's, `error` (a translation key) only when the link did not work. */
export interface ConfirmPage extends PageBase {
  error?: string;
}

/** `/email/unsubscribe/:token` (template unsubscribe): done, or the error key. */
export interface UnsubscribePage extends PageBase {
  unsubscribed: boolean;
  error: string;
  /** NodeBB's: whom and what the token unsubscribed (absent when the token is bad). */
  payload?: { uid: number; template: 'notification'; type: string };
}
