import type { PageBase } from './types.js';

/** One of a member's sessions (NodeBB's sessions page fields, plus when it was last used). */
export interface AccountSession {
  uuid: string;
  ip: string;
  /** When the session began (login). */
  datetime: number;
  datetimeISO: string;
  lastSeen: number;
  lastSeenISO: string;
  platform: string;
  browser: string;
  version: string;
  /** The session this page was loaded with. */
  current: boolean;
}

/** One of a member's API tokens (the token itself is shown only when it is made). */
export interface AccountToken {
  id: string;
  description: string;
  timestamp: number;
  timestampISO: string;
  lastSeen: number;
  lastSeenISO: string;
}

/** One of a member's WebAuthn security keys (never its public key). */
export interface SecurityKey {
  /** The credential id (base64url). */
  id: string;
  /** The member's name for it. */
  label: string;
  /** How the browser reaches it (usb, nfc, ble, hybrid, internal). */
  transports: string[];
  created: number;
  createdISO: string;
  /** 0 and '' until first used to log in. */
  lastUsed: number;
  lastUsedISO: string;
}

/** A variant of /login/2fa: a security key, a code from the authenticator app, a backup code. */
export type TwoFactorVariant = 'authn' | 'totp' | 'backup';

/** What every account-security page carries about the member it is about. */
export interface AccountSecurityBase extends PageBase {
  uid: number;
  username: string;
  userslug: string;
  /** The viewer is the member (not an admin looking at them). */
  isSelf: boolean;
}

/** `/user/:userslug/sessions` (template `account/sessions`). */
export interface SessionsPage extends AccountSecurityBase {
  sessions: AccountSession[];
}

/** `/user/:userslug/2factor` (template `account/2factor`). */
export interface TwoFactorPage extends AccountSecurityBase {
  /** A confirmed TOTP key. */
  enabled: boolean;
  /** Unused backup codes (with a TOTP key or a security key). */
  backupCodesLeft: number;
  /** The member's security keys, oldest first. */
  keys: SecurityKey[];
}

/** `/user/:userslug/tokens` (template `account/tokens`). */
export interface TokensPage extends AccountSecurityBase {
  tokens: AccountToken[];
}

/** `/user/:userslug/edit/password` (template `account/edit/password`). */
export interface EditPasswordPage extends AccountSecurityBase {
  minimumPasswordLength: number;
  minimumPasswordStrength: number;
  /** Whether the member has a password (NodeBB's hasPassword); a member changing their own gives the current one. */
  hasPassword: boolean;
}

/** `/user/:userslug/edit/username` (template `account/edit/username`). */
export interface EditUsernamePage extends AccountSecurityBase {
  hasPassword: boolean;
  minimumUsernameLength: number;
  maximumUsernameLength: number;
  cooldownDays: number;
  /** Earlier names, newest first. */
  history: { username: string; changed: number; changedISO: string }[];
}

/** `/user/:userslug/edit/email` (template `account/edit/email`). */
export interface EditEmailPage extends AccountSecurityBase {
  email: string;
  emailConfirmed: boolean;
  /** A new address waiting for its confirmation link. */
  pendingEmail: string | null;
  requirePassword: boolean;
}

/** `/login/2fa`, `/login/2fa/authn`, `/login/2fa/totp`, `/login/2fa/backup` (template `login-2fa`). */
export interface LoginTwoFactorPage extends PageBase {
  variant: TwoFactorVariant;
  /** The path named no variant: the page shows the member's first one (`variants[0]`). */
  chosen: boolean;
  /**
   * The variants the member has, for a re-authentication; empty for the login step (the page
   * is the same for every guest, so the client asks GET /login/2fa/variants).
   */
  variants: TwoFactorVariant[];
  /** Where to go after the code (admin re-authentication keeps the page asked for). */
  next: string;
  /** True for an admin re-authentication (already logged in), false for the login step. */
  reauth: boolean;
}
