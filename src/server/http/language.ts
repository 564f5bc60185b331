import type { FastifyRequest } from 'fastify';
import { DEFAULT_LANGUAGE } from '../../shared/constants.js';
import { LANGUAGE_COOKIE, pickLanguage } from '../../shared/languages.js';
import { userSettings } from '../domains/users/presenter.js';
import type { UserRow } from '../domains/users/store.js';
import { installedLanguages, offeredLanguage } from '../i18n.js';

/** The forum's language: the admin's `defaultLang` when the forum offers it, else en-GB. */
export function forumLanguage(s: { defaultLang: string }): string {
  return offeredLanguage(s.defaultLang) ?? DEFAULT_LANGUAGE;
}

/** A member's language: their setting when the forum offers it, else the forum's. */
export function memberLanguage(row: Pick<UserRow, 'settings'>, s: { defaultLang: string }): string {
  return offeredLanguage(userSettings(row).userLang) ?? forumLanguage(s);
}

/**
 * A guest's language: their choice from the footer's menu (a cookie), else the best offered
 * match of their browser's Accept-Language, else the forum's.
 */
export function guestLanguage(req: Pick<FastifyRequest, 'headers' | 'cookies'>, s: { defaultLang: string }): string {
  return offeredLanguage(req.cookies?.[LANGUAGE_COOKIE]) ?? pickLanguage(req.headers['accept-language'], installedLanguages()) ?? forumLanguage(s);
}

/** The language a request is answered in: the member's, else the guest's. */
export function requestLanguage(req: Pick<FastifyRequest, 'headers' | 'cookies' | 'viewer'>, s: { defaultLang: string }): string {
  const row = req.viewer?.row;
  return row ? memberLanguage(row, s) : guestLanguage(req, s);
}
