import { isTimeZone, offeredLanguage } from '../../i18n.js';
import { CATEGORY_WATCH_STATES, DIGEST_FREQS, isNotifySetting, NOTIFY_VALUES } from '../notifications/schemas.js';
import { DEFAULT_USER_SETTINGS } from '../users/presenter.js';
import { mapUser, Notes, text, type UserImport } from './map.js';
import { replaceChildren, upsert } from './store.js';
import type { NbHash } from './source.js';
import { copyUploads, rewriteLinks } from './uploads.js';
import { ids, known, num, setRefs, write, type Phase } from './phase.js';

/** NodeBB's uploaded files (--uploads): copied first, so that the links to them are rewritten as the rows come in. */
const uploads: Phase = {
  name: 'uploads',
  set: '',
  async run(deps, _src, _page, dryRun, state) {
    const notes = new Notes();
    if (!state.uploadsDir) return { count: 0, notes: [] };
    state.uploads = await copyUploads(deps.storage, state.uploadsDir, dryRun, notes, (rows) =>
      write(deps, dryRun, async (w) => {
        await w.tx
          .deleteFrom('uploads')
          .where(
            'path',
            'in',
            rows.map((r) => r.path),
          )
          .execute();
        await w.tx.insertInto('uploads').values(rows).execute();
      }),
    );
    return { count: state.uploads.size, notes: notes.list };
  },
};

/**
 * A member's settings from user:<uid>:settings: the keys Palaver has under NodeBB's names, of
 * the right type and in range, and only those that differ from Palaver's defaults (so the rest
 * keeps following the forum's). The language when Palaver offers it, the time zone when it is
 * one, and the notification preferences (`notificationType_<type>`, `dailyDigestFreq`,
 * `categoryWatchState`) as NodeBB names them.
 */
export function mapSettings(h: NbHash | null): string {
  const chosen: Record<string, unknown> = {};
  if (!h) return '{}';
  const defaults = DEFAULT_USER_SETTINGS as unknown as Record<string, unknown>;
  for (const [key, def] of Object.entries(defaults)) {
    const raw = h[key];
    if (raw === undefined || key === 'userLang' || key === 'timezone') continue;
    let value: unknown = raw;
    if (typeof def === 'boolean') value = raw === '1' || raw === 'true';
    else if (typeof def === 'number') {
      const n = Math.floor(Number(raw));
      if (!Number.isFinite(n)) continue;
      value = Math.min(Math.max(1, n), 100);
    }
    if (key === 'openSidebars' && value !== 'on' && value !== 'off') continue;
    if (key === 'bootswatchSkin' && !/^[a-z]{0,20}$/.test(String(value))) continue;
    if (key === 'topicPostSort' && !['oldest_to_newest', 'newest_to_oldest', 'most_votes'].includes(String(value))) continue;
    if (value !== def) chosen[key] = value;
  }
  const lang = offeredLanguage(h.userLang);
  if (lang) chosen.userLang = lang;
  if (h.timezone && isTimeZone(h.timezone)) chosen.timezone = h.timezone;
  for (const [key, value] of Object.entries(h)) {
    if (!isNotifySetting(key)) continue;
    const ok =
      key === 'dailyDigestFreq'
        ? (DIGEST_FREQS as readonly string[]).includes(value)
        : key === 'categoryWatchState'
          ? (CATEGORY_WATCH_STATES as readonly string[]).includes(value)
          : key.startsWith('notificationType_')
            ? (NOTIFY_VALUES as readonly string[]).includes(value)
            : false;
    if (ok) chosen[key] = value;
  }
  return JSON.stringify(chosen);
}

