import { MAX_PASSWORD_LENGTH, DEFAULT_TAG_LENGTH } from './constants.js';

/** A translation key such as 'error:invalid-email', as the spec names them. */
export type ErrorKey = string;

/** Email: a non-empty string containing @ and no comma or semicolon. */
export function isEmailValid(email: unknown): boolean {
  return typeof email === 'string' && email.length > 0 && email.includes('@') && !/[,;]/.test(email);
}

// Letters, digits, underscore, space, quotes, hyphen, plus, dot, asterisk, brackets and non-Latin letters.
const USERNAME_RE = /^['" \-+.*[\]0-9\u00BF-\u1FFF\u2C00-\uD7FF\w]+$/;

/** Username characters as the spec lists them. */
export function isUserNameValid(name: unknown): boolean {
  return typeof name === 'string' && name.length > 0 && USERNAME_RE.test(name);
}

/** The basic password validity check: any non-empty string. */
export function isPasswordValid(password: unknown): boolean {
  return typeof password === 'string' && password.length > 0;
}

export interface PasswordRules {
  minimumPasswordLength: number;
  minimumPasswordStrength: number;
}

/**
 * Checks a password against the spec's rules in order; `strength` gives the zxcvbn score
 * (0–4), computed only when the cheaper checks pass. Returns the first failing key, or null.
 */
export function passwordError(password: unknown, rules: PasswordRules, strength: number | (() => number)): ErrorKey | null {
  if (!isPasswordValid(password)) return 'user:change-password-error';
  const p = password as string;
  if (p.length < rules.minimumPasswordLength) return 'reset_password:password-too-short';
  if (p.length > MAX_PASSWORD_LENGTH) return 'error:password-too-long';
  if ((typeof strength === 'function' ? strength() : strength) < rules.minimumPasswordStrength) return 'user:weak-password';
  return null;
}

export interface UsernameRules {
  minimumUsernameLength: number;
  maximumUsernameLength: number;
}

/** Username rules: presence, length, characters. Returns the failing key or null. */
export function usernameError(username: unknown, rules: UsernameRules): ErrorKey | null {
  if (typeof username !== 'string' || username.trim().length === 0) return 'error:invalid-username';
  if (username.length < rules.minimumUsernameLength) return 'error:username-too-short';
  if (username.length > rules.maximumUsernameLength) return 'error:username-too-long';
  if (!isUserNameValid(username)) return 'error:invalid-username';
  return null;
}

/** Email rules. Returns the failing key or null. */
export function emailError(email: unknown): ErrorKey | null {
  return isEmailValid(email) ? null : 'error:invalid-email';
}

/**
 * Cleans a tag: lowercase, drop right-to-left overrides and listed punctuation, cut to
 * the maximum length, trim leading and trailing dots and hyphens.
 */
export function cleanUpTag(tag: unknown, maxLength = DEFAULT_TAG_LENGTH): string {
  if (typeof tag !== 'string' || !tag.length) return '';
  let t = tag.trim().toLowerCase();
  t = t.replace(/\u202E/g, '');
  t = t.replace(/[,/#!$^*;:{}=_`<>'"~()?|]/g, '');
  t = t.slice(0, maxLength);
  const m = t.match(/^[.-]*(.+?)[.-]*$/);
  if (m && m.length > 1) t = m[1]!;
  return t;
}

/** A list page's ?tag= filter (NodeBB's), cleaned as tags are; empty or unusable filters nothing. */
export function tagFilter(raw: string | undefined): string | undefined {
  return raw ? cleanUpTag(raw, Number.MAX_SAFE_INTEGER) || undefined : undefined;
}
