import { NOTIFICATION_TYPES, type NotificationType } from '../../../shared/schemas/notification.js';
import { badRequest } from '../../http/errors.js';

/**
 * A member's notification preferences, kept in their settings under NodeBB's keys:
 * `notificationType_<type>` = none | notification | email | notificationemail (in the app,
 * by email), and Palaver's `notificationPush_<type>` = 0 | 1 (web push), which NodeBB clients
 * never send and so never reset. Pure rules: the users domain stores them, the deliveries
 * read them.
 */

/** The channels a notification may go out on. */
export interface Channels {
  inApp: boolean;
  email: boolean;
  push: boolean;
}

/** NodeBB's values of `notificationType_<type>`. */
export const NOTIFY_VALUES = ['none', 'notification', 'email', 'notificationemail'] as const;
export type NotifyValue = (typeof NOTIFY_VALUES)[number];

/** How often a member gets a digest (NodeBB's `dailyDigestFreq`). */
export const DIGEST_FREQS = ['off', 'day', 'week', 'month'] as const;
export type DigestFreq = (typeof DIGEST_FREQS)[number];

/** NodeBB's category watch states, as the `categoryWatchState` setting takes them. */
export const CATEGORY_WATCH_STATES = ['ignoring', 'notwatching', 'tracking', 'watching'] as const;

/** The settings key of a type: NodeBB names group requests `group-request-membership`. */
const KEY_NAME: Partial<Record<NotificationType, string>> = { 'group-request': 'group-request-membership' };
export const settingName = (type: NotificationType): string => KEY_NAME[type] ?? type;

/** NodeBB types Palaver does not send but whose keys NodeBB's settings answer carries. */
const NODEBB_ONLY = ['group-leave', 'new-register'] as const;

/** Every preference name, in the order the settings page lists them. */
export const PREFERENCE_NAMES: string[] = [...NOTIFICATION_TYPES.map(settingName), ...NODEBB_ONLY];

const ALL: Channels = { inApp: true, email: true, push: true };
const APP: Channels = { inApp: true, email: false, push: false };
const APP_PUSH: Channels = { inApp: true, email: false, push: true };

/**
 * Defaults: what is addressed to the member (a reply where they watch, a mention, a quote, a
 * chat message) comes in the app, by email and by push; the rest in the app (and by push
 * when it is news, not a count); upvotes only in the app.
 */
const DEFAULTS: Record<string, Channels> = {
  'new-reply': ALL,
  mention: ALL,
  quote: ALL,
  'new-chat': ALL,
  'new-topic': APP_PUSH,
  follow: APP,
  upvote: APP,
  'post-edit': APP,
  'group-invite': APP_PUSH,
  'group-request-membership': APP,
  'new-post-flag': APP_PUSH,
  'new-user-flag': APP,
  'post-queue': APP,
  'group-leave': APP,
  'new-register': APP,
};

export const typeKey = (name: string) => `notificationType_${name}`;
export const pushKey = (name: string) => `notificationPush_${name}`;

export function valueOf(c: Pick<Channels, 'inApp' | 'email'>): NotifyValue {
  return c.inApp ? (c.email ? 'notificationemail' : 'notification') : c.email ? 'email' : 'none';
}

/** A member's channels for a type, from their stored settings (an object parsed from users.settings). */
export function channelsFor(settings: Record<string, unknown>, type: NotificationType | string): Channels {
  const name = (KEY_NAME as Record<string, string>)[type] ?? type;
  const def = DEFAULTS[name] ?? APP;
  const v = settings[typeKey(name)];
  const p = settings[pushKey(name)];
  const base = typeof v === 'string' && (NOTIFY_VALUES as readonly string[]).includes(v) ? { inApp: v === 'notification' || v === 'notificationemail', email: v === 'email' || v === 'notificationemail' } : def;
  return { inApp: base.inApp, email: base.email, push: typeof p === 'boolean' ? p : def.push };
}

/** Parses users.settings (JSON) leniently: a broken row has no choices. */
export function parseSettings(json: string | null | undefined): Record<string, unknown> {
  try {
    const v = JSON.parse(json || '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** True for a settings key this module owns (a preference, the digest frequency, the default watch state). */
export function isNotifySetting(key: string): boolean {
  if (key === 'dailyDigestFreq' || key === 'categoryWatchState') return true;
  const m = /^notification(Type|Push)_(.+)$/.exec(key);
  return Boolean(m && PREFERENCE_NAMES.includes(m[2]!));
}

/**
 * Validates the notification settings among a settings body (NodeBB sends strings): returns
 * the values to store; 400 with a key for a bad value. Keys it does not own are left alone.
 */
export function notifySettingsFrom(input: Record<string, unknown>): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const [key, raw] of Object.entries(input)) {
    if (!isNotifySetting(key)) continue;
    if (key.startsWith('notificationPush_')) {
      if (raw === true || raw === 1 || raw === '1' || raw === 'true' || raw === 'on') out[key] = true;
      else if (raw === false || raw === 0 || raw === '0' || raw === 'false' || raw === 'off' || raw === '') out[key] = false;
      else throw badRequest('error:invalid-notification-setting', key);
      continue;
    }
    const allowed: readonly string[] = key === 'dailyDigestFreq' ? DIGEST_FREQS : key === 'categoryWatchState' ? CATEGORY_WATCH_STATES : NOTIFY_VALUES;
    if (typeof raw !== 'string' || !allowed.includes(raw)) throw badRequest('error:invalid-notification-setting', key);
    out[key] = raw;
  }
  return out;
}

/** The effective notification settings of a member, for NodeBB's settings answer and the settings page. */
export function notifySettingsOf(settings: Record<string, unknown>, forum: { dailyDigestFreq: string; categoryWatchState: string }) {
  const types: Record<string, string> = {};
  const push: Record<string, boolean> = {};
  for (const name of PREFERENCE_NAMES) {
    const c = channelsFor(settings, name);
    types[typeKey(name)] = valueOf(c);
    push[pushKey(name)] = c.push;
  }
  const digest = settings.dailyDigestFreq;
  const watch = settings.categoryWatchState;
  return {
    dailyDigestFreq: typeof digest === 'string' && (DIGEST_FREQS as readonly string[]).includes(digest) ? digest : forum.dailyDigestFreq,
    categoryWatchState: typeof watch === 'string' && (CATEGORY_WATCH_STATES as readonly string[]).includes(watch) ? watch : forum.categoryWatchState,
    types,
    push,
  };
}
