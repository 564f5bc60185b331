import type { PostView, Teaser, UserSummary } from '../../../shared/types.js';
import type { AppContext } from '../../context.js';
import type { Viewer } from '../privileges/service.js';
import { presentUser } from '../users/presenter.js';
import type { UserRow } from '../users/store.js';
import * as store from './store.js';
import type { PostRow } from './store.js';

const iso = (ms: number) => new Date(ms).toISOString();

export interface PresentOptions {
  /** The 0-based position of each post in its topic. */
  index: (post: PostRow) => number;
  /** Whether the viewer may see a deleted post's content. */
  viewDeleted: (post: PostRow) => boolean;
  /** Whether the viewer gets edit and delete tools on a post. */
  tools?: (post: PostRow) => { edit: boolean; delete: boolean };
}

/** Presents posts for page data and the API, loading authors, votes and bookmarks in batches. */
export async function presentPosts(ctx: AppContext, viewer: Viewer, rows: PostRow[], opts: PresentOptions): Promise<PostView[]> {
  const pids = rows.map((p) => p.pid);
  const [users, votes, bookmarked] = await Promise.all([
    ctx.users.getMany([...rows.map((p) => p.uid), ...rows.map((p) => p.editor_uid)]),
    store.votesOf(ctx.db, viewer.uid, pids),
    store.bookmarkedOf(ctx.db, viewer.uid, pids),
  ]);
  return rows.map((p) => {
    const hidden = p.deleted === 1 && !opts.viewDeleted(p);
    const tools = opts.tools?.(p) ?? { edit: false, delete: false };
    const vote = votes.get(p.pid) ?? 0;
    return {
      pid: p.pid,
      tid: p.tid,
      uid: p.uid,
      toPid: p.to_pid,
      index: opts.index(p),
      content: hidden ? '' : p.content_html,
      timestamp: Number(p.created),
      timestampISO: iso(Number(p.created)),
      edited: Number(p.edited),
      editedISO: p.edited ? iso(Number(p.edited)) : '',
      editor: p.editor_uid ? presentUser(users.get(p.editor_uid), p.editor_uid) : null,
      deleted: p.deleted === 1,
      upvotes: p.upvotes,
      downvotes: p.downvotes,
      votes: p.upvotes - p.downvotes,
      bookmarks: p.bookmarks,
      bookmarked: bookmarked.has(p.pid),
      upvoted: vote > 0,
      downvoted: vote < 0,
      selfPost: viewer.uid > 0 && viewer.uid === p.uid,
      display_edit_tools: tools.edit,
      display_delete_tools: tools.delete,
      user: presentUser(users.get(p.uid), p.uid),
    };
  });
}

/** A topic's latest post as a teaser for lists. */
export function presentTeaser(post: PostRow, index: number, author: UserRow | undefined): Teaser {
  return {
    pid: post.pid,
    tid: post.tid,
    index,
    content: post.content_html,
    timestamp: Number(post.created),
    timestampISO: iso(Number(post.created)),
    user: presentUser(author, post.uid) as UserSummary,
  };
}

/** Plain text of rendered HTML, for meta descriptions. */
export function plainText(html: string, max = 255): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
