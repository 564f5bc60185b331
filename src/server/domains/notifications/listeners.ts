import type { AppContext } from '../../context.js';
import type { PostRow, TopicRow } from '../../hooks/types.js';
import { createHash } from 'node:crypto';
import type { NotifyEvent } from './service.js';

/** What the listeners use: the hooks they hear, the notifications service, and who to tell. */
export type NotificationListenersDeps = Pick<AppContext, 'hooks' | 'notifications' | 'settings' | 'topics' | 'users'>;

const PLUGIN = 'notifications';

/** The fields of an event about a post in a topic. */
function aboutPost(post: PostRow, topic: TopicRow): Pick<NotifyEvent, 'subject' | 'path' | 'pid' | 'tid' | 'cid' | 'params'> {
  return { subject: { type: 'post', id: post.pid }, path: `/post/${post.pid}`, pid: post.pid, tid: topic.tid, cid: topic.cid, params: [topic.title] };
}

const hashOf = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 16);

const groupPath = (name: string) => `/groups/${encodeURIComponent(name.toLowerCase().replace(/\s+/g, '-'))}`;

// Durable: each listener runs from the outbox row written with the action (core/outbox.ts), so
// a crash between the commit and the notification loses nothing; it is retried on failure.
const DURABLE = { durable: true } as const;

/**
 * Turns the forum's actions into notifications: the domain listens, no other domain calls it.
 * Each event merges per reader by its merge key (replies by topic, upvotes and edits by post).
 * Every listener is durable and safe to run twice: each event has its own key (`reply:<pid>`,
 * `mention:<pid>`, …), and a reader is told of a key once (NotifyEvent.key, notification receipts).
 */
