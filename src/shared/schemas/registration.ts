import type { AccountPageBase } from '../account.js';
import type { AuthPage, PageBase, UserSummary } from '../types.js';
import type { Pagination } from '../types.js';

/** The register page: the auth rules plus the registration type, terms, consent, captcha and an invitation. */
export interface RegisterPage extends AuthPage {
  registrationType: string;
  registrationApprovalType: string;
  /** The terms of use as sanitised HTML; empty: no terms to accept. */
  termsOfUse: string;
  gdpr_enabled: boolean;
  /** The form must carry a solved ALTCHA challenge. */
  captcha: boolean;
  /** The invitation token from the link, when it is valid. */
  token: string;
  /** The invited address, shown filled in. */
  invitedEmail: string;
  /** Registration is open to this visitor (false: the page says why). */
  canRegister: boolean;
  /** Why not, as a translation key. */
  reason: string;
}

/** One waiting registration (NodeBB's registration-queue users[] fields). */
export interface QueuedRegistration {
  username: string;
  email: string;
  ip: string;
  timestampISO: string;
  usernameEscaped: string;
  ipMatch: (Pick<UserSummary, 'uid' | 'username' | 'userslug' | 'picture' | 'icon:text' | 'icon:bgColor'>)[];
  customActions: { title: string; id: string; class: string; icon: string }[];
}

/** The registration queue page (admins): NodeBB's /api/registration-queue fields. */
export interface RegistrationQueuePage extends PageBase {
  registrationQueueCount: number;
  users: QueuedRegistration[];
  customHeaders: unknown[];
  invites: { uid: number; username: string; invitations: { email: string }[] }[];
  pagination: Pagination;
}

/** The account consent page (NodeBB's /api/user/{userslug}/consent). */
export interface AccountConsentPage extends AccountPageBase {
  gdpr_consent: boolean;
  digest: { frequency: string; enabled: boolean };
  /** When consent was given (ms; 0: not given) and when the terms were accepted. */
  gdpr_at: number;
  tos_at: number;
  termsOfUse: string;
}

/** NodeBB's /tos: the terms of use as HTML (the setting through the markdown pipeline). */
export interface TosPage extends PageBase {
  termsOfUse: string;
}
