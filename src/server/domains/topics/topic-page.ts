import type { Attributes, CategoryRef, PostView, TopicPage, TopicPostSort } from '../../../shared/types.js';
import type { TagRef } from '../../../shared/schemas/tag.js';
import type { TopicThumb } from '../../hooks/types.js';
import type { PostRow } from '../posts/store.js';
import type { TopicRow } from './store.js';
import { notFound } from '../../http/errors.js';
import { pathId } from '../../http/input.js';
import { definePage } from '../../http/pages.js';
import { pageNumber, pageSizes, pagination } from '../../http/pagination.js';
import { withFields } from '../../http/objects.js';
import { deepFreeze, SharedValues } from '../../cache/page-cache.js';
import { beginsWith } from '../../http/page-json.js';
import { overlayPosts, plainText, presentSharedPosts, viewerMarks } from '../posts/presenter.js';
import { runBatch } from '../../db/prepared.js';
import { categoryTag, topicTag } from '../../core/tags.js';
import { loadTopic } from './access.js';
import { attachUndo, presentEvents } from './tools/events.js';
import { eventsBetween, type TopicEventRow } from './tools/events-store.js';
import { editorsOf, readerStatesPart } from './store.js';
import { isAmongEditors } from './tools/editors.js';
import { mergedInto } from './tools/redirects.js';
import { missingCategory, topicFields, topicThumbs } from './presenter.js';
import type { TopicToolsDeps as TopicsDeps } from './service.js';

type SharedFields = Readonly<Omit<ReturnType<typeof topicFields>, 'thumbs' | 'numThumbs'>>;
/**
 * The fields of each shared (frozen) topic row, made once per row rather than per reader (three
 * dates in ISO form, the escaped title); without the thumbnails, which the page's shared part
 * gives, so the page begins with exactly these (page-json.ts beginsWith).
 */
const fieldsOf = new WeakMap<TopicRow, SharedFields>();
function sharedFields(topic: TopicRow): SharedFields {
  let fields = fieldsOf.get(topic);
  if (!fields) {
    const { thumbs: _thumbs, numThumbs: _numThumbs, ...rest } = topicFields(topic);
    fieldsOf.set(topic, (fields = Object.freeze(rest)));
  }
  return fields;
}