export function registerNotificationListeners(ctx: NotificationListenersDeps): void {
  const { hooks } = ctx;
  const notify = (event: NotifyEvent) => ctx.notifications.notify(event);

  hooks.action('action:post.save', PLUGIN, async ({ post, topic, uid }) => {
    if (post.pid === topic.main_pid) return;
    const uids = await ctx.topics.followers(topic.tid);
    await notify({ type: 'new-reply', key: `reply:${post.pid}`, mergeKey: `new_post:tid:${topic.tid}`, from: uid, bodyKey: 'notifications:user-posted-to', uids, ...aboutPost(post, topic) });
  }, DURABLE);

  // A deleted topic's notifications stay (it may be restored); a purged one's go.
  hooks.action('action:topic.purge', PLUGIN, async ({ topic }) => ctx.notifications.forgetTopic(topic.tid), DURABLE);

  hooks.action('action:post.vote', PLUGIN, async ({ post, uid, value }) => {
    if (value !== 1) return;
    const threshold = (await ctx.settings.get()).upvoteNotificationThreshold;
    if (threshold <= 0 || post.upvotes < threshold) return;
    const topic = await ctx.topics.get(post.tid);
    if (!topic) return;
    // Once per voter and post: an upvote taken back and given again tells nobody twice.
    await notify({ type: 'upvote', key: `upvote:${post.pid}:${uid}`, mergeKey: `upvote:pid:${post.pid}`, from: uid, bodyKey: 'notifications:upvoted-your-post-in', uids: [post.uid], ...aboutPost(post, topic) });
  }, DURABLE);

  hooks.action('action:post.edit', PLUGIN, async ({ post, topic, uid }) => {
    if (uid === post.uid) return;
    await notify({ type: 'post-edit', key: `edit:${post.pid}:${post.edited}`, mergeKey: `post_edit:pid:${post.pid}`, from: uid, bodyKey: 'notifications:moderator-edited-post', uids: [post.uid], ...aboutPost(post, topic) });
  }, DURABLE);

  hooks.action('action:post.mention', PLUGIN, async ({ post, topic, uid, uids }) => {
    // Once per post and reader: an edit that adds a name tells only that reader.
    await notify({ type: 'mention', key: `mention:${post.pid}`, mergeKey: `mention:tid:${topic.tid}`, from: uid, bodyKey: 'notifications:user-mentioned-you-in', uids, ...aboutPost(post, topic) });
  }, DURABLE);

  hooks.action('action:post.quote', PLUGIN, async ({ post, topic, uid, uids }) => {
    await notify({ type: 'quote', key: `quote:${post.pid}`, mergeKey: `quote:tid:${topic.tid}`, from: uid, bodyKey: 'notifications:user-quoted-you-in', uids, ...aboutPost(post, topic) });
  }, DURABLE);

  hooks.action('action:topic.watched', PLUGIN, async ({ topic, post, uid, uids }) => {
    // One notification per new topic: a reader watching both its category and a tag hears once.
    await notify({ type: 'new-topic', key: `new-topic:${topic.tid}`, mergeKey: `new_topic:tid:${topic.tid}`, from: uid, bodyKey: 'notifications:user-posted-topic', uids, ...aboutPost(post, topic) });
  }, DURABLE);

  hooks.action('action:user.follow', PLUGIN, async ({ uid, followee }) => {
    const follower = await ctx.users.get(uid);
    if (!follower) return;
    await notify({
      type: 'follow',
      key: `follow:${uid}:${followee}`,
      mergeKey: `follow:uid:${followee}`,
      subject: { type: 'user', id: uid },
      from: uid,
      path: `/user/${follower.userslug}`,
      bodyKey: 'notifications:user-started-following-you',
      uids: [followee],
    });
  }, DURABLE);

  hooks.action('action:chat.message', PLUGIN, async ({ roomId, mid, uid, roomName, uids }) => {
    await notify({
      type: 'new-chat',
      key: `chat:${roomId}:${mid}`,
      mergeKey: `chat:room:${roomId}`,
      subject: { type: 'chat', id: roomId },
      from: uid,
      path: `/chats/${roomId}`,
      bodyKey: 'notifications:new-message-in',
      params: [roomName],
      uids,
    });
  }, DURABLE);

  // Reading the room reads its chat notification too (as NodeBB does), so one message never counts twice.
  hooks.action('action:chat.read', PLUGIN, async ({ roomId, uid, state }) => {
    if (state === 0) await ctx.notifications.readByKey(uid, `chat:room:${roomId}`);
  });

  hooks.action('action:flag.create', PLUGIN, async ({ flagId, uid, cid, type, targetId, tid }) => {
    await notify({
      type: type === 'post' ? 'new-post-flag' : 'new-user-flag',
      key: `flag:${flagId}`,
      mergeKey: `flag:${type}:${targetId}`,
      subject: { type: 'flag', id: flagId },
      from: uid,
      path: `/flags/${flagId}`,
      bodyKey: type === 'post' ? 'notifications:user-flagged-post' : 'notifications:user-flagged-user',
      ...(type === 'post' ? { pid: targetId, cid, tid } : {}),
      uids: await ctx.notifications.moderatorsOf(cid),
    });
  }, DURABLE);

  hooks.action('action:flag.update', PLUGIN, async ({ flagId, uid, assignee, state, closed, reporters, targetPath, at }) => {
    const subject = { type: 'flag' as const, id: flagId };
    if (assignee && assignee !== uid) {
      await notify({ type: 'my-flags', key: `flag-assign:${flagId}:${at}`, mergeKey: `flags:assign:${flagId}`, subject, from: uid, path: `/flags/${flagId}`, bodyKey: 'notifications:flag-assigned-to-you', params: [flagId], uids: [assignee] });
    }
    if (closed && state) {
      await notify({ type: 'my-flags', key: `flag-closed:${flagId}:${at}`, mergeKey: `flags:closed:${flagId}`, subject, from: uid, path: targetPath, bodyKey: `notifications:flag-${state}`, uids: reporters });
    }
  }, DURABLE);

  hooks.action('action:post.queued', PLUGIN, async ({ id, uid, cid, title }) => {
    await notify({
      type: 'post-queue',
      key: `queued:${id}`,
      mergeKey: `post_queue:cid:${cid}`,
      subject: { type: 'queue', id },
      from: uid,
      path: '/post-queue',
      bodyKey: 'notifications:post-awaiting-review',
      params: [title],
      cid,
      uids: await ctx.notifications.moderatorsOf(cid),
    });
  }, DURABLE);

  // The moderators' "posts awaiting review" (merged per category) is read once nothing waits there.
  hooks.action('action:post.queueHandled', PLUGIN, async ({ cid, waiting }) => {
    if (waiting > 0) return;
    for (const uid of await ctx.notifications.moderatorsOf(cid)) await ctx.notifications.readByKey(uid, `post_queue:cid:${cid}`);
  }, DURABLE);

  // The author of a queued post hears what a moderator decided (or wrote).
  hooks.action('action:post.queueNotice', PLUGIN, async ({ id, uid, by, kind, title, message, path }) => {
    const bodyKey = `notifications:post-queue-${kind}${kind === 'rejected' && message ? '-reason' : ''}`;
    // A moderator may write to the author more than once: each message is its own event.
    await notify({ type: 'post-queue', key: `queue-${kind}:${id}:${hashOf(message)}`, mergeKey: `post_queue:${kind}:${id}`, subject: { type: 'queue', id }, from: by, path, bodyKey, params: [title, message], uids: [uid] });
  }, DURABLE);

  hooks.action('action:group.invite', PLUGIN, async ({ groupName, uid, by }) => {
    await notify({
      type: 'group-invite',
      key: `group-invite:${groupName}:${uid}:${by}`,
      mergeKey: `group:invite:${groupName}`,
      subject: { type: 'group', id: 0 },
      from: by,
      path: groupPath(groupName),
      bodyKey: 'notifications:invited-to-group',
      params: [groupName],
      uids: [uid],
    });
  }, DURABLE);

  hooks.action('action:group.request', PLUGIN, async ({ groupName, uid, uids }) => {
    await notify({
      type: 'group-request',
      key: `group-request:${groupName}:${uid}`,
      mergeKey: `group:request:${groupName}`,
      subject: { type: 'group', id: 0 },
      from: uid,
      path: groupPath(groupName),
      bodyKey: 'notifications:group-request-membership',
      params: [groupName],
      uids,
    });
  }, DURABLE);
}
