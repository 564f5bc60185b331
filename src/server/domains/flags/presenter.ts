import type { FlagHistoryEntry, FlagListItem, FlagObject, FlagState, FlagTarget, FlagType, FlagUser } from '../../../shared/schemas/flag.js';
import type { AppContext } from '../../context.js';
import { presentUser } from '../users/presenter.js';
import type { UserRow } from '../users/store.js';
import type { FlagsDeps } from './service.js';
import type { FlagRow, FlagWithHeat, HistoryRow } from './store.js';

type PresenterDeps = FlagsDeps & Pick<AppContext, 'flags'>;

/** NodeBB's label class of each state (the list's badge; the history's labels). */
export const STATE_CLASS: Record<FlagState, string> = { open: 'info', wip: 'warning', resolved: 'success', rejected: 'danger' };

/** The states with their labels, as the detail page lists them. */
export function flagStates(): Record<FlagState, { label: string; class: string }> {
  const out = {} as Record<FlagState, { label: string; class: string }>;
  for (const s of Object.keys(STATE_CLASS) as FlagState[]) out[s] = { label: `[[flags:state-${s}]]`, class: STATE_CLASS[s] };
  return out;
}

/** A member as a flag shows them (NodeBB's user fields; a reporter's carry their reputation too). */
export function flagUser(row: UserRow | undefined, uid: number, withReputation = false): FlagUser {
  const u = presentUser(row, uid);
  const user: FlagUser = { uid: u.uid, username: u.username, userslug: u.userslug, displayname: u.displayname, picture: u.picture, 'icon:text': u['icon:text'], 'icon:bgColor': u['icon:bgColor'], isLocal: true };
  if (withReputation) user.reputation = u.reputation;
  return user;
}

/** NodeBB's readable name of a target: 'Post 12', 'User 4', 'Message 9'. */
export function targetReadable(type: string, targetId: number): string {
  const name = type === 'message' ? 'Message' : type.charAt(0).toUpperCase() + type.slice(1);
  return `${name} ${targetId}`;
}

// NodeBB's display labels of one history entry: a state, an assignee, a note.
function historyMeta(fields: Record<string, unknown>, users: Map<number, UserRow>): FlagHistoryEntry['meta'] {
  const meta: FlagHistoryEntry['meta'] = [];
  if (typeof fields.state === 'string') {
    meta.push({ key: '[[flags:state]]', value: `[[flags:state-${fields.state}]]`, labelClass: fields.state === 'wip' ? 'primary' : (STATE_CLASS[fields.state as FlagState] ?? 'default') });
  }
  if (typeof fields.assignee === 'number') {
    meta.push({ key: '[[flags:assignee]]', value: fields.assignee > 0 ? (users.get(fields.assignee)?.username ?? String(fields.assignee)) : '[[flags:no-assignee]]', labelClass: 'default' });
  }
  if (fields.notes === 'added') meta.push({ key: '[[flags:note-added]]', labelClass: 'success' });
  if (fields.notes === 'deleted') meta.push({ key: '[[flags:note-deleted]]', labelClass: 'danger' });
  if (fields.report === 'rescinded') meta.push({ key: '[[flags:report-rescinded]]', labelClass: 'default' });
  return meta;
}

