import type { Writer } from '../../core/action.js';
import { badRequest, forbidden } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { assertModerator, assertReadable, loadTopic, member } from './access.js';
import { recordEvent } from './tools/events.js';
import { schedulePinExpiry } from './tools/pin.js';
import * as store from './store.js';
import type { TopicRow } from './store.js';
import type { TopicsDeps, TopicToolsDeps } from './service.js';

/** Locks or unlocks a topic (moderators), recording the event. */
export async function setLocked(ctx: TopicToolsDeps, viewer: Viewer, tid: number, locked: boolean, ip = ''): Promise<TopicRow> {
  member(viewer);
  const topic = await loadTopic(ctx, tid);
  await assertModerator(ctx, viewer, topic.cid);
  const updated = { ...topic, locked: locked ? 1 : 0 };
  await ctx.actions.run('topic.lock', async (w) => {
    await store.updateTopic(w, tid, { locked: locked ? 1 : 0 });
    await recordEvent(ctx, w, tid, locked ? 'lock' : 'unlock', viewer.uid, {}, ip);
    await w.fire('action:topic.lock', { topic: updated, uid: viewer.uid, locked });
  });
  return updated;
}

/**
 * Pins or unpins a topic (moderators), recording the event. A pin may carry an expiry (a
 * future time, NodeBB's `expiry`): a job lifts it then (pin.ts).
 */
export async function setPinned(ctx: TopicToolsDeps, viewer: Viewer, tid: number, pinned: boolean, expiry = 0, ip = ''): Promise<TopicRow> {
  member(viewer);
  const topic = await loadTopic(ctx, tid);
  await assertModerator(ctx, viewer, topic.cid);
  if (pinned && expiry && expiry <= Date.now()) throw badRequest('error:invalid-pin-expiry');
  const pin_expiry = pinned ? expiry : 0;
  const updated = { ...topic, pinned: pinned ? 1 : 0, pin_expiry };
  await ctx.actions.run('topic.pin', async (w) => {
    await store.updateTopic(w, tid, { pinned: pinned ? 1 : 0, pin_expiry });
    await recordEvent(ctx, w, tid, pinned ? 'pin' : 'unpin', viewer.uid, pin_expiry ? { expiry: pin_expiry } : {}, ip);
    if (pin_expiry) await schedulePinExpiry(ctx, tid, pin_expiry);
    await w.fire('action:topic.pin', { topic: updated, uid: viewer.uid, pinned });
  });
  return updated;
}

/** Moves every counter that counts a visible topic: category, owner's topic count, tag counts. */
export async function moveVisibility(ctx: TopicsDeps, w: Writer, topic: TopicRow, delta: 1 | -1): Promise<void> {
  // A scheduled topic is counted when it is published (schedule.ts), not before.
  if (topic.scheduled === 1) return;
  await ctx.categories.bumpCounters(w, topic.cid, delta, delta * topic.post_count);
  await ctx.users.bump(w.tx, topic.uid, 'topiccount', delta);
  await ctx.tags.topicVisibility(w, topic.tid, delta);
}

/** Soft-deletes a topic: its owner (with topics:delete) or a moderator. */
export async function deleteTopic(ctx: TopicToolsDeps, viewer: Viewer, tid: number): Promise<TopicRow> {
  member(viewer);
  const topic = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, topic);
  const isMod = await ctx.privileges.isModerator(viewer, topic.cid);
  if (!isMod && !(topic.uid === viewer.uid && (await ctx.privileges.can(viewer, 'topics:delete', topic.cid)))) throw forbidden();
  if (topic.deleted === 1) throw badRequest('error:topic-already-deleted');
  const updated = { ...topic, deleted: 1, deleter_uid: viewer.uid };
  await ctx.actions.run('topic.delete', async (w) => {
    await store.updateTopic(w, tid, { deleted: 1, deleter_uid: viewer.uid });
    await moveVisibility(ctx, w, topic, -1);
    await recordEvent(ctx, w, tid, 'delete', viewer.uid);
    await w.fire('action:topic.delete', { topic: updated, uid: viewer.uid });
  });
  return updated;
}