/** The topic page: a page of posts with authors, the viewer's votes and bookmarks, privileges and pagination. */
export const topicPage = definePage<TopicPage>({
  path: '/topic/:tid/:slug?/:index?',
  template: 'topic',
  // A guest served from the page cache still counts as a view.
  onCacheHit({ ctx, params, visitor }) {
    const tid = pathId(params.tid);
    if (tid !== null) ctx.views.add(tid, visitor ?? '');
  },
  async load({ ctx, viewer, params, query, api, depends, visitor }) {
    const tid = pathId(params.tid);
    if (tid === null) throw notFound('error:no-topic');
    if (params.index !== undefined && !/^\d+$/.test(params.index)) throw notFound();
    const index = params.index !== undefined ? Number(params.index) : undefined;
    // A topic merged into another: its address leads to the topic it went into.
    // (Only a topic that is gone is looked up among the merged ones: no second read of the row.)
    // The row as every reader sees it, shared for a few seconds like the page's parts.
    const topic = await ctx.topics.topicRows.get(String(tid), async () => Object.freeze(await loadTopic(ctx, tid))).catch(async (err: unknown) => {
      const merged = await mergedInto(ctx, tid);
      if (merged) return merged;
      throw err;
    });
    if (typeof topic === 'number') return { redirect: `/topic/${topic}` };
    // The viewer's privileges in the category (shared, frozen): whether they may read it, see
    // deleted posts and use the post tools all come from this one look at the grant table.
    const guardian = await ctx.privileges.guardian(viewer);
    guardian.assertReadTopic(topic);
    // A guest's copy drops with the topic (its posts, votes, tags) and its category (its name).
    depends?.(topicTag(topic.tid), categoryTag(topic.cid));
    const shared = guardian.categoryPrivileges(topic.cid);
    // Page data answers at any slug, as NodeBB's API does; the HTML goes to the canonical URL.
    if (!api && params.slug !== topic.slug) {
      const qs = new URLSearchParams(query).toString();
      return { redirect: `/topic/${topic.tid}/${topic.slug}${index !== undefined ? `/${index}` : ''}${qs ? `?${qs}` : ''}` };
    }

    const { postsPerPage: perPage, topicPostSort: sort } = await pageSizes(ctx, viewer);
    const total = await ctx.topics.topicCounts.get(String(topic.tid), () => ctx.posts.countInTopic(topic.tid));
    const pageCount = Math.max(1, Math.ceil(total / perPage));
    // The URL's index counts from 1 (the main post) in time order; the page is where that post
    // stands in the member's order; past the end it lands on the last page.
    const position = index ? await ctx.posts.sortedPositionOf(topic.tid, topic.main_pid, sort, Math.min(index, total) - 1, total) : 0;
    const page = query.page !== undefined ? pageNumber(query.page) : index ? Math.min(pageCount, Math.floor(position / perPage) + 1) : 1;
    if (page > pageCount) throw notFound();
    const offset = (page - 1) * perPage;

    const viewDeleted = shared.view_deleted;
    const part = await ctx.topics.topicParts.get(`${topic.tid}|${offset}|${perPage}|${page < pageCount}|${sort}`, () => topicPart(ctx, topic, offset, perPage, page < pageCount, sort));
    const tools = guardian.postTools(topic);
    const { rows } = part;
    // What the member lays over the shared part, in one round trip: the topic's read and follow
    // state, and their votes and bookmarks among the page's posts.
    const [states, marks] = await runBatch(ctx.db, [readerStatesPart(viewer.uid, [topic.tid]), viewerMarks(viewer, rows)]);
    const reader = { follow: states.follows.get(topic.tid) ?? null, readAt: states.reads.get(topic.tid) };
    const events = await presentEvents(ctx, viewer, part.events, true);
    if (shared.isAdminOrMod) await attachUndo(ctx.db, topic, events);
    // Shared between readers who see a post alike (frozen): changed only by replacing.
    const posts = await overlayPosts(ctx, viewer, rows, part.posts, { viewDeleted: () => viewDeleted, tools, reuse: true, marks });
    // A topic's editors get the Edit tool on its first post, as the edit service lets them.
    const mainAt = posts.findIndex((p) => p.pid === topic.main_pid);
    const main = posts[mainAt];
    if (main && !main.display_edit_tools && main.deleted !== 1 && topic.locked !== 1 && shared['posts:edit'] && isAmongEditors(part.editors, viewer.uid)) {
      posts[mainAt] = withFields(main, { display_edit_tools: true });
    }
    // A locked topic takes no replies except from moderators.
    // (The viewer's privileges are shared by every viewer alike: changed on a copy.)
    const privileges = topic.locked === 1 && !shared.isAdminOrMod ? withFields(shared, { 'topics:reply': false }) : shared;

    ctx.views.add(topic.tid, visitor ?? `u:${viewer.uid}`);
    await ctx.topics.markRead(viewer, topic.tid, Number(topic.last_post_time), reader);

    const fields = sharedFields(topic);
    // One copy of the topic's fields with the reader's (see http/objects.ts: a spread of them and
    // then of the result cost more than the rest of the loader).
    // (The page's JSON takes the topic's fields' text as made once for every reader.)
    return beginsWith(withFields(fields, {
      thumbs: part.thumbs,
      numThumbs: part.thumbs.length,
      title: fields.title,
      isFollowing: reader.follow === 'follow',
      isIgnoring: reader.follow === 'ignore',
      tags: part.tags,
      category: part.category,
      posts,
      events,
      privileges,
      pagination: pagination(page, pageCount, query),
      ...(index !== undefined ? { postIndex: index } : {}),
      ...pageExtras.of([topic, part], String(page), () => extrasOf(ctx, topic, fields, part, page)),
    }), fields);
  },
});

/** What a page of a topic gives every reader alike beyond its part, by topic row, part and page number (see SharedValues). */
const pageExtras = new SharedValues<ReturnType<typeof extrasOf>>(2);

