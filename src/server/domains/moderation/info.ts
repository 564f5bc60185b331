import type { AccountInfoPage, SharedAddressAccount } from '../../../shared/schemas/moderation.js';
import { presentUser } from '../users/presenter.js';
import type { UserRow } from '../users/store.js';
import type { Viewer } from '../privileges/service.js';
import { isoOrEmpty, presentAction, presentNote } from './presenter.js';
import type { ModerationDeps, ModerationService } from './service.js';
import * as store from './store.js';

const HISTORY_LIMIT = 100;
const ADDRESS_LIMIT = 50;
const OTHERS_LIMIT = 200;

/** The info page's moderation data of a member: a fixed number of queries, whatever the history holds. */
export async function moderationInfo(ctx: ModerationDeps, m: ModerationService, viewer: Viewer, row: UserRow): Promise<Omit<AccountInfoPage, keyof import('../../../shared/types.js').PageBase | keyof import('../../../shared/types.js').UserSummary | 'sessions' | 'usernames' | 'emails'>> {
  const db = ctx.db;
  const [actions, notes, addresses, mute, s, isTargetAdmin] = await Promise.all([
    store.actionsOf(db, row.uid, HISTORY_LIMIT),
    store.notesOf(db, row.uid, HISTORY_LIMIT),
    store.addressesOf(db, row.uid, ADDRESS_LIMIT),
    m.muteOf(row.uid),
    ctx.settings.get(),
    ctx.groups.isAdmin(row.uid),
  ]);
  const others = await store.othersAt(
    db,
    addresses.map((a) => a.ip),
    row.uid,
    OTHERS_LIMIT,
  );
  // One read for every member the page names: moderators of the history and notes, and the other accounts.
  const users = await ctx.users.getMany([...new Set([...actions.map((a) => a.by_uid), ...notes.map((n) => n.by_uid), ...others.map((o) => o.uid)])]);
  const byUid = new Map<number, SharedAddressAccount>();
  for (const o of others) {
    const u = users.get(o.uid);
    if (!u || u.deleted === 1) continue;
    const entry = byUid.get(o.uid) ?? { ...presentUser(u), ips: [] };
    entry.ips.push(o.ip);
    byUid.set(o.uid, entry);
  }
  const history = actions.map((a) => presentAction(a, users.get(a.by_uid)));
  const banned = row.banned === 1 && (row.banned_until === 0 || row.banned_until > Date.now());
  const [canBan, canMute] = await Promise.all([ctx.privileges.can(viewer, 'ban'), ctx.privileges.can(viewer, 'mute')]);
  return {
    banned_until: banned ? Number(row.banned_until) : 0,
    banned_until_readable: banned ? (row.banned_until > 0 ? isoOrEmpty(Number(row.banned_until)) : 'Not Banned') : 'Not Banned',
    banReason: banned ? row.ban_reason : '',
    muted: mute !== null,
    mutedUntil: mute ? Number(mute.until) : 0,
    mutedReason: mute?.reason ?? '',
    history: { bans: history.filter((h) => h.kind === 'ban' || h.kind === 'unban'), mutes: history.filter((h) => h.kind === 'mute' || h.kind === 'unmute'), flags: [] },
    moderationNotes: notes.map((n) => presentNote(n, users.get(n.by_uid))),
    ips: addresses.map((a) => a.ip),
    ipHistory: addresses.map((a) => ({
      ip: a.ip,
      firstSeen: Number(a.first_seen),
      firstSeenISO: isoOrEmpty(Number(a.first_seen)),
      lastSeen: Number(a.last_seen),
      lastSeenISO: isoOrEmpty(Number(a.last_seen)),
      days: Number(a.days),
    })),
    otherAccounts: [...byUid.values()],
    banReasons: s.banReasons
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
    canBan: canBan && !isTargetAdmin && row.uid !== viewer.uid,
    canMute: canMute && !isTargetAdmin && row.uid !== viewer.uid,
    canDeleteContent: (viewer.isAdmin || viewer.isGlobalMod) && !isTargetAdmin,
    isSelf: row.uid === viewer.uid,
    isTargetAdmin,
  };
}
