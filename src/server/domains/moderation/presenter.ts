import type { BanMuteEntry, ModerationNote, ModeratorRef } from '../../../shared/schemas/moderation.js';
import { presentUser } from '../users/presenter.js';
import type { UserRow } from '../users/store.js';
import type { ActionRow, NoteRow } from './store.js';

const iso = (ms: number) => (ms > 0 ? new Date(ms).toISOString() : '');

/** The acting member as NodeBB's history items show them (a deleted one as a former member). */
export function presentModerator(row: UserRow | undefined, uid: number): ModeratorRef {
  const u = presentUser(row, uid);
  return { uid: u.uid, username: u.username, userslug: u.userslug, picture: u.picture, 'icon:text': u['icon:text'], 'icon:bgColor': u['icon:bgColor'] };
}

/** A ban, mute or their lifting as NodeBB's BanMuteArray item. */
export function presentAction(a: ActionRow, by: UserRow | undefined): BanMuteEntry {
  const until = Number(a.until);
  const created = Number(a.created);
  return {
    uid: a.uid,
    kind: a.kind,
    timestamp: created,
    timestampISO: iso(created),
    expire: until,
    until,
    untilISO: iso(until),
    fromUid: a.by_uid,
    user: presentModerator(by, a.by_uid),
    reason: a.reason,
  };
}

/** A moderation note as NodeBB's moderationNotes item. */
export function presentNote(n: NoteRow, by: UserRow | null | undefined): ModerationNote {
  const created = Number(n.created);
  return { uid: n.by_uid, note: n.note, timestamp: created, timestampISO: iso(created), user: presentModerator(by ?? undefined, n.by_uid) };
}

/** ISO date of a time, '' for none. */
export function isoOrEmpty(ms: number): string {
  return iso(ms);
}

/** Parts of the account pages' batched read (users/account-fields.ts). */
export { latestIpsPart, latestNotePart, mutePart } from './store.js';