function extrasOf(ctx: TopicsDeps, topic: TopicRow, fields: SharedFields, part: TopicPart, page: number) {
  const { category } = part;
  const canonical = `${ctx.config.url}/topic/${topic.tid}/${topic.slug}${page > 1 ? `?page=${page}` : ''}`;
  return {
    breadcrumbs: [
      { text: '[[global:home]]', url: '/' },
      { text: category.name, url: `/category/${category.slug}`, cid: category.cid },
      { text: topic.title },
    ],
    meta: [
      { name: 'description', content: part.description },
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
      text: part.summary,
      // (The page's first post's author, as every reader is shown it.)
      author: { '@type': 'Person', name: part.posts[0]?.user.displayname ?? '' },
      articleSection: category.name,
      interactionStatistic: [
        { '@type': 'InteractionCounter', interactionType: 'https://schema.org/CommentAction', userInteractionCount: Math.max(0, topic.post_count - 1) },
        { '@type': 'InteractionCounter', interactionType: 'https://schema.org/ViewAction', userInteractionCount: topic.view_count },
      ],
    },
  };
}

/**
 * What a page of a topic shows every reader alike: its posts (rows and their shared views,
 * see presentSharedPosts), the next page's first post (where this page's timeline ends), the
 * main post's text (the description), the category, tags and thumbnails. Cached by the topics
 * service for a few seconds and dropped on every content change in this process; each
 * reader's votes, bookmarks, tools, blocks and hidden content are laid over it per request.
 */
export interface TopicPart {
  rows: PostRow[];
  posts: PostView[];
  next: PostRow | null;
  category: CategoryRef;
  tags: TagRef[];
  thumbs: TopicThumb[];
  /** The timeline events among this page's posts (each reader is shown those they may see). */
  events: TopicEventRow[];
  /** The members besides its starter who may edit the topic's first post. */
  editors: number[];
  /** The main post's text for the description (all of it) and the structured data (500 characters). */
  description: string;
  summary: string;
}

async function topicPart(ctx: TopicsDeps, topic: TopicRow, offset: number, perPage: number, hasNext: boolean, sort: TopicPostSort): Promise<TopicPart> {
  const inTime = sort === 'oldest_to_newest';
  const [{ rows, index }, next, refs, tags, thumbs, editors] = await Promise.all([
    ctx.posts.sortedPageOfTopic(topic.tid, topic.main_pid, sort, offset, perPage),
    hasNext && inTime ? ctx.posts.pageOfTopic(topic.tid, offset + perPage, 1) : Promise.resolve([]),
    ctx.categories.refs([topic.cid]),
    ctx.tags.forTopics([topic.tid]),
    topicThumbs(ctx, [topic.tid]),
    editorsOf(ctx.db, topic.tid),
  ]);
  // The timeline events among this page's posts: from its first post (the topic's start on
  // page 1) to the next page's first post (for ever on the last page).
  const first = offset > 0 && rows[0] ? Number(rows[0].created) : 0;
  const last = next[0] ? Number(next[0].created) - 1 : Number.MAX_SAFE_INTEGER;
  // The main post (for the description) is on the first page; other pages read it.
  // In another order than time, a page is no stretch of time: the timeline is shown in time order only.
  const [events, mainPost] = await Promise.all([
    inTime ? eventsBetween(ctx.db, topic.tid, first, last) : [],
    rows.find((p) => p.pid === topic.main_pid) ?? ctx.posts.get(topic.main_pid),
  ]);
  const mainText = mainPost && !mainPost.deleted ? mainPost.content_html : '';
  return {
    rows,
    posts: await presentSharedPosts(ctx, rows, (p) => index.get(p.pid)!),
    next: next[0] ?? null,
    // Copies, frozen: every reader's page holds these very objects (see SharedValues).
    category: deepFreeze({ ...(refs.get(topic.cid) ?? missingCategory(topic.cid)) }),
    tags: deepFreeze((tags.get(topic.tid) ?? []).map((t) => ({ ...t }))),
    thumbs: deepFreeze((thumbs.get(topic.tid) ?? []).map((t) => ({ ...t }))),
    events,
    editors,
    description: plainText(mainText),
    summary: plainText(mainText, 500),
  };
}

