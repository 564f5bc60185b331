import type { TopicRow } from '../hooks/types.js';
import { pushFiltered, readsCategory, readsPost, readsTopic } from './audience.js';
import type { TopicStateEvent, TopicStatePayload } from './events.js';
import { bridge, type Hub } from './hub.js';
import { livePost, liveTopic, liveTopicSummary, votePayload } from './payloads.js';
import { categoryRoom, RECENT_TOPICS, topicRoom, UNREAD_TOPICS, userRoom } from './rooms.js';

/** Posts and topics: every change reaches the rooms that show it, and only readers in them. */
export function registerContentBridges(hub: Hub): void {
  const { ctx, io, viewers } = hub;
  const listRooms = (t: TopicRow) => [topicRoom(t.tid), categoryRoom(t.cid), RECENT_TOPICS];

  bridge(hub, 'action:topic.save', async ({ topic }) =>
    pushFiltered(io, viewers, [categoryRoom(topic.cid), RECENT_TOPICS, UNREAD_TOPICS], readsTopic(ctx, topic), 'event:new_topic', await liveTopicSummary(ctx, topic)),
  );
  bridge(hub, 'action:post.save', async ({ post, topic }) =>
    pushFiltered(io, viewers, listRooms(topic), readsPost(ctx, topic, post), 'event:new_post', { posts: [await livePost(ctx, post, topic)] }),
  );
  bridge(hub, 'action:post.edit', async ({ post, topic }) =>
    pushFiltered(io, viewers, [topicRoom(topic.tid)], readsPost(ctx, topic, post), 'event:post_edited', {
      post: await livePost(ctx, post, topic),
      topic: liveTopic(topic),
    }),
  );
  // Every reader learns the post is gone; its content is not sent again.
  bridge(hub, 'action:post.delete', async ({ post, topic }) =>
    pushFiltered(io, viewers, [topicRoom(topic.tid)], readsTopic(ctx, topic), 'event:post_deleted', { ...(await livePost(ctx, post, topic)), content: '' }),
  );
  bridge(hub, 'action:post.restore', async ({ post, topic }) =>
    pushFiltered(io, viewers, [topicRoom(topic.tid)], readsPost(ctx, topic, post), 'event:post_restored', await livePost(ctx, post, topic)),
  );
  bridge(hub, 'action:post.purge', async ({ post, topic }) =>
    pushFiltered(io, viewers, [topicRoom(topic.tid)], readsTopic(ctx, topic), 'event:post_purged', { pid: post.pid, tid: post.tid, uid: post.uid }),
  );

  // The voter's own sockets hear NodeBB's posts.upvote/downvote/unvote; the topic's readers, event:voted.
  bridge(hub, 'action:post.vote', async ({ post, uid, value }) => {
    const payload = await votePayload(ctx, post, uid);
    io.to(userRoom(uid)).emit(value > 0 ? 'posts.upvote' : value < 0 ? 'posts.downvote' : 'posts.unvote', payload);
    const topic = await ctx.topics.get(post.tid);
    if (topic) await pushFiltered(io, viewers, [topicRoom(topic.tid)], readsPost(ctx, topic, post), 'event:voted', payload);
  });
  bridge(hub, 'action:post.bookmark', async ({ post, uid, bookmarked }) => {
    io.to(userRoom(uid)).emit(bookmarked ? 'posts.bookmark' : 'posts.unbookmark', {
      post: { pid: post.pid, bookmarks: post.bookmarks },
      isBookmarked: bookmarked,
    });
  });

  // Topic tools tell the topic and its category's list, as NodeBB's do.
  const topicState = (topic: TopicRow, event: TopicStateEvent, data: TopicStatePayload) =>
    pushFiltered(io, viewers, [topicRoom(topic.tid), categoryRoom(topic.cid)], readsCategory(ctx, topic.cid), event, data);
  const state = (topic: TopicRow, uid: number) => ({ tid: topic.tid, cid: topic.cid, uid });
  bridge(hub, 'action:topic.delete', async ({ topic, uid }) => topicState(topic, 'event:topic_deleted', { ...state(topic, uid), isDelete: true }));
  bridge(hub, 'action:topic.restore', async ({ topic, uid }) => topicState(topic, 'event:topic_restored', { ...state(topic, uid), isDelete: false }));
  bridge(hub, 'action:topic.purge', async ({ topic, uid }) => topicState(topic, 'event:topic_purged', state(topic, uid)));
  bridge(hub, 'action:topic.lock', async ({ topic, uid, locked }) =>
    topicState(topic, locked ? 'event:topic_locked' : 'event:topic_unlocked', { ...state(topic, uid), isLocked: locked }),
  );
  bridge(hub, 'action:topic.pin', async ({ topic, uid, pinned }) =>
    topicState(topic, pinned ? 'event:topic_pinned' : 'event:topic_unpinned', { ...state(topic, uid), isPinned: pinned }),
  );
  bridge(hub, 'action:topic.tags', async ({ topic, uid }) =>
    pushFiltered(io, viewers, [topicRoom(topic.tid), categoryRoom(topic.cid)], readsTopic(ctx, topic), 'event:topic_tags', {
      tid: topic.tid,
      cid: topic.cid,
      uid,
      tags: (await ctx.tags.forTopics([topic.tid])).get(topic.tid) ?? [],
    }),
  );
  // Merge, fork, move posts, change owner: each topic's readers reload it (a merged topic's readers land on the main one).
  bridge(hub, 'action:topic.tools', async ({ tids, uid, tool }) => {
    for (const tid of tids) io.to(topicRoom(tid)).emit('event:topic_tools', { tid, tool, uid });
  });
  // Only readers of the new category follow a moved topic there.
  bridge(hub, 'action:topic.move', async ({ topic, fromCid }) =>
    pushFiltered(io, viewers, [topicRoom(topic.tid), categoryRoom(fromCid), categoryRoom(topic.cid)], readsCategory(ctx, topic.cid), 'event:topic_moved', {
      tid: topic.tid,
      cid: topic.cid,
      fromCid,
    }),
  );
}
