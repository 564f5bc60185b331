import type { AppContext } from '../../context.js';
import type { Writer } from '../../core/action.js';
import { hashSecret } from '../auth/service.js';
import { CATEGORY_PRIVILEGES, GLOBAL_PRIVILEGES } from '../privileges/service.js';
import { isTimeZone, offeredLanguage } from '../../i18n.js';
import { CATEGORY_WATCH_STATES, DIGEST_FREQS, isNotifySetting, NOTIFY_VALUES } from '../notifications/schemas.js';
import { DEFAULT_USER_SETTINGS } from '../users/presenter.js';
import { mapCategory, mapMessage, mapPost, mapRoom, mapTopic, mapUser, Notes, text, WATCH_STATES, type CategoryImport, type MessageImport, type Note, type PostImport, type RoomImport, type TopicImport, type UserImport } from './map.js';
import { present, replaceChildren, takenDmKeys, upsert, withoutSearchTriggers } from './store.js';
import type { NbHash, NodebbSource } from './source.js';
import { copyUploads, rewriteLinks, type ImportState } from './uploads.js';

/** What the import uses of the forum. */
export type ImportDeps = Pick<AppContext, 'config' | 'db' | 'dialect' | 'actions' | 'hooks' | 'settings' | 'storage'>;

/** One page of a phase: NodeBB's [member, score] pairs of the phase's sorted set. */
export type Page = [string, number][];

/** A phase walks one NodeBB sorted set; each page is read, mapped and written in one action. */
export interface Phase {
  name: string;
  /** The sorted set listing the phase's records ('': the phase runs once, with no page). */
  set: string;
  run(deps: ImportDeps, src: NodebbSource, page: Page, dryRun: boolean, state: ImportState): Promise<{ count: number; notes: Note[] }>;
}

export const ids = (page: Page) => page.map(([m]) => Number(m)).filter((n) => Number.isInteger(n) && n > 0);

/** Writes in one action, unless a dry run. */
export async function write(deps: ImportDeps, dryRun: boolean, fn: (w: Writer) => Promise<void>): Promise<void> {
  if (!dryRun) await deps.actions.run('import.batch', fn);
}

/**
 * Which ids exist. A real import asks the forum (what came in); a dry run, which writes
 * nothing, asks NodeBB's list of them.
 */
export async function known(deps: ImportDeps, src: NodebbSource, dryRun: boolean, kind: 'users' | 'categories' | 'topics', wanted: number[]): Promise<(id: number) => boolean> {
  const uniq = [...new Set(wanted.filter((n) => n > 0))];
  const set = dryRun
    ? await src.inZset({ users: 'users:joindate', categories: 'categories:cid', topics: 'topics:tid' }[kind], uniq.map(String))
    : await present(deps.db, kind, { users: 'uid', categories: 'cid', topics: 'tid' }[kind], uniq);
  return (id) => set.has(String(id));
}

export const num = (v: string | undefined) => Number(v) || 0;

/** Replaces what the rows of `kind` use of the stored files (upload_refs), so the clean-up job keeps those files. */
async function setRefs(w: Writer, kind: string, refs: { id: number; used: string[] }[]): Promise<void> {
  if (!refs.length) return;
  const ids = refs.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 5000) await w.tx.deleteFrom('upload_refs').where('kind', '=', kind).where('ref_id', 'in', ids.slice(i, i + 5000)).execute();
  await upsert(w, 'upload_refs', refs.flatMap((r) => r.used.map((path) => ({ path, kind, ref_id: r.id }))), ['kind', 'ref_id', 'path']);
}

