import type { Teaser, TopicSummary } from '../../../shared/types.js';
import type { AppContext } from '../../context.js';
import type { Viewer } from '../privileges/service.js';

export interface TopicListOptions {
  /** Only topics in these categories (already filtered to what the viewer may read). */
  cids: number[];
  sort: 'recent' | 'popular' | 'top' | 'category';
  page: number;
  perPage: number;
  /** Only topics with posts the viewer has not read (members). */
  unreadOnly?: boolean;
  /** Only topics newer than this time (popular/top terms: day, week, month). */
  since?: number;
}

const todo = (): never => {
  throw new Error('not implemented');
};

/**
 * Topics. CONTRACT used by other domains (keep these signatures): list, teasers,
 * purgeCategoryContent.
 */
export class TopicsService {
  constructor(private readonly ctx: AppContext) {}

  /** A page of topic summaries, and the total count, for list pages. */
  async list(viewer: Viewer, opts: TopicListOptions): Promise<{ topics: TopicSummary[]; count: number }> {
    void viewer, opts;
    return todo();
  }

  /** The latest post of each category (for the categories page), keyed by cid. */
  async teasers(viewer: Viewer, cids: number[]): Promise<Map<number, Teaser>> {
    void viewer, cids;
    return todo();
  }

  /** Purges every topic of a category (before the category is deleted). */
  async purgeCategoryContent(cid: number): Promise<void> {
    void cid;
    return todo();
  }
}
