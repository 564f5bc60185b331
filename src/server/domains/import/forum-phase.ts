import { CATEGORY_PRIVILEGES, GLOBAL_PRIVILEGES } from '../privileges/service.js';
import { hashSecret } from '../auth/service.js';
import { Notes } from './map.js';
import { replaceChildren, upsert } from './store.js';
import type { NodebbSource } from './source.js';
import { known, num, write, type ImportDeps, type Phase } from './phase.js';

/** NodeBB's settings (the `config` hash) that Palaver has under the same name. */
const SETTINGS = [
  'browserTitle',
  'description',
  'minimumPasswordLength',
  'minimumUsernameLength',
  'maximumUsernameLength',
  'minimumTitleLength',
  'maximumTitleLength',
  'minimumPostLength',
  'maximumPostLength',
  'minimumTagsPerTopic',
  'maximumTagsPerTopic',
  'minimumTagLength',
  'maximumTagLength',
  'topicsPerPage',
  'postsPerPage',
  'usersPerPage',
  'postDelay',
  'newbiePostDelay',
  'initialPostDelay',
  'newbieReputationThreshold',
  'registrationType',
  'registrationApprovalType',
  'maximumChatMessageLength',
  'chatMessageDelay',
  'postEditDuration',
  'postDeleteDuration',
] as const;

/** NodeBB's custom field types and Palaver's. */
const FIELD_TYPES: Record<string, string> = {
  'input-text': 'text',
  'input-link': 'url',
  'input-number': 'number',
  select: 'select',
  'select-multi': 'select',
  'input-date': 'text',
};

/** The custom profile fields' definitions, in NodeBB's order; null when NodeBB has none. */
async function customFields(src: NodebbSource, notes: Notes) {
  const keys = (await src.zsets(['user-custom-fields']))[0]!.map(([k]) => k);
  if (!keys.length) return null;
  const hashes = await src.hashes(keys.map((k) => `user-custom-field:${k}`));
  const out: { key: string; name: string; type: string; options: string[]; visibility: string }[] = [];
  keys.forEach((key, i) => {
    const h = hashes[i];
    if (!h || !/^[a-z0-9_-]{1,50}$/i.test(key))
      return void notes.skip(
        'custom field',
        key,
        h ? 'a key Palaver does not take (letters, digits, _ and -, up to 50)' : 'user-custom-fields lists it but user-custom-field:<key> is missing',
      );
    const type = FIELD_TYPES[h.type ?? 'input-text'] ?? 'text';
    if (h.type === 'select-multi' || h.type === 'input-date') notes.alter('custom field', key, `NodeBB's ${h.type} comes in as a ${type} field`);
    out.push({
      key,
      name: (h.name || key).slice(0, 100),
      type,
      options: (h['select-options'] ?? '')
        .split('\n')
        .map((o) => o.trim())
        .filter(Boolean),
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
    const uidOk = await known(
      deps,
      src,
      dryRun,
      'users',
      hashes.map((h) => num(h?.uid)),
    );
    p.items.forEach(([token, created], i) => {
      const uid = num(hashes[i]?.uid);
      if (uid > 0 && !uidOk(uid)) return void notes.skip('api token', `${token.slice(0, 4)}…`, `its member ${uid} is missing`);
      rows.push({
        token_hash: hashSecret(token),
        uid: uid > 0 ? uid : null,
        description: (hashes[i]?.description ?? '').slice(0, 255),
        created: Math.trunc(num(hashes[i]?.timestamp) || created),
        last_seen: Math.trunc(seen[i] ?? 0),
      });
    });
    cursor = p.next;
  } while (cursor);
  return rows;
}

/** The forum-wide part: global privileges (NodeBB's cid 0) and the settings Palaver shares with NodeBB. */
export const FORUM_PHASE: Phase = {
  name: 'forum',
  set: '',
  async run(deps, src, _page, dryRun) {
    const notes = new Notes();
    const rows = await privilegeRows(src, 0);
    await write(deps, dryRun, (w) => replaceChildren(w, 'privileges', 'cid', [0], rows, ['cid', 'privilege', 'subject']));
    // The IP blacklist's rules (one text, as Palaver keeps it).
    const blacklist = (await src.hashes(['ip-blacklist-rules']))[0];
    if (blacklist?.rules)
      await write(deps, dryRun, (w) => upsert(w, 'ip_blacklist', [{ id: 1, rules: blacklist.rules.slice(0, 100_000), updated: Date.now() }], ['id']));
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
        notes.alter(
          'setting',
          key,
          `"${String(raw).slice(0, 100)}" refused (${(err as { key?: string }).key ?? (err as Error).message}): kept ${JSON.stringify(current[key])}`,
        );
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

/** Category (and, for cid 0, global) privileges: NodeBB's privilege groups' members, by group and by member. */
export async function privilegeRows(src: NodebbSource, cid: number): Promise<{ cid: number; privilege: string; subject: string }[]> {
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