/** NodeBB's uploaded files (--uploads): copied first, so that the links to them are rewritten as the rows come in. */
const uploads: Phase = {
  name: 'uploads',
  set: '',
  async run(deps, _src, _page, dryRun, state) {
    const notes = new Notes();
    if (!state.uploadsDir) return { count: 0, notes: [] };
    state.uploads = await copyUploads(deps.storage, state.uploadsDir, dryRun, notes, (rows) =>
      write(deps, dryRun, async (w) => {
        await w.tx.deleteFrom('uploads').where('path', 'in', rows.map((r) => r.path)).execute();
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
      key === 'dailyDigestFreq' ? (DIGEST_FREQS as readonly string[]).includes(value)
      : key === 'categoryWatchState' ? (CATEGORY_WATCH_STATES as readonly string[]).includes(value)
      : key.startsWith('notificationType_') ? (NOTIFY_VALUES as readonly string[]).includes(value)
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
      return i > 0 ? [m.slice(0, i), Number(m.slice(i + 1)) || 0] as const : ([m, 0] as const);
    };
    const names = await src.zsets(got.map((u) => `user:${u}:usernames`));
    const emails = await src.zsets(got.map((u) => `user:${u}:emails`));
    const nameRows = got.flatMap((uid, i) => names[i]!.map(([m, t]) => ({ uid, username: split(m)[0].slice(0, 100), changed: split(m)[1] || Math.trunc(t) })));
    const emailRows = got.flatMap((uid, i) => emails[i]!.map(([m, t]) => ({ uid, email: split(m)[0].slice(0, 255), by_uid: uid, changed: split(m)[1] || Math.trunc(t) })));
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
          historyRows.push({ uid, kind, by_uid: num(b.fromUid), reason: text(b.reason, 500, notes, 'user', uid, `${kind} reason`), until: kind === 'ban' ? num(b.expire) : 0, created: Math.trunc(num(b.timestamp) || t) });
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
      for (let i = 0; i < got.length; i += 5000) await w.tx.deleteFrom('moderation_actions').where('uid', 'in', got.slice(i, i + 5000)).where('kind', 'in', ['ban', 'unban']).execute();
      for (let i = 0; i < historyRows.length; i += 2000) await w.tx.insertInto('moderation_actions').values(historyRows.slice(i, i + 2000)).execute();
      for (let i = 0; i < got.length; i += 5000) {
        await w.tx.deleteFrom('username_history').where('uid', 'in', got.slice(i, i + 5000)).execute();
        await w.tx.deleteFrom('email_history').where('uid', 'in', got.slice(i, i + 5000)).execute();
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

/** Category (and, for cid 0, global) privileges: NodeBB's privilege groups' members, by group and by member. */
async function privilegeRows(src: NodebbSource, cid: number): Promise<{ cid: number; privilege: string; subject: string }[]> {
  const names: readonly string[] = cid === 0 ? GLOBAL_PRIVILEGES : CATEGORY_PRIVILEGES;
  const byGroup = await src.zsets(names.map((p) => `group:cid:${cid}:privileges:groups:${p}:members`));
  const byUser = await src.zsets(names.map((p) => `group:cid:${cid}:privileges:${p}:members`));
  const rows: { cid: number; privilege: string; subject: string }[] = [];
  names.forEach((privilege, i) => {
    for (const [g] of byGroup[i]!) rows.push({ cid, privilege, subject: g });
    for (const [u] of byUser[i]!) rows.push({ cid, privilege, subject: `uid:${u}` });
  });
  return rows;
}

/** NodeBB's settings (the `config` hash) that Palaver has under the same name. */
const SETTINGS = [
  'browserTitle', 'description', 'minimumPasswordLength', 'minimumUsernameLength', 'maximumUsernameLength',
  'minimumTitleLength', 'maximumTitleLength', 'minimumPostLength', 'maximumPostLength', 'minimumTagsPerTopic',
  'maximumTagsPerTopic', 'minimumTagLength', 'maximumTagLength', 'topicsPerPage', 'postsPerPage', 'usersPerPage',
  'postDelay', 'newbiePostDelay', 'initialPostDelay', 'newbieReputationThreshold', 'registrationType',
  'registrationApprovalType', 'maximumChatMessageLength', 'chatMessageDelay', 'postEditDuration', 'postDeleteDuration',
] as const;

/** NodeBB's custom field types and Palaver's. */
const FIELD_TYPES: Record<string, string> = { 'input-text': 'text', 'input-link': 'url', 'input-number': 'number', select: 'select', 'select-multi': 'select', 'input-date': 'text' };

/** The custom profile fields' definitions, in NodeBB's order; null when NodeBB has none. */
async function customFields(src: NodebbSource, notes: Notes) {
  const keys = (await src.zsets(['user-custom-fields']))[0]!.map(([k]) => k);
  if (!keys.length) return null;
  const hashes = await src.hashes(keys.map((k) => `user-custom-field:${k}`));
  const out: { key: string; name: string; type: string; options: string[]; visibility: string }[] = [];
  keys.forEach((key, i) => {
    const h = hashes[i];
    if (!h || !/^[a-z0-9_-]{1,50}$/i.test(key)) return void notes.skip('custom field', key, h ? 'a key Palaver does not take (letters, digits, _ and -, up to 50)' : 'user-custom-fields lists it but user-custom-field:<key> is missing');
    const type = FIELD_TYPES[h.type ?? 'input-text'] ?? 'text';
    if (h.type === 'select-multi' || h.type === 'input-date') notes.alter('custom field', key, `NodeBB's ${h.type} comes in as a ${type} field`);
    out.push({
      key,
      name: (h.name || key).slice(0, 100),
      type,
      options: (h['select-options'] ?? '').split('\n').map((o) => o.trim()).filter(Boolean),
      visibility: ['all', 'loggedin', 'privileged'].includes(h.visibility ?? '') ? h.visibility! : 'all',
    });
  });
  return out;
}

/** NodeBB's API tokens as Palaver's rows (uid 0: a master token); a token of a member who did not come in is left out. */
async function apiTokens(deps: ImportDeps, src: NodebbSource, dryRun: boolean, notes: Notes) {
  const rows: { token_hash: string; uid: number | null; description: string; created: number; last_seen: number }[] = [];
  let cursor = '';
  do {
    const p = await src.zpage('tokens:createtime', cursor, 500);
    const tokens = p.items.map(([t]) => t);
    const hashes = await src.hashes(tokens.map((t) => `token:${t}`));
    const seen = await src.scores(tokens.map((t): [string, string] => ['tokens:lastSeen', t]));
    const uidOk = await known(deps, src, dryRun, 'users', hashes.map((h) => num(h?.uid)));
    p.items.forEach(([token, created], i) => {
      const uid = num(hashes[i]?.uid);
      if (uid > 0 && !uidOk(uid)) return void notes.skip('api token', `${token.slice(0, 4)}…`, `its member ${uid} is missing`);
      rows.push({ token_hash: hashSecret(token), uid: uid > 0 ? uid : null, description: (hashes[i]?.description ?? '').slice(0, 255), created: Math.trunc(num(hashes[i]?.timestamp) || created), last_seen: Math.trunc(seen[i] ?? 0) });
    });
    cursor = p.next;
  } while (cursor);
  return rows;
}

/** The forum-wide part: global privileges (NodeBB's cid 0) and the settings Palaver shares with NodeBB. */
const forum: Phase = {
  name: 'forum',
  set: '',
  async run(deps, src, _page, dryRun) {
    const notes = new Notes();
    const rows = await privilegeRows(src, 0);
    await write(deps, dryRun, (w) => replaceChildren(w, 'privileges', 'cid', [0], rows, ['cid', 'privilege', 'subject']));
    // The IP blacklist's rules (one text, as Palaver keeps it).
    const blacklist = (await src.hashes(['ip-blacklist-rules']))[0];
    if (blacklist?.rules) await write(deps, dryRun, (w) => upsert(w, 'ip_blacklist', [{ id: 1, rules: blacklist.rules.slice(0, 100_000), updated: Date.now() }], ['id']));
    const config = (await src.hashes(['config']))[0] ?? {};
    const current = (await deps.settings.get()) as unknown as Record<string, unknown>;
    // NodeBB's `title` is Palaver's `siteTitle`.
    for (const [key, raw] of [['siteTitle', config.title] as const, ...SETTINGS.map((k) => [k, config[k]] as const)]) {
      if (raw === undefined || raw === '' || !(key in current)) continue;
      const value = typeof current[key] === 'number' ? Number(raw) : typeof current[key] === 'boolean' ? raw === '1' || raw === 'true' : raw;
      if (value === current[key] || (typeof value === 'number' && !Number.isFinite(value))) continue;
      // One at a time: a value Palaver refuses (out of its range) is reported, the others still come.
      try {
        if (!dryRun) await deps.settings.set({ [key]: value });
      } catch (err) {
        notes.alter('setting', key, `"${String(raw).slice(0, 100)}" refused (${(err as { key?: string }).key ?? (err as Error).message}): kept ${JSON.stringify(current[key])}`);
      }
    }
    // The custom profile fields' definitions (user-custom-fields → user-custom-field:<key>).
    const fields = await customFields(src, notes);
    if (fields && !dryRun) await deps.settings.set({ customUserFields: JSON.stringify(fields) });
    // API tokens (tokens:createtime → token:<token>), stored by hash as Palaver's are: they keep working.
    const tokens = await apiTokens(deps, src, dryRun, notes);
    await write(deps, dryRun, (w) => upsert(w, 'api_tokens', tokens, ['token_hash']));
    return { count: rows.length + tokens.length, notes: notes.list };
  },
};

const categories: Phase = {
  name: 'categories',
  set: 'categories:cid',
  async run(deps, src, page, dryRun) {
    const notes = new Notes();
    const cids = ids(page);
    const hashes = await src.hashes(cids.map((c) => `category:${c}`));
    const rows = cids.map((c, i) => mapCategory(c, hashes[i]!, notes)).filter((r): r is CategoryImport => r !== null);
    const got = rows.map((r) => r.cid);
    const privileges: { cid: number; privilege: string; subject: string }[] = [];
    for (const cid of got) privileges.push(...(await privilegeRows(src, cid)));
    const watchSets = await src.zsets(got.map((c) => `cid:${c}:uid:watch:state`));
    const isKnown = await known(deps, src, dryRun, 'users', watchSets.flat().map(([u]) => Number(u)));
    const watches = got.flatMap((cid, i) =>
      watchSets[i]!.filter(([u, s]) => isKnown(Number(u)) && WATCH_STATES[String(s)]).map(([u, s]) => ({ cid, uid: Number(u), state: WATCH_STATES[String(s)]! })),
    );
    await write(deps, dryRun, async (w) => {
      await upsert(w, 'categories', rows, ['cid']);
      await replaceChildren(w, 'privileges', 'cid', got, privileges, ['cid', 'privilege', 'subject']);
      await replaceChildren(w, 'category_watches', 'cid', got, watches, ['cid', 'uid']);
    });
    return { count: rows.length, notes: notes.list };
  },
};

const topics: Phase = {
  name: 'topics',
  set: 'topics:tid',
  async run(deps, src, page, dryRun) {
    const notes = new Notes();
    const tids = ids(page);
    const hashes = await src.hashes(tids.map((t) => `topic:${t}`));
    const cidOk = await known(deps, src, dryRun, 'categories', hashes.map((h) => num(h?.cid)));
    const tagSets = await src.sets(tids.map((t) => `topic:${t}:tags`));
    const followers = await src.sets(tids.map((t) => `tid:${t}:followers`));
    const ignorers = await src.sets(tids.map((t) => `tid:${t}:ignorers`));
    const uidOk = await known(deps, src, dryRun, 'users', [...hashes.map((h) => num(h?.uid)), ...followers.flat().map(Number), ...ignorers.flat().map(Number)]);
    const rows: TopicImport[] = [];
    const tags: { tid: number; tag: string }[] = [];
    const follows: { tid: number; uid: number; state: string }[] = [];
    for (let i = 0; i < tids.length; i++) {
      const row = mapTopic(tids[i]!, hashes[i]!, notes, { cid: cidOk, uid: uidOk });
      if (!row) continue;
      rows.push(row);
      // NodeBB 4 keeps a topic's tags in its hash ("a,b"); older ones in topic:<tid>:tags.
      const words = [...(hashes[i]!.tags ?? '').split(','), ...tagSets[i]!];
      for (const tag of new Set(words.map((t) => t.trim().toLowerCase().slice(0, 255)).filter(Boolean))) tags.push({ tid: row.tid, tag });
      const seen = new Set<number>();
      for (const [list, state] of [[ignorers[i]!, 'ignore'], [followers[i]!, 'follow']] as const) {
        for (const u of list.map(Number)) {
          if (!uidOk(u) || seen.has(u)) continue;
          seen.add(u);
          follows.push({ tid: row.tid, uid: u, state });
        }
      }
    }
    const got = rows.map((r) => r.tid);
    // The timeline (pin, lock, move, delete…): topic:<tid>:events lists topicEvent:<id> by time.
    const eventSets = await src.zsets(got.map((t) => `topic:${t}:events`));
    const eventHashes = await src.hashes(eventSets.flat().map(([id]) => `topicEvent:${id}`));
    let ei = 0;
    const events = got.flatMap((tid, i) =>
      eventSets[i]!.flatMap(([id, at]) => {
        const h = eventHashes[ei++];
        if (!h?.type) return [];
        const { type, uid, id: _id, timestamp: _t, ...rest } = h;
        return [{ id: Number(id), tid, type: type.slice(0, 64), uid: Number(uid) || 0, data: JSON.stringify(rest), created: Math.trunc(at) }];
      }),
    );
    await write(deps, dryRun, async (w) => {
      await upsert(w, 'topics', rows, ['tid']);
      await replaceChildren(w, 'topic_events', 'tid', got, events.filter((e) => Number.isInteger(e.id) && e.id > 0), ['id']);
      await upsert(w, 'tags', [...new Set(tags.map((t) => t.tag))].map((tag) => ({ tag })), ['tag']);
      await replaceChildren(w, 'topic_tags', 'tid', got, tags, ['tid', 'tag']);
      await replaceChildren(w, 'topic_follows', 'tid', got, follows, ['tid', 'uid']);
    });
    return { count: rows.length, notes: notes.list };
  },
};

/**
 * A post's earlier versions from NodeBB's history (post:<pid>:diffs lists the edits' times,
 * newest first; diff:<pid>.<time> holds a patch from the version after the edit back to the
 * one before, its editor and the title before). Palaver keeps each replaced version with who
 * wrote it and when. A patch that no longer applies ends that post's history (noted).
 */
async function editHistory(src: NodebbSource, rows: PostImport[], notes: Notes) {
  const out: { pid: number; uid: number; content: string; title: string | null; edited: number }[] = [];
  const edited = rows.filter((r) => r.edited > 0);
  const lists = await src.lists(edited.map((r) => `post:${r.pid}:diffs`));
  const keys = edited.flatMap((r, i) => lists[i]!.map((t) => `diff:${r.pid}.${t}`));
  if (!keys.length) return out;
  const diffs = await src.hashes(keys);
  const { applyPatch } = await import('diff');
  let k = 0;
  edited.forEach((r, i) => {
    const times = lists[i]!.map(Number);
    let content = r.content;
    const versions: { content: string; title: string | null; editor: number }[] = [];
    let broken = false;
    for (const _t of times) {
      const d = diffs[k++];
      if (broken || !d?.patch) continue;
      const before = applyPatch(content, d.patch);
      if (before === false) {
        notes.alter('post', r.pid, 'an edit history patch did not apply: the earlier versions are left out');
        broken = true;
        continue;
      }
      // An edit that kept the title stores none: the version had the title of the one after it.
      versions.push({ content: before, title: d.title ?? versions[versions.length - 1]?.title ?? null, editor: Number(d.uid) || 0 });
      content = before;
    }
    // versions[j] is the content before the j-th newest edit, written at the edit before it (or at creation).
    versions.forEach((v, j) => {
      const writtenAt = j + 1 < times.length ? times[j + 1]! : r.created;
      const writer = j + 1 < versions.length ? versions[j + 1]!.editor || r.uid : r.uid;
      out.push({ pid: r.pid, uid: writer, content: v.content, title: v.title, edited: writtenAt });
    });
  });
  return out;
}

const posts: Phase = {
  name: 'posts',
  set: 'posts:pid',
  async run(deps, src, page, dryRun, state) {
    const notes = new Notes();
    const pids = ids(page);
    const s = await deps.settings.get();
    const hashes = await src.hashes(pids.map((p) => `post:${p}`));
    const up = await src.sets(pids.map((p) => `pid:${p}:upvote`));
    const down = await src.sets(pids.map((p) => `pid:${p}:downvote`));
    const marked = await src.sets(pids.map((p) => `pid:${p}:users_bookmarked`));
    const tidOk = await known(deps, src, dryRun, 'topics', hashes.map((h) => num(h?.tid)));
    const uidOk = await known(deps, src, dryRun, 'users', [...hashes.map((h) => num(h?.uid)), ...up.flat().map(Number), ...down.flat().map(Number), ...marked.flat().map(Number)]);
    const rows: (PostImport & { content_html: string })[] = [];
    const refs: { id: number; used: string[] }[] = [];
    const votes: { pid: number; uid: number; value: number; created: number }[] = [];
    const bookmarks: { pid: number; uid: number; created: number }[] = [];
    for (let i = 0; i < pids.length; i++) {
      const mapped = mapPost(pids[i]!, hashes[i]!, notes, { tid: tidOk, uid: uidOk }, Math.max(s.maximumPostLength, 65_000));
      if (!mapped) continue;
      // Links to NodeBB's uploads lead to their copies.
      const linked = rewriteLinks(mapped.content, state.uploads);
      const p = { ...mapped, content: linked.text };
      refs.push({ id: p.pid, used: linked.used });
      // Rendered by Palaver's own pipeline (markdown, mentions, emoji; sanitised), as a new post is.
      const html = (await deps.hooks.runFilter('filter:parse.post', { content: p.content, html: '', kind: 'post', uid: p.uid })).html;
      rows.push({ ...p, content_html: html });
      const voted = new Set<number>();
      for (const [list, value] of [[up[i]!, 1], [down[i]!, -1]] as const) {
        for (const u of list.map(Number)) {
          if (!uidOk(u) || voted.has(u)) continue;
          voted.add(u);
          votes.push({ pid: p.pid, uid: u, value, created: p.created });
        }
      }
      for (const u of new Set(marked[i]!.map(Number))) if (uidOk(u)) bookmarks.push({ pid: p.pid, uid: u, created: p.created });
    }
    // When each vote and bookmark was made: the member's own sorted sets (uid:<uid>:upvote… pid → time).
    const when = await src.scores([
      ...votes.map((v): [string, string] => [`uid:${v.uid}:${v.value > 0 ? 'upvote' : 'downvote'}`, String(v.pid)]),
      ...bookmarks.map((b): [string, string] => [`uid:${b.uid}:bookmarks`, String(b.pid)]),
    ]);
    votes.forEach((v, i) => (v.created = Math.trunc(when[i] ?? v.created)));
    bookmarks.forEach((b, i) => (b.created = Math.trunc(when[votes.length + i] ?? b.created)));
    const got = rows.map((r) => r.pid);
    const edits = await editHistory(src, rows, notes);
    await write(deps, dryRun, async (w) => {
      await withoutSearchTriggers(w, deps.dialect, () => upsert(w, 'posts', rows, ['pid']));
      await replaceChildren(w, 'post_edits', 'pid', got, [], ['id']);
      for (let i = 0; i < edits.length; i += 2000) await w.tx.insertInto('post_edits').values(edits.slice(i, i + 2000)).execute();
      await setRefs(w, 'post', refs);
      await replaceChildren(w, 'votes', 'pid', got, votes, ['pid', 'uid']);
      await replaceChildren(w, 'bookmarks', 'pid', got, bookmarks, ['pid', 'uid']);
    });
    return { count: rows.length, notes: notes.list };
  },
};

/** A second pass over the members, once topics are in: whom they follow and block, which topics they read, the tags they follow, the files they uploaded. */
const memberState: Phase = {
  name: 'member-state',
  set: 'users:joindate',
  async run(deps, src, page, dryRun, state) {
    const uids = ids(page);
    const following = await src.zsets(uids.map((u) => `following:${u}`));
    const reads = await src.zsets(uids.map((u) => `uid:${u}:tids_read`));
    const uidOk = await known(deps, src, dryRun, 'users', [...uids, ...following.flat().map(([u]) => Number(u))]);
    const tidOk = await known(deps, src, dryRun, 'topics', reads.flat().map(([t]) => Number(t)));
    const here = uids.filter(uidOk);
    const follows = uids.flatMap((uid, i) =>
      uidOk(uid) ? following[i]!.filter(([f]) => uidOk(Number(f)) && Number(f) !== uid).map(([f, t]) => ({ uid, followee: Number(f), created: Math.trunc(t) })) : [],
    );
    const blocked = await src.zsets(uids.map((u) => `uid:${u}:blocked_uids`));
    const blockOk = await known(deps, src, dryRun, 'users', blocked.flat().map(([b]) => Number(b)));
    const blocks = uids.flatMap((uid, i) =>
      uidOk(uid) ? blocked[i]!.filter(([b]) => blockOk(Number(b)) && Number(b) !== uid).map(([b, t]) => ({ uid, blocked_uid: Number(b), created: Math.trunc(t) })) : [],
    );
    const readRows = uids.flatMap((uid, i) => (uidOk(uid) ? reads[i]!.filter(([t]) => tidOk(Number(t))).map(([t, at]) => ({ uid, tid: Number(t), read_at: Math.trunc(at) })) : []));
    // Followed tags (uid:<uid>:followed_tags: tag → time).
    const tagLists = await src.zsets(here.map((u) => `uid:${u}:followed_tags`));
    const tagRows = here.flatMap((uid, i) => tagLists[i]!.filter(([t]) => t && t.length <= 255).map(([tag, t]) => ({ tag, uid, created: Math.trunc(t) })));
    // Who uploaded which file (uid:<uid>:uploads: NodeBB's path → time), for the files --uploads copied.
    const uploadLists = state.uploads.size ? await src.zsets(here.map((u) => `uid:${u}:uploads`)) : [];
    const owned = here.flatMap((uid, i) =>
      (uploadLists[i] ?? []).flatMap(([p, t]) => {
        const name = state.uploads.get(p.replace(/^\/+/, '').replace(/^(?:assets\/)?uploads\//, ''));
        return name ? [{ uid, path: name, created: Math.trunc(t) }] : [];
      }),
    );
    await write(deps, dryRun, async (w) => {
      await replaceChildren(w, 'tag_follows', 'uid', here, tagRows, ['tag', 'uid']);
      for (const o of owned) await w.tx.updateTable('uploads').set({ uid: o.uid, created: o.created }).where('path', '=', o.path).execute();
      await replaceChildren(w, 'user_follows', 'uid', here, follows, ['uid', 'followee']);
      await replaceChildren(w, 'topic_reads', 'uid', here, readRows, ['uid', 'tid']);
      await replaceChildren(w, 'user_blocks', 'uid', here, blocks, ['uid', 'blocked_uid']);
    });
    return { count: here.length, notes: [] };
  },
};

const chats: Phase = {
  name: 'chats',
  set: 'chat:rooms',
  async run(deps, src, page, dryRun) {
    const notes = new Notes();
    const s = await deps.settings.get();
    const roomIds = ids(page);
    const hashes = await src.hashes(roomIds.map((r) => `chat:room:${r}`));
    const members = await src.zsets(roomIds.map((r) => `chat:room:${r}:uids`));
    const owners = await src.zsets(roomIds.map((r) => `chat:room:${r}:owners`));
    const uidOk = await known(deps, src, dryRun, 'users', [...members.flat(), ...owners.flat()].map(([u]) => Number(u)));
    const rooms: RoomImport[] = [];
    const memberRows: { room_id: number; uid: number; is_owner: number; joined: number }[] = [];
    for (let i = 0; i < roomIds.length; i++) {
      const uids = members[i]!.map(([u]) => Number(u)).filter(uidOk);
      const room = mapRoom(roomIds[i]!, hashes[i]!, notes, uids, owners[i]!.map(([u]) => Number(u)).filter(uidOk));
      if (!room) continue;
      rooms.push(room);
      const own = new Set(owners[i]!.map(([u]) => u));
      for (const [u, joined] of members[i]!) if (uidOk(Number(u))) memberRows.push({ room_id: room.room_id, uid: Number(u), is_owner: own.has(u) ? 1 : 0, joined: Math.trunc(joined) });
    }
    // One direct conversation per pair: a second one of the same pair comes in as a plain room.
    const taken = dryRun ? new Set<string>() : await takenDmKeys(deps.db, rooms.flatMap((r) => (r.dm_key ? [r.dm_key] : [])), rooms.map((r) => r.room_id));
    for (const r of rooms) {
      if (!r.dm_key) continue;
      if (taken.has(r.dm_key)) r.dm_key = null;
      else taken.add(r.dm_key);
    }
    let messages = 0;
    await write(deps, dryRun, (w) => upsert(w, 'chat_rooms', rooms, ['room_id']));
    // Read states: a room in uid:<uid>:chat:rooms:unread was read up to the time in
    // uid:<uid>:chat:rooms:read; any other room of the member was read to its end.
    const readers = [...new Set(memberRows.map((m) => m.uid))];
    const readHashes = await src.hashes(readers.map((u) => `uid:${u}:chat:rooms:read`));
    const unreadSets = await src.inZsetMany(readers.map((u) => `uid:${u}:chat:rooms:unread`), rooms.map((r) => String(r.room_id)));
    const readAt = new Map<string, number>();
    readers.forEach((u, i) => {
      for (const r of rooms) readAt.set(`${r.room_id}:${u}`, unreadSets[i]!.has(String(r.room_id)) ? Number(readHashes[i]?.[String(r.room_id)]) || 0 : Infinity);
    });
    const lastRead = new Map<string, number>();
    for (const room of rooms) {
      let cursor = '';
      do {
        const p = await src.zpage(`chat:room:${room.room_id}:mids`, cursor, 500);
        const mids = ids(p.items);
        const mh = await src.hashes(mids.map((m) => `message:${m}`));
        const authorOk = await known(deps, src, dryRun, 'users', mh.map((h) => num(h?.fromuid)));
        const rows: (MessageImport & { idx: number; content_html: string })[] = [];
        for (let i = 0; i < mids.length; i++) {
          const m = mapMessage(mids[i]!, room.room_id, mh[i]!, notes, { uid: authorOk }, Math.max(s.maximumChatMessageLength ?? 1000, 65_000));
          if (!m) continue;
          const html = m.system
            ? ''
            : (await deps.hooks.runFilter('filter:parse.post', { content: m.content, html: '', kind: 'post', uid: m.uid })).html;
          // Positions are given at the end (store.rebuild): -mid meanwhile, unique.
          rows.push({ ...m, idx: -m.mid, content_html: html });
          for (const mem of memberRows) {
            if (mem.room_id !== room.room_id) continue;
            const key = `${room.room_id}:${mem.uid}`;
            if (m.created <= (readAt.get(key) ?? Infinity) && m.mid > (lastRead.get(key) ?? 0)) lastRead.set(key, m.mid);
          }
        }
        messages += rows.length;
        await write(deps, dryRun, (w) => upsert(w, 'chat_messages', rows, ['mid']));
        cursor = p.next;
      } while (cursor);
    }
    // Each member's notification setting of the room (chat:room:<id>:notification:settings: uid → 1 none, 2 mentions, 3 all; Palaver's 0, 1, 2; none set: the room's notificationSetting, else Palaver's default, all).
    const notify = await src.hashes(rooms.map((r) => `chat:room:${r.room_id}:notification:settings`));
    const notifyOf = new Map(rooms.map((r, i) => [r.room_id, notify[i]]));
    const withReads = memberRows.map((m) => {
      const v = num(notifyOf.get(m.room_id)?.[String(m.uid)]) || num(hashes[roomIds.indexOf(m.room_id)]?.notificationSetting);
      return { ...m, last_read_mid: lastRead.get(`${m.room_id}:${m.uid}`) ?? 0, notify: v >= 1 && v <= 3 ? v - 1 : 2 };
    });
    await write(deps, dryRun, (w) => replaceChildren(w, 'chat_room_members', 'room_id', rooms.map((r) => r.room_id), withReads, ['room_id', 'uid']));
    return { count: rooms.length + messages, notes: notes.list };
  },
};

/** NodeBB's flag targets and Palaver's names for them. */
const FLAG_TYPES: Record<string, string> = { post: 'post', user: 'user', message: 'chat' };

const flagsPhase: Phase = {
  name: 'flags',
  set: 'flags:datetime',
  async run(deps, src, page, dryRun) {
    const notes = new Notes();
    const fids = ids(page);
    const hashes = await src.hashes(fids.map((f) => `flag:${f}`));
    const reports = await src.zsets(fids.map((f) => `flag:${f}:reports`));
    const flagNotes = await src.zsets(fids.map((f) => `flag:${f}:notes`));
    const history = await src.zsets(fids.map((f) => `flag:${f}:history`));
    const rows: { flag_id: number; type: string; target_id: number; target_uid: number; state: string; assignee: number; created: number; last_report: number }[] = [];
    const reportRows: { flag_id: number; reporter_uid: number; reason: string; created: number }[] = [];
    const noteRows: { flag_id: number; uid: number; content: string; datetime: number }[] = [];
    const historyRows: { flag_id: number; uid: number; fields: string; datetime: number }[] = [];
    const json = (v: string): unknown => {
      try {
        return JSON.parse(v);
      } catch {
        return null;
      }
    };
    fids.forEach((fid, i) => {
      const h = hashes[i];
      if (!h) return void notes.skip('flag', fid, 'flags:datetime lists it but flag:<id> is missing');
      const type = FLAG_TYPES[h.type ?? ''];
      if (!type) return void notes.skip('flag', fid, `unknown target type "${h.type}"`);
      const created = Number(h.datetime) || Date.now();
      const reps = reports[i]!;
      rows.push({
        flag_id: fid,
        type,
        target_id: Number(h.targetId) || 0,
        target_uid: Number(h.targetUid) || 0,
        state: ['open', 'wip', 'resolved', 'rejected'].includes(h.state ?? '') ? h.state! : 'open',
        assignee: Number(h.assignee) || 0,
        created,
        last_report: Math.trunc(reps[reps.length - 1]?.[1] ?? created),
      });
      // Reports are "<uid>;<reason>".
      for (const [m, t] of reps) {
        const at = m.indexOf(';');
        reportRows.push({ flag_id: fid, reporter_uid: Number(m.slice(0, at)) || 0, reason: m.slice(at + 1).slice(0, 1000), created: Math.trunc(t) });
      }
      for (const [m, t] of flagNotes[i]!) {
        const n = json(m);
        if (Array.isArray(n)) noteRows.push({ flag_id: fid, uid: Number(n[0]) || 0, content: String(n[1] ?? '').slice(0, 5000), datetime: Math.trunc(t) });
      }
      for (const [m, t] of history[i]!) {
        const e = json(m);
        if (Array.isArray(e)) historyRows.push({ flag_id: fid, uid: Number(e[0]) || 0, fields: JSON.stringify(e[1] ?? {}), datetime: Math.trunc(t) });
      }
    });
    const got = rows.map((r) => r.flag_id);
    const uidOk = await known(deps, src, dryRun, 'users', [...reportRows.map((r) => r.reporter_uid), ...noteRows.map((n) => n.uid)]);
    const goneReporters = reportRows.filter((r) => !uidOk(r.reporter_uid));
    for (const r of goneReporters) notes.alter('flag', r.flag_id, `a report by missing member ${r.reporter_uid} left out`);
    await write(deps, dryRun, async (w) => {
      await upsert(w, 'flags', rows, ['flag_id']);
      await replaceChildren(w, 'flag_reports', 'flag_id', got, reportRows.filter((r) => uidOk(r.reporter_uid)), ['flag_id', 'reporter_uid']);
      await replaceChildren(w, 'flag_notes', 'flag_id', got, [], ['id']);
      await replaceChildren(w, 'flag_history', 'flag_id', got, [], ['id']);
      const keptNotes = noteRows.filter((n) => uidOk(n.uid));
      if (keptNotes.length) await w.tx.insertInto('flag_notes').values(keptNotes).execute();
      if (historyRows.length) await w.tx.insertInto('flag_history').values(historyRows).execute();
    });
    return { count: rows.length, notes: notes.list };
  },
};

/** The main phases in order: each one's rows may refer to the ones before (later-phases.ts has those that come after). */
export const CORE_PHASES: Phase[] = [uploads, users, groups, forum, categories, topics, posts, memberState, chats, flagsPhase];
