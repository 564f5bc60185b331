import type { CategoryObject, PageBase, Pagination, UserSummary } from '../types.js';

/** One queued post as the post-queue page shows it (NodeBB's read/post-queue.yaml `posts` item, its category's fields merged in). */
export interface QueuedPost extends Partial<CategoryObject> {
  /** The queue id, as text (NodeBB's ids are strings). */
  id: string;
  uid: number;
  /** 'topic' or 'reply'. */
  type: string;
  /** The viewer may edit, accept and reject it (they moderate its category). */
  canEdit: boolean;
  data: {
    title: string;
    /** The content rendered for the preview (sanitised HTML). */
    content: string;
    rawContent: string;
    cid: number;
    tid: number;
    toPid: number | null;
    tags: string[];
    uid: number;
    timestamp: number;
    timestampISO: string;
    fromQueue: boolean;
    thumb: string;
    /** Who sent it from where (NodeBB's request summary: member and address). */
    req: { uid: number; ip: string };
  };
  user: Pick<UserSummary, 'uid' | 'username' | 'userslug' | 'picture' | 'icon:text' | 'icon:bgColor'>;
  topic: { cid: number; title: string; titleRaw: string };
}

/** Page data of /post-queue (NodeBB's read/post-queue.yaml). */
export interface PostQueuePage extends PageBase {
  posts: QueuedPost[];
  isAdmin: boolean;
  /** The viewer moderates at least one category with queued posts (or all). */
  canAccept: boolean;
  /** 1 when the forum's post queue is on. */
  enabled: number;
  singlePost: boolean;
  allCategoriesUrl: string;
  selectedCategory: null;
  selectedCids: number[];
  privileges: Record<string, boolean>;
  pagination: Pagination;
}