const users: Phase = {
  name: 'users',
  set: 'users:joindate',
  async run(deps, src, page, dryRun, state) {
    const notes = new Notes();
    const uids = ids(page);
    const hashes = await src.hashes(uids.map((u) => `user:${u}`));
    // The latest ban's reason of banned members.
    const bannedUids = uids.filter((_, i) => hashes[i]?.banned === '1');
    const banKeys = (await src.zsets(bannedUids.map((u) => `uid:${u}:bans:timestamp`))).map((z) => z[z.length - 1]?.[0] ?? '');
    const bans = new Map<number, NbHash | null>();
    const banHashes = await src.hashes(banKeys.filter(Boolean));
    let bi = 0;
    bannedUids.forEach((u, i) => bans.set(u, banKeys[i] ? banHashes[bi++]! : null));
    // An address not yet confirmed is only in its confirmation (NodeBB 4: confirm:byUid → confirm:<code>).
    const pendingUids = uids.filter((_, i) => hashes[i] && !hashes[i]!.email);
    const codes = await src.strings(pendingUids.map((u) => `confirm:byUid:${u}`));
    const confirms = await src.hashes(codes.filter(Boolean).map((c) => `confirm:${c}`));
    const pending = new Map<number, string>();
    let ci = 0;
    pendingUids.forEach((u, i) => {
      if (codes[i]) {
        const c = confirms[ci++];
        if (c?.email) pending.set(u, c.email);
      }
    });
    const settingsHashes = await src.hashes(uids.map((u) => `user:${u}:settings`));
    const rows: (UserImport & { settings: string })[] = [];
    const pictureRefs: { id: number; used: string[] }[] = [];
    const coverRefs: { id: number; used: string[] }[] = [];
    for (let i = 0; i < uids.length; i++) {
      const uid = uids[i]!;
      const h = hashes[i] ? { ...hashes[i]!, ...(pending.has(uid) ? { email: pending.get(uid)!, 'email:confirmed': '0' } : {}) } : null;
      const row = mapUser(uid, h, notes, bans.get(uid));
      if (!row) continue;
      const picture = rewriteLinks(row.picture, state.uploads);
      const cover = rewriteLinks(row.cover_url, state.uploads);
      rows.push({ ...row, picture: picture.text, cover_url: cover.text, settings: mapSettings(settingsHashes[i]!) });
      pictureRefs.push({ id: uid, used: picture.used });
      coverRefs.push({ id: uid, used: cover.used });
    }
    // Former names and addresses: NodeBB keeps "<value>:<timestamp>" members.
    const got = rows.map((r) => r.uid);
    const split = (m: string) => {
      const i = m.lastIndexOf(':');
      return i > 0 ? ([m.slice(0, i), Number(m.slice(i + 1)) || 0] as const) : ([m, 0] as const);
    };
    const names = await src.zsets(got.map((u) => `user:${u}:usernames`));
    const emails = await src.zsets(got.map((u) => `user:${u}:emails`));
    const nameRows = got.flatMap((uid, i) => names[i]!.map(([m, t]) => ({ uid, username: split(m)[0].slice(0, 100), changed: split(m)[1] || Math.trunc(t) })));
    const emailRows = got.flatMap((uid, i) =>
      emails[i]!.map(([m, t]) => ({ uid, email: split(m)[0].slice(0, 255), by_uid: uid, changed: split(m)[1] || Math.trunc(t) })),
    );
    // Custom profile fields' values: on the member's hash, under the field's key (user-custom-fields lists the keys).
    state.fieldKeys ??= (await src.zsets(['user-custom-fields']))[0]!.map(([k]) => k).filter((k) => /^[a-z0-9_-]{1,50}$/i.test(k));
    const fieldRows = got.flatMap((uid) => {
      const h = hashes[uids.indexOf(uid)] ?? {};
      return state.fieldKeys!.filter((k) => (h[k] ?? '') !== '').map((k) => ({ uid, field_key: k, value: text(h[k], 255, notes, 'user', uid, k) }));
    });
    // The history of bans and unbans (uid:<uid>:bans:timestamp → uid:<uid>:ban:<time>, and the unbans alike).
    const banLists = await src.zsets(got.flatMap((u) => [`uid:${u}:bans:timestamp`, `uid:${u}:unbans:timestamp`]));
    const historyKeys = banLists.flatMap((z) => z.map(([k]) => k));
    const historyHashes = await src.hashes(historyKeys);
    const historyRows: { uid: number; kind: 'ban' | 'unban'; by_uid: number; reason: string; until: number; created: number }[] = [];
    let hi = 0;
    got.forEach((uid, i) => {
      for (const kind of ['ban', 'unban'] as const) {
        for (const [, t] of banLists[2 * i + (kind === 'ban' ? 0 : 1)]!) {
          const b = historyHashes[hi++] ?? {};
          historyRows.push({
            uid,
            kind,
            by_uid: num(b.fromUid),
            reason: text(b.reason, 500, notes, 'user', uid, `${kind} reason`),
            until: kind === 'ban' ? num(b.expire) : 0,
            created: Math.trunc(num(b.timestamp) || t),
          });
        }
      }
    });
    // Mutes in force (NodeBB 4: mutedUntil and mutedReason on the member's hash).
    const now = Date.now();
    const mutes = rows.flatMap((r) => {
      const h = hashes[uids.indexOf(r.uid)];
      const until = Number(h?.mutedUntil) || 0;
      return until > now ? [{ uid: r.uid, until, reason: (h?.mutedReason ?? '').slice(0, 500), by_uid: 0, created: now }] : [];
    });
    await write(deps, dryRun, async (w) => {
      await upsert(w, 'users', rows, ['uid']);
      await setRefs(w, 'picture', pictureRefs);
      await setRefs(w, 'cover', coverRefs);
      await replaceChildren(w, 'member_mutes', 'uid', got, mutes, ['uid']);
      await replaceChildren(w, 'user_fields', 'uid', got, fieldRows, ['uid', 'field_key']);
      for (let i = 0; i < got.length; i += 5000)
        await w.tx
          .deleteFrom('moderation_actions')
          .where('uid', 'in', got.slice(i, i + 5000))
          .where('kind', 'in', ['ban', 'unban'])
          .execute();
      for (let i = 0; i < historyRows.length; i += 2000)
        await w.tx
          .insertInto('moderation_actions')
          .values(historyRows.slice(i, i + 2000))
          .execute();
      for (let i = 0; i < got.length; i += 5000) {
        await w.tx
          .deleteFrom('username_history')
          .where('uid', 'in', got.slice(i, i + 5000))
          .execute();
        await w.tx
          .deleteFrom('email_history')
          .where('uid', 'in', got.slice(i, i + 5000))
          .execute();
      }
      if (nameRows.length) await w.tx.insertInto('username_history').values(nameRows).execute();
      if (emailRows.length) await w.tx.insertInto('email_history').values(emailRows).execute();
    });
    return { count: rows.length, notes: notes.list };
  },
};

