import { Type, type Static } from 'typebox';
import type { PageBase, UserSummary } from '../types.js';

/** The acting member as NodeBB's BanMuteArray and moderation notes name them. */
export interface ModeratorRef {
  uid: number;
  username: string;
  userslug: string;
  picture: string;
  'icon:text': string;
  'icon:bgColor': string;
}

/** One ban or mute in a member's history (NodeBB's BanMuteArray item; `kind` tells a lifting from a sanction). */
export interface BanMuteEntry {
  uid: number;
  kind: 'ban' | 'unban' | 'mute' | 'unmute';
  timestamp: number;
  timestampISO: string;
  /** When it ends (0: no end); NodeBB names it both `expire` and `until`. */
  expire: number;
  until: number;
  untilISO: string;
  fromUid: number;
  user: ModeratorRef;
  reason: string;
}

/** A moderator's note on a member (NodeBB's moderationNotes item). */
export interface ModerationNote {
  uid: number;
  note: string;
  timestamp: number;
  timestampISO: string;
  user: ModeratorRef;
}

/** An address a member used: first and last seen, and on how many days. */
export interface IpSeen {
  ip: string;
  firstSeen: number;
  firstSeenISO: string;
  lastSeen: number;
  lastSeenISO: string;
  days: number;
}

/** Another account seen at one of the member's addresses. */
export interface SharedAddressAccount extends UserSummary {
  ips: string[];
}

/** Page data of `/user/:userslug/info` (template `account/info`): moderators and admins only. */
export interface AccountInfoPage extends PageBase, UserSummary {
  banned_until: number;
  banned_until_readable: string;
  banReason: string;
  muted: boolean;
  mutedUntil: number;
  mutedReason: string;
  history: { bans: BanMuteEntry[]; mutes: BanMuteEntry[]; flags: unknown[] };
  moderationNotes: ModerationNote[];
  /** NodeBB's `ips`: the addresses, newest first. */
  ips: string[];
  /** Each address with when it was seen (Palaver's). */
  ipHistory: IpSeen[];
  otherAccounts: SharedAddressAccount[];
  banReasons: string[];
  canBan: boolean;
  canMute: boolean;
  canDeleteContent: boolean;
  isSelf: boolean;
  isTargetAdmin: boolean;
  /** NodeBB's: the member's live sessions (device, address, when). */
  sessions: import('../security.js').AccountSession[];
  /** NodeBB's: the names the account has had, newest first (`byUid` as a string, as NodeBB's). */
  usernames: IdentityValue[];
  /** NodeBB's: the addresses the account has had, newest first, with who set each. */
  emails: (IdentityValue & { byUser: ModeratorRef | null })[];
}

/** One value of a member's identity history (NodeBB's `usernames` / `emails` items). */
export interface IdentityValue {
  value: string;
  byUid: string;
  timestamp: number;
  timestampISO: string;
}

/** One blacklist rule with its hit count. */
export interface BlacklistRuleView {
  rule: string;
  line: number;
  hits: number;
  lastHit: number;
}

/** Page data of `/ip-blacklist` (template `ip-blacklist`): admins and global moderators. */
export interface IpBlacklistPage extends PageBase {
  rules: string;
  parsed: BlacklistRuleView[];
  canEdit: boolean;
}

/** The answer of the blacklist's address test. */
export const BlacklistTestSchema = Type.Object({
  ip: Type.String(),
  valid: Type.Boolean(),
  blocked: Type.Boolean(),
  rule: Type.Union([Type.String(), Type.Null()]),
  line: Type.Number(),
});
export type BlacklistTest = Static<typeof BlacklistTestSchema>;

/** The answer of saving the blacklist: the rules as parsed, with their hit counts. */
export const BlacklistSavedSchema = Type.Object({
  rules: Type.String(),
  parsed: Type.Array(Type.Object({ rule: Type.String(), line: Type.Number(), hits: Type.Number(), lastHit: Type.Number() })),
});

/** The answer of deleting a member's content: how many topics and replies went. */
export const ContentDeletedSchema = Type.Object({ topics: Type.Number(), posts: Type.Number() });
