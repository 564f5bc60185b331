import type { UserObj, UserObjectSlim, UserSettingsObj } from '../../../shared/schemas/user.js';
import type { LoggedInUser, UserSettings, UserSummary } from '../../../shared/types.js';
import { notifySettingsOf } from '../notifications/schemas.js';
import type { UserBrief, UserRow } from './store.js';

export const ICON_COLOURS: readonly string[] = ['#f44336', '#e91e63', '#9c27b0', '#673ab7', '#3f51b5', '#2196f3', '#009688', '#1b5e20', '#33691e', '#827717', '#e65100', '#ff5722', '#795548', '#607d8b'];

/** Default per-member settings. */
export const DEFAULT_USER_SETTINGS: UserSettings = {
  openSidebars: 'off',
  bootswatchSkin: '',
  topicPostSort: 'oldest_to_newest',
  usePagination: true,
  topicsPerPage: 20,
  postsPerPage: 20,
  // '': the forum's language (its defaultLang), until the member picks one.
  userLang: '',
  timezone: '',
  showemail: false,
  showfullname: false,
  followTopicsOnCreate: true,
  followTopicsOnReply: false,
  disableIncomingChats: false,
  openOutgoingLinksInNewTab: false,
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
export function presentUser(row: UserBrief | undefined, uid = 0): UserSummary {
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

/** Whether links to other sites open in a new tab for this member: their own choice, else the forum's setting. */
export function linksInNewTab(row: Pick<UserRow, 'settings'> | null | undefined, forum: { openOutgoingLinksInNewTab: boolean }): boolean {
  if (row) {
    try {
      const chosen = (JSON.parse(row.settings || '{}') as Record<string, unknown>).openOutgoingLinksInNewTab;
      if (typeof chosen === 'boolean') return chosen;
    } catch {
      // A row that is not JSON: no choice.
    }
  }
  return forum.openOutgoingLinksInNewTab;
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

/** The ISO date a ban ends, or NodeBB's words for none ("Not Banned") and for a ban without end. */
export function bannedUntilReadable(banned: boolean, until: number): string {
  if (!banned) return 'Not Banned';
  return until > 0 ? new Date(until).toISOString() : 'Permanent';
}

/**
 * NodeBB's UserObj for the v3 users routes. The email shows as NodeBB's hidePrivateData
 * shows it: to the member, admins and global moderators, and to other members when the member
 * chose to show it (empty otherwise). `badges`: the names of the groups whose badges the
 * member shows, in order (NodeBB's `groupTitleArray`, and `groupTitle` as its JSON text); without
 * them, NodeBB's empty value.
 */
export function presentUserObj(row: UserRow, viewer: { uid: number; isAdmin: boolean; isGlobalMod?: boolean }, badges: string[] = []): UserObj {
  const u = presentUser(row);
  const showEmail = viewer.uid === row.uid || viewer.isAdmin || !!viewer.isGlobalMod || (viewer.uid > 0 && userSettings(row).showemail);
  const until = u.banned ? row.banned_until : 0;
  return {
    uid: u.uid,
    username: u.username,
    userslug: u.userslug,
    email: showEmail ? (row.email ?? '') : '',
    'email:confirmed': row.email_confirmed ? 1 : 0,
    joindate: row.joindate,
    lastonline: row.lastonline,
    picture: u.picture,
    fullname: u.fullname,
    displayname: u.displayname,
    location: row.location ?? '',
    birthday: row.birthday ?? '',
    website: row.website ?? '',
    aboutme: row.about,
    signature: row.signature ?? '',
    uploadedpicture: u.picture,
    profileviews: 0,
    reputation: u.reputation,
    postcount: u.postcount,
    topiccount: row.topiccount,
    lastposttime: row.lastposttime,
    banned: u.banned,
    'banned:expire': until,
    status: u.status,
    flags: 0,
    followercount: row.follower_count,
    followingcount: row.following_count,
    'cover:url': row.cover_url ?? '',
    'cover:position': row.cover_position || '50% 50%',
    groupTitle: badges.length ? JSON.stringify(badges) : '',
    groupTitleArray: badges,
    'icon:text': u['icon:text'],
    'icon:bgColor': u['icon:bgColor'],
    joindateISO: new Date(row.joindate).toISOString(),
    lastonlineISO: new Date(row.lastonline || row.joindate).toISOString(),
    banned_until: until,
    banned_until_readable: bannedUntilReadable(u.banned, until),
  };
}

/** NodeBB's UserObjectSlim: the login utility's answer about the member who logged in. */
export function presentUserSlim(row: UserRow): UserObjectSlim {
  const o = presentUserObj(row, { uid: row.uid, isAdmin: false });
  return {
    uid: o.uid,
    isLocal: true,
    username: o.username,
    displayname: o.displayname,
    userslug: o.userslug,
    picture: o.picture,
    status: o.status,
    postcount: o.postcount,
    reputation: o.reputation,
    'email:confirmed': o['email:confirmed'],
    lastonline: o.lastonline,
    flags: o.flags,
    banned: o.banned,
    'banned:expire': o['banned:expire'],
    joindate: o.joindate,
    'icon:text': o['icon:text'],
    'icon:bgColor': o['icon:bgColor'],
    joindateISO: o.joindateISO,
    lastonlineISO: o.lastonlineISO,
    banned_until: o.banned_until,
    banned_until_readable: o.banned_until_readable,
  };
}

/**
 * NodeBB's Settings answer: Palaver's own choices (notification types, digest and default
 * watch state by the notifications domain's rules) plus NodeBB's defaults for the settings
 * Palaver does not have (ACP language, home page…). `openSidebars` and the push channel
 * (`notificationPush_*`) are not part of NodeBB's answer and are left out.
 */
export function presentSettingsObj(uid: number, s: UserSettings, forum: { openOutgoingLinksInNewTab: boolean; dailyDigestFreq: string }, row?: Pick<UserRow, 'settings'>): UserSettingsObj {
  // userSettings() keeps every stored key: the notification preferences are among them.
  const notify = notifySettingsOf(s as unknown as Record<string, unknown>, { dailyDigestFreq: forum.dailyDigestFreq, categoryWatchState: 'watching' });
  const type = (name: string) => notify.types[`notificationType_${name}`] ?? 'notification';
  return {
    uid,
    showemail: s.showemail,
    usePagination: s.usePagination,
    topicsPerPage: s.topicsPerPage,
    postsPerPage: s.postsPerPage,
    topicPostSort: s.topicPostSort,
    openOutgoingLinksInNewTab: row ? linksInNewTab(row, forum) : forum.openOutgoingLinksInNewTab,
    disableIncomingChats: s.disableIncomingChats,
    dailyDigestFreq: notify.dailyDigestFreq,
    showfullname: s.showfullname,
    followTopicsOnCreate: s.followTopicsOnCreate,
    followTopicsOnReply: s.followTopicsOnReply,
    topicSearchEnabled: false,
    categoryTopicSort: 'recently_replied',
    userLang: s.userLang,
    bootswatchSkin: s.bootswatchSkin,
    homePageRoute: '',
    scrollToMyPost: true,
    upvoteNotifFreq: 'all',
    acpLang: s.userLang,
    categoryWatchState: notify.categoryWatchState,
    'notificationType_new-chat': type('new-chat'),
    'notificationType_new-reply': type('new-reply'),
    notificationType_upvote: type('upvote'),
    'notificationType_new-topic': type('new-topic'),
    notificationType_follow: type('follow'),
    'notificationType_group-invite': type('group-invite'),
    'notificationType_group-leave': type('group-leave'),
    'notificationType_new-register': type('new-register'),
    'notificationType_post-queue': type('post-queue'),
    'notificationType_new-post-flag': type('new-post-flag'),
    'notificationType_new-user-flag': type('new-user-flag'),
    'notificationType_group-request-membership': type('group-request-membership'),
  };
}
