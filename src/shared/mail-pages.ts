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

/**
 * `/confirm/:code` (template confirm): opening the link changes nothing (mail scanners fetch
 * links); the page's button POSTs the code. `error` (a translation key) only when the link
 * does not work, as NodeBB's.
 */
export interface ConfirmPage extends PageBase {
  /** The code to POST to `/confirm/:code`; '' when it does not work. */
  code: string;
  error?: string;
}

/**
 * `/email/unsubscribe/:token` (template unsubscribe): opening the link changes nothing; the
 * page's button (or a mail client's one-click POST, RFC 8058) POSTs the token. `unsubscribed`
 * is false until then; `error` the key when the token is bad.
 */
export interface UnsubscribePage extends PageBase {
  unsubscribed: boolean;
  /** The token to POST to `/email/unsubscribe/:token`; '' when it is bad. */
  token: string;
  error: string;
  /** NodeBB's: whom and what the token unsubscribed (absent when the token is bad). */
  payload?: { uid: number; template: 'notification'; type: string };
}