/** Restores a deleted topic: a moderator, or its owner when they deleted it themself. */
export async function restoreTopic(ctx: TopicToolsDeps, viewer: Viewer, tid: number): Promise<TopicRow> {
  member(viewer);
  const topic = await loadTopic(ctx, tid);
  const isMod = await ctx.privileges.isModerator(viewer, topic.cid);
  const ownDeletion = topic.uid === viewer.uid && topic.deleter_uid === viewer.uid && (await ctx.privileges.can(viewer, 'topics:delete', topic.cid));
  if (!isMod && !ownDeletion) throw forbidden();
  if (topic.deleted !== 1) throw badRequest('error:topic-already-restored');
  const updated = { ...topic, deleted: 0, deleter_uid: 0 };
  await ctx.actions.run('topic.restore', async (w) => {
    await store.updateTopic(w, tid, { deleted: 0, deleter_uid: 0 });
    await moveVisibility(ctx, w, topic, 1);
    await recordEvent(ctx, w, tid, 'restore', viewer.uid);
    await w.fire('action:topic.restore', { topic: updated, uid: viewer.uid });
  });
  return updated;
}

/** Removes a topic and its posts for ever, taking back every counter they added (inside a transaction). */
export async function purgeTopicRows(ctx: TopicsDeps, w: Writer, topic: TopicRow): Promise<void> {
  if (topic.deleted !== 1) await moveVisibility(ctx, w, topic, -1);
  // The main post of a topic not yet published was never counted for its author.
  if (topic.scheduled === 1) await ctx.users.bump(w.tx, topic.uid, 'postcount', 1);
  await ctx.posts.forgetTopicPosts(w, topic.tid);
  await store.deleteTopic(w, topic.tid);
}

/** Purges a topic: the purge privilege, and ownership or moderation. */
export async function purgeTopic(ctx: TopicsDeps, viewer: Viewer, tid: number): Promise<void> {
  member(viewer);
  const topic = await loadTopic(ctx, tid);
  const may =
    (await ctx.privileges.can(viewer, 'purge', topic.cid)) && (topic.uid === viewer.uid || (await ctx.privileges.isModerator(viewer, topic.cid)));
  if (!may) throw forbidden();
  await ctx.actions.run('topic.purge', async (w) => {
    await purgeTopicRows(ctx, w, topic);
    await w.fire('action:topic.purge', { topic, uid: viewer.uid });
  });
}

/** Purges every topic of a category, one transaction per topic (before the category goes). */
export async function purgeCategoryContent(ctx: TopicsDeps, cid: number): Promise<void> {
  for (const tid of await store.tidsOfCategory(ctx.db, cid)) {
    const topic = await store.byTid(ctx.db, tid);
    if (!topic) continue;
    await ctx.actions.run('topic.purge', async (w) => {
      await purgeTopicRows(ctx, w, topic);
      await w.fire('action:topic.purge', { topic, uid: 0 });
    });
  }
}

/** Replaces (or with `null`, clears) a topic's tags: topics:tag, and its owner with posts:edit or a moderator. */
export async function setTopicTags(ctx: TopicToolsDeps, viewer: Viewer, tid: number, tags: unknown[] | null, mode: 'set' | 'add' | 'remove' = 'set'): Promise<string[]> {
  member(viewer);
  const s = await ctx.settings.get();
  const topic = await loadTopic(ctx, tid);
  await assertReadable(ctx, viewer, topic);
  const isMod = await ctx.privileges.isModerator(viewer, topic.cid);
  const may = isMod || (topic.uid === viewer.uid && (await ctx.privileges.can(viewer, 'posts:edit', topic.cid)));
  if (!may || !(await ctx.privileges.can(viewer, 'topics:tag', topic.cid))) throw forbidden();
  const current = await ctx.tags.namesOf(tid);
  let next: string[];
  if (mode === 'remove') {
    // Removing only checks that what is left still meets the minimum.
    const drop = tags === null ? current : tags.map((t) => (typeof t === 'string' ? t.trim().toLowerCase() : ''));
    next = ctx.tags.validate(current.filter((t) => !drop.includes(t)), s);
  } else {
    // Adding keeps the topic's tags and appends the new ones (a tag given twice counts once).
    const given = mode === 'add' ? [...current, ...(tags ?? [])] : (tags ?? []);
    next = ctx.tags.validate(given, s);
  }
  await ctx.tags.checkForCategory(next, topic.cid, s);
  await ctx.actions.run('topic.tags', async (w) => {
    await ctx.tags.setForTopic(w, tid, next, topic.deleted === 1);
    await recordEvent(ctx, w, tid, 'tag', viewer.uid, { tags: next });
    await w.fire('action:topic.tags', { topic, uid: viewer.uid, tags: next });
  });
  return next;
}
