import type { TopicSummary } from '../../shared/types.js';
import type { AppContext } from '../context.js';
import { missingCategory, presentTopics, topicFields } from '../domains/topics/presenter.js';
import type { PostRow, TopicRow } from '../hooks/types.js';
import { SYSTEM } from '../setup.js';
import type { LivePost, LiveTopic, VotePayload } from './events.js';

// Live events are presented once for every recipient, as nobody in particular (uid 0) who may
// see everything; each recipient is checked before the push, and their client adds what is theirs.
const NOBODY = SYSTEM;

/** The topic fields a live event carries. */
export function liveTopic(topic: TopicRow): LiveTopic {
  return topicFields(topic);
}

/** A post as live events carry it, with its topic and category. */
export async function livePost(ctx: AppContext, post: PostRow, topic: TopicRow): Promise<LivePost> {
  const [view, refs] = await Promise.all([ctx.posts.view(NOBODY, post.pid), ctx.categories.refs([topic.cid])]);
  // The viewer's own flags are not the payload's: each client sets them from the topic's privileges (defect 13).
  const viewerFree = { selfPost: false, display_edit_tools: false, display_delete_tools: false, display_moderator_tools: false };
  return { ...view, ...viewerFree, isMainPost: topic.main_pid === post.pid, topic: liveTopic(topic), category: refs.get(topic.cid) ?? missingCategory(topic.cid) };
}

/** A new topic as the topic lists show it. */
export async function liveTopicSummary(ctx: AppContext, topic: TopicRow): Promise<TopicSummary> {
  const [summary] = await presentTopics(ctx, NOBODY, [topic]);
  return summary!;
}

/** NodeBB's vote event: the post's counts, its author's reputation, and who voted. */
export async function votePayload(ctx: AppContext, post: PostRow, fromuid: number): Promise<VotePayload> {
  const author = await ctx.users.get(post.uid);
  return {
    post: { pid: post.pid, uid: post.uid, tid: post.tid, votes: post.upvotes - post.downvotes, upvotes: post.upvotes, downvotes: post.downvotes },
    user: { reputation: author?.reputation ?? 0 },
    fromuid,
  };
}
