import type { TopicSummary } from '../../../shared/types.js';
import type { AppContext } from '../../context.js';
import type { TopicRow } from '../../hooks/types.js';
import type { LiveTopic, TopicStateEvent, TopicStatePayload } from '../../realtime/events.js';
import { categoryRoom, RECENT_TOPICS, topicRoom, UNREAD_TOPICS } from '../../realtime/rooms.js';
import { SYSTEM } from '../../setup.js';
import { presentTopics, topicFields } from './presenter.js';

/** What the topics' live events use. */
export type TopicsLiveDeps = Pick<AppContext, 'hooks' | 'live' | 'tags'> & Parameters<typeof presentTopics>[0];

/** The topic fields a live event carries. */
export function liveTopic(topic: TopicRow): LiveTopic {
  return topicFields(topic);
}

/** A new topic as the topic lists show it (presented for nobody in particular: each reader's client adds their flags). */
async function liveTopicSummary(ctx: TopicsLiveDeps, topic: TopicRow): Promise<TopicSummary> {
  const [summary] = await presentTopics(ctx, SYSTEM, [topic]);
  return summary!;
}

/**
 * Topics' live events: a new topic reaches the lists that show it, a topic tool the topic and
 * its category's list, as NodeBB's do; each published once with its audience.
 */
export function registerTopicsLive(ctx: TopicsLiveDeps): void {
  const { hooks, live } = ctx;
  const on = hooks.action.bind(hooks);

  on('action:topic.save', 'topics-live', async ({ topic }) => {
    live.publish({ rooms: [categoryRoom(topic.cid), RECENT_TOPICS, UNREAD_TOPICS], audience: { kind: 'topic', topic }, event: 'event:new_topic', args: [await liveTopicSummary(ctx, topic)] });
  });

  const state = (topic: TopicRow, event: TopicStateEvent, data: TopicStatePayload) =>
    live.publish({ rooms: [topicRoom(topic.tid), categoryRoom(topic.cid)], audience: { kind: 'category', cid: topic.cid }, event, args: [data] });
  const base = (topic: TopicRow, uid: number) => ({ tid: topic.tid, cid: topic.cid, uid });
  on('action:topic.delete', 'topics-live', ({ topic, uid }) => state(topic, 'event:topic_deleted', { ...base(topic, uid), isDelete: true }));
  on('action:topic.restore', 'topics-live', ({ topic, uid }) => state(topic, 'event:topic_restored', { ...base(topic, uid), isDelete: false }));
  on('action:topic.purge', 'topics-live', ({ topic, uid }) => state(topic, 'event:topic_purged', base(topic, uid)));
  on('action:topic.lock', 'topics-live', ({ topic, uid, locked }) => state(topic, locked ? 'event:topic_locked' : 'event:topic_unlocked', { ...base(topic, uid), isLocked: locked }));
  on('action:topic.pin', 'topics-live', ({ topic, uid, pinned }) => state(topic, pinned ? 'event:topic_pinned' : 'event:topic_unpinned', { ...base(topic, uid), isPinned: pinned }));
  on('action:topic.tags', 'topics-live', async ({ topic, uid }) => {
    const tags = (await ctx.tags.forTopics([topic.tid])).get(topic.tid) ?? [];
    live.publish({ rooms: [topicRoom(topic.tid), categoryRoom(topic.cid)], audience: { kind: 'topic', topic }, event: 'event:topic_tags', args: [{ tid: topic.tid, cid: topic.cid, uid, tags }] });
  });
  // Merge, fork, move posts, change owner: each topic's readers reload it (a merged topic's readers land on the main one).
  on('action:topic.tools', 'topics-live', ({ tids, uid, tool }) => {
    for (const tid of tids) live.publish({ rooms: [topicRoom(tid)], audience: { kind: 'any' }, event: 'event:topic_tools', args: [{ tid, tool, uid }] });
  });
  // Only readers of the new category follow a moved topic there.
  on('action:topic.move', 'topics-live', ({ topic, fromCid }) => {
    live.publish({ rooms: [topicRoom(topic.tid), categoryRoom(fromCid), categoryRoom(topic.cid)], audience: { kind: 'category', cid: topic.cid }, event: 'event:topic_moved', args: [{ tid: topic.tid, cid: topic.cid, fromCid }] });
  });
}
