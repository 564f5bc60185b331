import type { LoggedInUser, UserSettings, UserSummary } from '../../../shared/types.js';
import type { UserRow } from './store.js';

const ICON_COLOURS = ['#f44336', '#e91e63', '#9c27b0', '#673ab7', '#3f51b5', '#2196f3', '#009688', '#1b5e20', '#33691e', '#827717', '#e65100', '#ff5722', '#795548', '#607d8b'];

/** Default per-member settings. */
export const DEFAULT_USER_SETTINGS: UserSettings = {
  openSidebars: 'off',
  bootswatchSkin: '',
  topicPostSort: 'oldest_to_newest',
  usePagination: true,
  topicsPerPage: 20,
  postsPerPage: 20,
  userLang: 'en-GB',
  showemail: false,
  showfullname: false,
  followTopicsOnCreate: true,
  followTopicsOnReply: false,
};

function iconColour(name: string): string {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return ICON_COLOURS[h % ICON_COLOURS.length]!;
}

/** A deleted or unknown author, shown as a former member. */
export function formerUser(uid: number): UserSummary {
  return {
    uid,
    username: '[[global:former-user]]',
    userslug: '',
    displayname: '[[global:former-user]]',
    fullname: '',
    picture: '',
    'icon:text': '?',
    'icon:bgColor': '#aaaaaa',
    status: 'offline',
    postcount: 0,
    reputation: 0,
    banned: false,
  };
}

/** The public summary of a member. */
export function presentUser(row: UserRow | undefined, uid = 0): UserSummary {
  if (!row) return formerUser(uid);
  const banned = row.banned === 1 && (row.banned_until === 0 || row.banned_until > Date.now());
  return {
    uid: row.uid,
    username: row.username,
    userslug: row.userslug,
    displayname: row.username,
    fullname: row.fullname,
    picture: row.picture,
    'icon:text': (row.username.trim()[0] ?? '?').toUpperCase(),
    'icon:bgColor': iconColour(row.username),
    status: row.status,
    postcount: row.postcount,
    reputation: row.reputation,
    banned,
  };
}

/** A member's settings over the defaults. */
export function userSettings(row: Pick<UserRow, 'settings'>): UserSettings {
  try {
    return { ...DEFAULT_USER_SETTINGS, ...(JSON.parse(row.settings) as Partial<UserSettings>) };
  } catch {
    return { ...DEFAULT_USER_SETTINGS };
  }
}

/** The viewer as the page header needs them. */
export function presentLoggedIn(row: UserRow, isAdmin: boolean, isGlobalMod: boolean): LoggedInUser {
  const u = presentUser(row);
  return {
    uid: u.uid,
    username: u.username,
    userslug: u.userslug,
    displayname: u.displayname,
    picture: u.picture,
    'icon:text': u['icon:text'],
    'icon:bgColor': u['icon:bgColor'],
    status: u.status,
    isAdmin,
    isGlobalMod,
    settings: userSettings(row),
  };
}
