import type { Attributes, TopicPage } from '../../../shared/types.js';
import { notFound } from '../../http/errors.js';
import { pathId } from '../../http/input.js';
import { definePage } from '../../http/pages.js';
import { pageNumber, pageSizes, pagination } from '../../http/pagination.js';
import { plainText, presentPosts } from '../posts/presenter.js';
import { postTools } from '../posts/access.js';
import type { Viewer } from '../privileges/service.js';
import { assertReadable, canViewDeleted, loadTopic } from './access.js';
import { attachUndo, pageEvents } from './tools/events.js';
import { mergedInto } from './tools/redirects.js';
import { missingCategory, topicFields, topicThumbs } from './presenter.js';
import type { TopicToolsDeps as TopicsDeps } from './service.js';

/** Posts per page: the member's own choice, else the forum's setting. */
export async function postsPerPage(ctx: TopicsDeps, viewer: Viewer): Promise<number> {
  return (await pageSizes(ctx, viewer)).postsPerPage;
}

/** The topic page: a page of posts with authors, the viewer's votes and bookmarks, privileges and pagination. */
export const topicPage = definePage<TopicPage>({
  path: '/topic/:tid/:slug?/:index?',
  template: 'topic',
  // A guest served from the page cache still counts as a view.
  onCacheHit({ ctx, params }) {
    const tid = pathId(params.tid);
    if (tid !== null) ctx.views.add(tid);
  },
  async load({ ctx, viewer, params, query, api }) {
    const tid = pathId(params.tid);
    if (tid === null) throw notFound('error:no-topic');
    if (params.index !== undefined && !/^\d+$/.test(params.index)) throw notFound();
    const index = params.index !== undefined ? Number(params.index) : undefined;
    // A topic merged into another: its address leads to the topic it went into.
    const merged = await mergedInto(ctx, tid);
    if (merged) return { redirect: `/topic/${merged}` };
    const topic = await loadTopic(ctx, tid);
    await assertReadable(ctx, viewer, topic);
    // Page data answers at any slug, as NodeBB's API does; the HTML goes to the canonical URL.
    if (!api && params.slug !== topic.slug) {
      const qs = new URLSearchParams(query).toString();
      return { redirect: `/topic/${topic.tid}/${topic.slug}${index !== undefined ? `/${index}` : ''}${qs ? `?${qs}` : ''}` };
    }

    const perPage = await postsPerPage(ctx, viewer);
    const total = await ctx.posts.countInTopic(topic.tid);
    const pageCount = Math.max(1, Math.ceil(total / perPage));
    // The URL's index counts from 1 (the main post); past the end it lands on the last page.
    const page = query.page !== undefined ? pageNumber(query.page) : index ? Math.min(pageCount, Math.max(1, Math.ceil(index / perPage))) : 1;
    if (page > pageCount) throw notFound();
    const offset = (page - 1) * perPage;

    const [rows, privileges, refs, viewDeleted, tools, follow, next] = await Promise.all([
      ctx.posts.pageOfTopic(topic.tid, offset, perPage),
      ctx.privileges.forCategory(viewer, topic.cid),
      ctx.categories.refs([topic.cid]),
      canViewDeleted(ctx, viewer, topic.cid),
      postTools(ctx, viewer, topic),
      ctx.topics.followState(viewer, topic.tid),
      page < pageCount ? ctx.posts.pageOfTopic(topic.tid, offset + perPage, 1) : Promise.resolve([]),
    ]);
    // The timeline events among this page's posts: from its first post (the topic's start on
    // page 1) to the next page's first post (for ever on the last page).
    const events = await pageEvents(ctx, viewer, topic.tid, page > 1 && rows[0] ? Number(rows[0].created) : 0, next[0] ? Number(next[0].created) - 1 : Number.MAX_SAFE_INTEGER);
    if (privileges.isAdminOrMod) await attachUndo(ctx.db, topic, events);
    // The main post (for the description) is on the first page; other pages read it.
    const mainPost = rows.find((p) => p.pid === topic.main_pid) ?? (await ctx.posts.get(topic.main_pid));
    const positions = new Map(rows.map((p, i) => [p.pid, offset + i]));
    const posts = await presentPosts(ctx, viewer, rows, {
      index: (p) => positions.get(p.pid)!,
      viewDeleted: () => viewDeleted,
      tools,
    });
    // A topic's editors get the Edit tool on its first post, as the edit service lets them.
    const main = posts.find((p) => p.pid === topic.main_pid);
    if (main && !main.display_edit_tools && main.deleted !== 1 && topic.locked !== 1 && privileges['posts:edit'] && (await ctx.topics.isEditor(topic.tid, viewer.uid))) {
      main.display_edit_tools = true;
    }
    const tags = (await ctx.tags.forTopics([topic.tid])).get(topic.tid) ?? [];
    const category = refs.get(topic.cid) ?? missingCategory(topic.cid);
    // A locked topic takes no replies except from moderators.
    if (topic.locked === 1 && !privileges.isAdminOrMod) privileges['topics:reply'] = false;

    ctx.views.add(topic.tid);
    await ctx.topics.markRead(viewer, topic.tid, Number(topic.last_post_time));

    const thumbs = (await topicThumbs(ctx, [topic.tid])).get(topic.tid) ?? [];
    const fields = { ...topicFields(topic), thumbs, numThumbs: thumbs.length };
    const canonical = `${ctx.config.url}/topic/${topic.tid}/${topic.slug}${page > 1 ? `?page=${page}` : ''}`;
    return {
      ...fields,
      title: fields.title,
      isFollowing: follow === 'follow',
      isIgnoring: follow === 'ignore',
      tags,
      category,
      posts,
      events,
      privileges,
      pagination: pagination(page, pageCount, query),
      breadcrumbs: [
        { text: '[[global:home]]', url: '/' },
        { text: category.name, url: `/category/${category.slug}`, cid: category.cid },
        { text: topic.title },
      ],
      ...(index !== undefined ? { postIndex: index } : {}),
      meta: [
        { name: 'description', content: plainText(mainPost?.deleted ? '' : (mainPost?.content_html ?? '')) },
        { property: 'og:title', content: topic.title },
        { property: 'og:type', content: 'article' },
        { property: 'article:published_time', content: fields.timestampISO },
        { property: 'article:modified_time', content: fields.lastposttimeISO },
        { property: 'article:section', content: category.name },
      ] as Attributes[],
      link: [{ rel: 'canonical', href: canonical }, { rel: 'alternate', type: 'application/rss+xml', href: `${ctx.config.url}/topic/${topic.tid}.rss` }] as Attributes[],
      // schema.org's DiscussionForumPosting: search engines show the thread as a discussion.
      jsonLd: {
        '@context': 'https://schema.org',
        '@type': 'DiscussionForumPosting',
        headline: topic.title,
        url: canonical,
        datePublished: fields.timestampISO,
        dateModified: fields.lastposttimeISO,
        text: plainText(mainPost?.deleted ? '' : (mainPost?.content_html ?? ''), 500),
        author: { '@type': 'Person', name: posts[0]?.user.displayname ?? '' },
        articleSection: category.name,
        interactionStatistic: [
          { '@type': 'InteractionCounter', interactionType: 'https://schema.org/CommentAction', userInteractionCount: Math.max(0, topic.post_count - 1) },
          { '@type': 'InteractionCounter', interactionType: 'https://schema.org/ViewAction', userInteractionCount: topic.view_count },
        ],
      },
    };
  },
});
