import type { AdminTag } from '../../../shared/schemas/admin-people.js';
import { cleanUpTag } from '../../../shared/validation.js';
import type { Writer } from '../../core/action.js';
import { badRequest, forbidden, notAuthorised, notFound } from '../../http/errors.js';
import { escapeHtml } from '../../http/render.js';
import type { Viewer } from '../privileges/service.js';
import type { TagsDeps } from './service.js';
import * as store from './store.js';

/** Tags are managed by administrators and global moderators (401 for a visitor, 403 for anyone else). */
function assertAdmin(viewer: Viewer): void {
  if (viewer.uid <= 0 && !viewer.isAdmin) throw notAuthorised();
  if (!viewer.isAdmin && !viewer.isGlobalMod) throw forbidden();
}

/** A tag an admin typed, cleaned by the forum's tag rules (error:invalid-tag, tag-too-short, tag-too-long). */
async function cleanTag(ctx: TagsDeps, raw: string): Promise<string> {
  const s = await ctx.settings.get();
  const uncut = cleanUpTag(raw, Number.MAX_SAFE_INTEGER);
  if (!uncut) throw badRequest('error:invalid-tag');
  if (uncut.length > s.maximumTagLength) throw badRequest('error:tag-too-long', s.maximumTagLength);
  if (uncut.length < s.minimumTagLength) throw badRequest('error:tag-too-short', s.minimumTagLength);
  return uncut;
}

/** An existing tag by its name as given (cleaned), else 404 error:no-tag. */
async function existing(ctx: TagsDeps, raw: string): Promise<string> {
  const tag = cleanUpTag(raw, Number.MAX_SAFE_INTEGER);
  if (!tag || !(await store.byTag(ctx.db, tag))) throw notFound('error:no-tag');
  return tag;
}

export function presentAdminTag(tag: string, count: number): AdminTag {
  return { value: tag, valueEscaped: escapeHtml(tag), valueEncoded: encodeURIComponent(tag), score: count };
}

/** A page of every tag (with unused ones), searched by a text, most used first. */
export async function adminTags(ctx: TagsDeps, viewer: Viewer, text: string, page: number, perPage: number): Promise<{ tags: AdminTag[]; count: number }> {
  assertAdmin(viewer);
  const { rows, count } = await store.adminTagList(ctx.db, cleanUpTag(text, 100), (page - 1) * perPage, perPage);
  return { tags: rows.map((r) => presentAdminTag(r.tag, r.topic_count)), count };
}

/** Tells open pages about topics whose tags changed (after the action commits). */
async function topicsChanged(ctx: TagsDeps, w: Writer, tids: number[], uid: number): Promise<void> {
  if (!tids.length) return;
  const rows = await ctx.topics.getMany(tids);
  for (const topic of rows.values()) {
    const tags = await store.tagNamesOf(w.tx, topic.tid);
    await w.fire('action:topic.tags', { topic, uid, tags });
  }
}

/** Creates a tag no topic carries yet (NodeBB's admin "create tag"). */
export async function createTag(ctx: TagsDeps, viewer: Viewer, raw: string): Promise<AdminTag> {
  assertAdmin(viewer);
  const tag = await cleanTag(ctx, raw);
  if (await store.byTag(ctx.db, tag)) throw badRequest('error:tag-exists', tag);
  await ctx.actions.run('tag.create', async (w) => {
    await store.ensureTag(w, tag);
    await ctx.events.log('tag-create', viewer.uid, { tag }, '', w);
  });
  return presentAdminTag(tag, 0);
}

/**
 * Merges tags into one (a rename is a merge of one): every topic carrying a source tag
 * carries the target instead (once), followers follow the target, the sources are gone and
 * the target's count is recounted; topic pages and guests' cached pages hear of each topic.
 */
export async function mergeTags(ctx: TagsDeps, viewer: Viewer, rawSources: string[], rawTarget: string, kind: 'rename' | 'merge' = 'merge'): Promise<AdminTag> {
  assertAdmin(viewer);
  const target = await cleanTag(ctx, rawTarget);
  const sources: string[] = [];
  for (const raw of rawSources) {
    const tag = await existing(ctx, raw);
    if (tag !== target && !sources.includes(tag)) sources.push(tag);
  }
  if (!sources.length) throw badRequest('error:tag-merge-nothing');
  const tids = new Set<number>();
  for (const s of sources) for (const tid of await store.tidsWithTag(ctx.db, s)) tids.add(tid);
  const count = await ctx.actions.run('tag.merge', async (w) => {
    for (const s of sources) await store.moveTag(w, s, target);
    await store.recountTag(w, target);
    await ctx.events.log(kind === 'rename' ? 'tag-rename' : 'tag-merge', viewer.uid, { from: sources, to: target }, '', w);
    await topicsChanged(ctx, w, [...tids], viewer.uid);
    return Number((await store.byTag(w.tx, target))?.topic_count ?? 0);
  });
  return presentAdminTag(target, count);
}

/** Renames a tag (merging it into the new name when that tag exists). */
export async function renameTag(ctx: TagsDeps, viewer: Viewer, from: string, to: string): Promise<AdminTag> {
  return mergeTags(ctx, viewer, [from], to, 'rename');
}

/** Deletes tags: topics no longer carry them and nobody follows them. */
export async function deleteTags(ctx: TagsDeps, viewer: Viewer, raw: string[]): Promise<void> {
  assertAdmin(viewer);
  const tags: string[] = [];
  for (const r of raw) tags.push(await existing(ctx, r));
  const tids = new Set<number>();
  for (const t of tags) for (const tid of await store.tidsWithTag(ctx.db, t)) tids.add(tid);
  await ctx.actions.run('tag.delete', async (w) => {
    for (const t of tags) await store.deleteTag(w, t);
    await ctx.events.log('tag-delete', viewer.uid, { tags }, '', w);
    await topicsChanged(ctx, w, [...tids], viewer.uid);
  });
}
