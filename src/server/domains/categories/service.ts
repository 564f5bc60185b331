import type { CategoryRef, CategoryView } from '../../../shared/types.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/index.js';
import type { CategoryRow } from '../../hooks/types.js';
import type { Privilege, Viewer } from '../privileges/service.js';

export interface NewCategory {
  name: string;
  description?: string;
  parentCid?: number;
  handle?: string;
  icon?: string;
  bgColor?: string;
  color?: string;
  order?: number;
  link?: string;
  disabled?: boolean;
}

const todo = (): never => {
  throw new Error('not implemented');
};

/**
 * Categories: nested, ordered, with counters. CONTRACT used by other domains (keep these
 * signatures): get, refs, readableCids, bumpCounters, count, create.
 */
export class CategoriesService {
  constructor(private readonly ctx: AppContext) {}

  /** Creates a category (admins only) with the default privileges. */
  async create(actor: Viewer, data: NewCategory): Promise<CategoryRow> {
    void actor, data;
    return todo();
  }

  /** How many categories exist. */
  async count(): Promise<number> {
    return todo();
  }

  /** One category row, or null. */
  async get(cid: number): Promise<CategoryRow | null> {
    void cid;
    return todo();
  }

  /** Short references (name, handle, slug, icon, colours) by cid, for topic lists. */
  async refs(cids: number[]): Promise<Map<number, CategoryRef>> {
    void cids;
    return todo();
  }

  /** The cids (enabled categories) in which the viewer holds the privilege (default topics:read). */
  async readableCids(viewer: Viewer, privilege?: Privilege): Promise<number[]> {
    void viewer, privilege;
    return todo();
  }

  /** Adds to a category's topic and post counters, inside the caller's transaction. */
  async bumpCounters(db: Queryable, cid: number, topics: number, posts: number): Promise<void> {
    void db, cid, topics, posts;
    return todo();
  }

  /** The category tree the viewer may see (for the home page), with teasers. */
  async tree(viewer: Viewer): Promise<CategoryView[]> {
    void viewer;
    return todo();
  }
}