/** NodeBB's groups that are privilege holders, not groups (cid:<cid>:privileges:…). */
const privilegeGroup = (name: string) => name.startsWith('cid:');

const groups: Phase = {
  name: 'groups',
  set: 'groups:createtime',
  async run(deps, src, page, dryRun) {
    const notes = new Notes();
    const names = page.map(([m]) => m).filter((n) => !privilegeGroup(n) && !n.startsWith('ephemeral:'));
    const hashes = await src.hashes(names.map((n) => `group:${n}`));
    const rows: Record<string, string | number>[] = [];
    for (let i = 0; i < names.length; i++) {
      const h = hashes[i];
      if (!h) {
        notes.skip('group', names[i]!, 'groups:createtime lists it but group:<name> is missing');
        continue;
      }
      rows.push({
        name: names[i]!,
        slug: h.slug || names[i]!.toLowerCase().replace(/\s+/g, '-'),
        description: h.description ?? '',
        system: num(h.system),
        hidden: num(h.hidden),
        private: num(h.private),
        created: num(h.createtime) || Date.now(),
        user_title: h.userTitle ?? '',
        user_title_enabled: num(h.userTitleEnabled),
        icon: h.icon ?? '',
        label_color: h.labelColor ?? '',
        text_color: h.textColor ?? '',
        disable_join_requests: num(h.disableJoinRequests),
        disable_leave: num(h.disableLeave),
        cover_url: h['cover:url'] ?? '',
        cover_thumb_url: h['cover:thumb:url'] ?? '',
        cover_position: h['cover:position'] ?? '',
      });
    }
    const names2 = rows.map((r) => String(r.name));
    const owners = await src.sets(names2.map((n) => `group:${n}:owners`));
    const pendingSets = await src.sets(names2.map((n) => `group:${n}:pending`));
    const invitedSets = await src.sets(names2.map((n) => `group:${n}:invited`));
    await write(deps, dryRun, async (w) => {
      await upsert(w, 'groups', rows, ['name']);
      for (let i = 0; i < names2.length; i++) {
        const name = names2[i]!;
        await w.tx.deleteFrom('group_members').where('group_name', '=', name).execute();
        // Members in pages: registered-users holds every member.
        let cursor = '';
        const own = new Set(owners[i]);
        do {
          const p = await src.zpage(`group:${name}:members`, cursor, 1000);
          const isKnown = await known(deps, src, false, 'users', ids(p.items));
          const members = p.items
            .filter(([u]) => isKnown(Number(u)))
            .map(([u, joined]) => ({ group_name: name, uid: Number(u), joined: Math.trunc(joined) || Date.now(), is_owner: own.has(u) ? 1 : 0 }));
          await upsert(w, 'group_members', members, ['group_name', 'uid']);
          cursor = p.next;
        } while (cursor);
        const isKnown = await known(deps, src, false, 'users', [...pendingSets[i]!, ...invitedSets[i]!].map(Number));
        const waiting = (set: string[]) => set.filter((u) => isKnown(Number(u))).map((u) => ({ group_name: name, uid: Number(u), created: Date.now() }));
        await replaceChildren(w, 'group_pending', 'group_name', [name], waiting(pendingSets[i]!), ['group_name', 'uid']);
        await replaceChildren(w, 'group_invites', 'group_name', [name], waiting(invitedSets[i]!), ['group_name', 'uid']);
      }
    });
    return { count: rows.length, notes: notes.list };
  },
};

/** Members, their groups and files: the first phases, which the others refer to. */
export const PEOPLE_PHASES: Phase[] = [uploads, users, groups];
