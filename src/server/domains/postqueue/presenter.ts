import type { QueuedPost } from '../../../shared/schemas/post-queue.js';
import type { AppContext } from '../../context.js';
import { translate } from '../../i18n.js';
import { presentCategory } from '../categories/presenter.js';
import { escapeTitle } from '../../http/render.js';
import { presentUser } from '../users/presenter.js';
import { tagsOf } from './service.js';
import type { QueuedRow } from './store.js';

/** Queued posts as the post-queue page shows them: authors, categories and topics loaded once for the page, each preview rendered. */
export async function presentQueued(ctx: Pick<AppContext, 'categories' | 'hooks' | 'topics' | 'users'>, rows: QueuedRow[], moderated: number[] | null): Promise<QueuedPost[]> {
  const [users, topics, categories] = await Promise.all([
    ctx.users.getMany(rows.map((r) => r.uid)),
    Promise.all([...new Set(rows.filter((r) => r.tid > 0).map((r) => r.tid))].map(async (tid) => [tid, await ctx.topics.get(tid)] as const)).then((e) => new Map(e)),
    Promise.all([...new Set(rows.map((r) => r.cid))].map(async (cid) => [cid, await ctx.categories.get(cid)] as const)).then((e) => new Map(e)),
  ]);
  return Promise.all(
    rows.map(async (row): Promise<QueuedPost> => {
      const user = presentUser(users.get(row.uid), row.uid);
      const { html } = await ctx.hooks.runFilter('filter:parse.post', { content: row.content, html: '', kind: 'post', uid: row.uid });
      const category = categories.get(row.cid);
      const title = row.type === 'reply' ? (topics.get(row.tid)?.title ?? row.title) : row.title;
      const created = Number(row.created);
      return {
        ...(category ? presentCategory(category) : {}),
        id: String(row.id),
        uid: row.uid,
        type: row.type,
        canEdit: moderated === null || moderated.includes(row.cid),
        data: {
          title: escapeTitle(row.title),
          content: html,
          rawContent: row.content,
          cid: row.cid,
          tid: row.tid,
          toPid: row.to_pid || null,
          tags: tagsOf(row),
          uid: row.uid,
          timestamp: created,
          timestampISO: new Date(created).toISOString(),
          fromQueue: true,
          thumb: '',
          req: { uid: row.uid, ip: row.ip },
        },
        user: { uid: user.uid, username: user.username, userslug: user.userslug, picture: user.picture, 'icon:text': user['icon:text'], 'icon:bgColor': user['icon:bgColor'] },
        topic: { cid: row.cid, title: escapeTitle(title), titleRaw: title },
      };
    }),
  );
}

/** What POST /api/v3/topics and POST /api/v3/topics/{tid} answer when the post waits in the queue (NodeBB's fields), the message in the writer's language. */
export function queuedAnswer(id: number, type: 'topic' | 'reply', lang: string) {
  return { queued: true, id: String(id), type, message: translate('topic:post-queued', [], lang) };
}