function parseFields(row: HistoryRow): Record<string, unknown> {
  try {
    return JSON.parse(row.fields) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The flagged thing in context: the post with its topic and category, the member, the chat message ({} when it is gone). */
async function presentTarget(ctx: PresenterDeps, flag: FlagRow, users: Map<number, UserRow>): Promise<FlagTarget> {
  const author = flagUser(users.get(flag.target_uid), flag.target_uid);
  if (flag.type === 'post') {
    const post = await ctx.posts.get(flag.target_id);
    const topic = post ? await ctx.topics.get(post.tid) : null;
    if (!post || !topic) return {};
    const category = await ctx.categories.get(topic.cid);
    const created = Number(post.created);
    return {
      pid: post.pid,
      tid: topic.tid,
      cid: topic.cid,
      content: post.content_html,
      timestamp: created,
      timestampISO: new Date(created).toISOString(),
      deleted: post.deleted,
      topic: { tid: topic.tid, title: topic.title, slug: `${topic.tid}/${topic.slug}` },
      ...(category ? { category: { cid: category.cid, name: category.name, slug: `${category.cid}/${category.slug}` } } : {}),
      user: author,
    };
  }
  if (flag.type === 'user') {
    const row = users.get(flag.target_uid);
    if (!row) return {};
    const u = presentUser(row);
    return { uid: u.uid, username: u.username, userslug: u.userslug, postcount: u.postcount, banned: u.banned, user: author };
  }
  try {
    // Read as its sender, who is in the room (a moderator need not be a member of it).
    const m = await ctx.chats.getMessage(await ctx.privileges.viewer(flag.target_uid), flag.room_id, flag.target_id);
    return { mid: m.mid, roomId: m.roomId, content: m.content, timestamp: m.timestamp, timestampISO: m.timestampISO, deleted: m.deleted, user: author };
  } catch {
    return {};
  }
}

/** A flag as NodeBB's FlagObject: target in context, reports, notes and history with their members (loaded once). */
export async function presentFlag(ctx: PresenterDeps, flag: FlagRow): Promise<FlagObject> {
  const { reports, notes, history } = await ctx.flags.details(flag.flag_id);
  const uids = [flag.target_uid, flag.assignee, ...reports.map((r) => r.reporter_uid), ...notes.map((n) => n.uid), ...history.map((h) => h.uid)];
  const histFields = history.map(parseFields);
  for (const f of histFields) if (typeof f.assignee === 'number') uids.push(f.assignee);
  const users = await ctx.users.getMany([...new Set(uids.filter((u) => u > 0))]);
  const created = Number(flag.created);
  return {
    state: flag.state as FlagState,
    flagId: flag.flag_id,
    type: flag.type as FlagType,
    targetId: flag.target_id,
    targetUid: flag.target_uid,
    datetime: created,
    datetimeISO: new Date(created).toISOString(),
    target_readable: targetReadable(flag.type, flag.target_id),
    target: await presentTarget(ctx, flag, users),
    assignee: flag.assignee > 0 ? flag.assignee : null,
    reports: reports.map((r) => ({ value: r.reason, timestamp: Number(r.created), timestampISO: new Date(Number(r.created)).toISOString(), reporter: flagUser(users.get(r.reporter_uid), r.reporter_uid, true) })),
    notes: notes.map((n) => ({ uid: n.uid, content: n.content, datetime: Number(n.datetime), datetimeISO: new Date(Number(n.datetime)).toISOString(), user: flagUser(users.get(n.uid), n.uid) })),
    history: history.map((h, i) => ({
      uid: h.uid,
      fields: histFields[i]!,
      meta: historyMeta(histFields[i]!, users),
      datetime: Number(h.datetime),
      datetimeISO: new Date(Number(h.datetime)).toISOString(),
      user: flagUser(users.get(h.uid), h.uid),
    })),
  };
}

/** The flags list's rows: members, posts and topics loaded once for the page. */
export async function presentFlagList(ctx: PresenterDeps, rows: FlagWithHeat[]): Promise<FlagListItem[]> {
  const posts = await ctx.posts.getMany(rows.filter((r) => r.type === 'post').map((r) => r.target_id));
  const topics = await ctx.topics.getMany([...new Set([...posts.values()].map((p) => p.tid))]);
  const users = await ctx.users.getMany([...new Set(rows.flatMap((r) => [r.target_uid, r.assignee]).filter((u) => u > 0))]);
  return rows.map((r) => {
    const created = Number(r.created);
    const post = r.type === 'post' ? posts.get(r.target_id) : undefined;
    const targetUser = flagUser(users.get(r.target_uid), r.target_uid);
    const targetTitle = r.type === 'post' ? (post ? (topics.get(post.tid)?.title ?? '') : '') : r.type === 'user' ? targetUser.username : targetReadable(r.type, r.target_id);
    return {
      state: r.state as FlagState,
      heat: r.heat,
      flagId: r.flag_id,
      type: r.type as FlagType,
      targetId: r.target_id,
      targetUid: r.target_uid,
      datetime: created,
      datetimeISO: new Date(created).toISOString(),
      labelClass: STATE_CLASS[r.state as FlagState] ?? 'default',
      target_readable: targetReadable(r.type, r.target_id),
      assignee: r.assignee > 0 ? String(r.assignee) : null,
      assigneeUser: r.assignee > 0 ? flagUser(users.get(r.assignee), r.assignee) : null,
      targetUser,
      targetTitle,
      cid: r.cid,
    };
  });
}

/** Parts of the account pages' batched read (users/account-fields.ts). */
export { flagsOfMemberCountPart, readerFlagOfMemberPart } from './store.js';
