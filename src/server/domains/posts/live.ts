import type { AppContext } from '../../context.js';
import type { PostRow, TopicRow } from '../../hooks/types.js';
import type { LivePost, VotePayload } from '../../realtime/events.js';
import { categoryRoom, RECENT_TOPICS, topicRoom, userRoom } from '../../realtime/rooms.js';
import { SYSTEM } from '../../setup.js';
import { missingCategory, topicFields as liveTopic } from '../topics/presenter.js';

/** What the posts' live events use. */
export type PostsLiveDeps = Pick<AppContext, 'categories' | 'hooks' | 'live' | 'posts' | 'topics' | 'users'>;

// Live events are presented once for every recipient, as nobody in particular (uid 0) who may
// see everything; each recipient is checked before the push, and their client adds what is theirs.
const NOBODY = SYSTEM;

/** A post as live events carry it, with its topic and category. */
export async function livePost(ctx: Pick<PostsLiveDeps, 'categories' | 'posts'>, post: PostRow, topic: TopicRow): Promise<LivePost> {
  const [view, refs] = await Promise.all([ctx.posts.view(NOBODY, post.pid), ctx.categories.refs([topic.cid])]);
  // The viewer's own flags are not the payload's: each client sets them from the topic's privileges (defect 13).
  const viewerFree = { selfPost: false, display_edit_tools: false, display_delete_tools: false, display_moderator_tools: false };
  return { ...view, ...viewerFree, isMainPost: topic.main_pid === post.pid, topic: liveTopic(topic), category: refs.get(topic.cid) ?? missingCategory(topic.cid) };
}

/** NodeBB's vote event: the post's counts, its author's reputation, and who voted. */
async function votePayload(ctx: Pick<PostsLiveDeps, 'users'>, post: PostRow, fromuid: number): Promise<VotePayload> {
  const author = await ctx.users.get(post.uid);
  return {
    post: { pid: post.pid, uid: post.uid, tid: post.tid, votes: post.upvotes - post.downvotes, upvotes: post.upvotes, downvotes: post.downvotes },
    user: { reputation: author?.reputation ?? 0 },
    fromuid,
  };
}

/**
 * Posts' live events: each change reaches the rooms that show it, published once with its
 * audience (realtime/live-bus.ts), so only readers of the post get it, in every process.
 */
export function registerPostsLive(ctx: PostsLiveDeps): void {
  const { hooks, live } = ctx;
  const on = hooks.action.bind(hooks);
  const readersOf = (topic: TopicRow, post: PostRow) => ({ kind: 'post' as const, topic, post });

  on('action:post.save', 'posts-live', async ({ post, topic }) => {
    live.publish({ rooms: [topicRoom(topic.tid), categoryRoom(topic.cid), RECENT_TOPICS], audience: readersOf(topic, post), event: 'event:new_post', args: [{ posts: [await livePost(ctx, post, topic)] }] });
  });
  on('action:post.edit', 'posts-live', async ({ post, topic }) => {
    live.publish({ rooms: [topicRoom(topic.tid)], audience: readersOf(topic, post), event: 'event:post_edited', args: [{ post: await livePost(ctx, post, topic), topic: liveTopic(topic) }] });
  });
  // Every reader learns the post is gone; its content is not sent again.
  on('action:post.delete', 'posts-live', async ({ post, topic }) => {
    live.publish({ rooms: [topicRoom(topic.tid)], audience: { kind: 'topic', topic }, event: 'event:post_deleted', args: [{ ...(await livePost(ctx, post, topic)), content: '' }] });
  });
  on('action:post.restore', 'posts-live', async ({ post, topic }) => {
    live.publish({ rooms: [topicRoom(topic.tid)], audience: readersOf(topic, post), event: 'event:post_restored', args: [await livePost(ctx, post, topic)] });
  });
  on('action:post.purge', 'posts-live', async ({ post, topic }) => {
    live.publish({ rooms: [topicRoom(topic.tid)], audience: { kind: 'topic', topic }, event: 'event:post_purged', args: [{ pid: post.pid, tid: post.tid, uid: post.uid }] });
  });
  // The voter's own sockets hear NodeBB's posts.upvote/downvote/unvote; the topic's readers, event:voted.
  on('action:post.vote', 'posts-live', async ({ post, uid, value }) => {
    const payload = await votePayload(ctx, post, uid);
    live.publish({ rooms: [userRoom(uid)], audience: { kind: 'any' }, event: value > 0 ? 'posts.upvote' : value < 0 ? 'posts.downvote' : 'posts.unvote', args: [payload] });
    const topic = await ctx.topics.get(post.tid);
    if (topic) live.publish({ rooms: [topicRoom(topic.tid)], audience: readersOf(topic, post), event: 'event:voted', args: [payload] });
  });
  on('action:post.bookmark', 'posts-live', async ({ post, uid, bookmarked }) => {
    live.publish({ rooms: [userRoom(uid)], audience: { kind: 'any' }, event: bookmarked ? 'posts.bookmark' : 'posts.unbookmark', args: [{ post: { pid: post.pid, bookmarks: post.bookmarks }, isBookmarked: bookmarked }] });
  });
}
