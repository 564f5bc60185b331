import { vi } from 'vitest';
import type { Teaser, TopicSummary } from '../../shared/types.js';
import type { TestForum } from './harness.js';
import type { TopicListOptions } from '../domains/topics/service.js';

/**
 * Stands in for the topics domain in category tests, so they test categories alone: topic
 * lists of a set length per category, chosen teasers, and a recorded purge.
 */
export function fakeTopics(forum: TestForum) {
  const counts = new Map<number, number>();
  const teasers = new Map<number, Teaser>();
  const listCalls: TopicListOptions[] = [];
  const teaserCalls: number[][] = [];
  const purged: number[] = [];
  vi.spyOn(forum.ctx.topics, 'list').mockImplementation(async (_viewer, opts) => {
    listCalls.push(opts);
    const count = opts.cids.reduce((n, cid) => n + (counts.get(cid) ?? 0), 0);
    const from = (opts.page - 1) * opts.perPage;
    const n = Math.max(0, Math.min(opts.perPage, count - from));
    const topics = Array.from({ length: n }, (_, i) => ({ tid: from + i + 1, cid: opts.cids[0]!, title: `Topic ${from + i + 1}`, slug: `${from + i + 1}/topic` }));
    return { topics: topics as unknown as TopicSummary[], count };
  });
  vi.spyOn(forum.ctx.topics, 'teasers').mockImplementation(async (_viewer, cids) => {
    teaserCalls.push(cids);
    return new Map([...teasers].filter(([cid]) => cids.includes(cid)));
  });
  vi.spyOn(forum.ctx.topics, 'purgeCategoryContent').mockImplementation(async (cid) => {
    purged.push(cid);
  });
  return { counts, teasers, listCalls, teaserCalls, purged };
}

/** A teaser as the topics domain would give it. */
export function teaser(pid: number, timestamp: number): Teaser {
  return {
    pid,
    url: `/post/${pid}`,
    uid: 1,
    tid: pid,
    index: 1,
    content: `post ${pid}`,
    sourceContent: null,
    timestamp,
    timestampISO: new Date(timestamp).toISOString(),
    user: { uid: 1, username: 'someone', userslug: 'someone', displayname: 'someone', isLocal: true, picture: '', 'icon:text': 'S', 'icon:bgColor': '#000000' },
  };
}
