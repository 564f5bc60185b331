import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { cleanUpTag } from '../../../shared/validation.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import { pathId } from '../../http/input.js';

const FeedQuery = Type.Object({ uid: Type.Optional(Type.String({ maxLength: 12 })), token: Type.Optional(Type.String({ maxLength: 64 })) });
const Text = { 200: Type.String() };

function send(reply: FastifyReply, type: string, body: string, viewerUid: number) {
  // Guests' feeds and sitemaps are public and may be cached; a member's private feed may not.
  reply.header('content-type', `${type}; charset=utf-8`).header('cache-control', viewerUid > 0 ? 'private, no-store' : 'public, max-age=300');
  return body;
}

/** RSS feeds at NodeBB's `.rss` paths, the sitemaps and robots.txt. */
export function registerFeedRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const feed = (path: string, params: ReturnType<typeof Type.Object> | undefined, build: (viewer: Awaited<ReturnType<typeof ctx.feeds.viewerOf>>, params: Record<string, string>) => Promise<string>) => {
    r.get(path, {
      schema: { ...(params ? { params } : {}), querystring: FeedQuery, response: Text, tags: ['feeds'], hide: true },
      handler: async (req, reply) => {
        if ((await ctx.settings.get()).disableRSSFeeds) throw notFound();
        const viewer = await ctx.feeds.viewerOf(req.query);
        const key = `${req.url.split('?')[0]}`;
        const body = await ctx.feeds.cached(key, viewer, () => build(viewer, req.params as Record<string, string>));
        return send(reply, 'application/rss+xml', body, viewer.uid);
      },
    });
  };
  const id = (raw: string | undefined, key: string) => {
    const n = pathId(raw);
    if (n === null) throw notFound(key);
    return n;
  };
  feed('/recent.rss', undefined, (v) => ctx.feeds.topicsFeed(v, 'recent'));
  feed('/popular.rss', undefined, (v) => ctx.feeds.topicsFeed(v, 'popular'));
  feed('/top.rss', undefined, (v) => ctx.feeds.topicsFeed(v, 'top'));
  feed('/category/:cid.rss', Type.Object({ cid: Type.String({ maxLength: 20 }) }), (v, p) => ctx.feeds.topicsFeed(v, 'recent', id(p.cid, 'error:no-category')));
  feed('/topic/:tid.rss', Type.Object({ tid: Type.String({ maxLength: 20 }) }), (v, p) => ctx.feeds.topicFeed(v, id(p.tid, 'error:no-topic')));
  feed('/user/:userslug/topics.rss', Type.Object({ userslug: Type.String({ maxLength: 255 }) }), (v, p) => ctx.feeds.userTopicsFeed(v, p.userslug!));
  feed('/tags/:tag.rss', Type.Object({ tag: Type.String({ maxLength: 255 }) }), (v, p) => {
    const tag = cleanUpTag(p.tag, Number.MAX_SAFE_INTEGER);
    if (!tag) throw notFound('error:no-tag');
    return ctx.feeds.tagFeed(v, tag);
  });

  const guest = { uid: 0 } as const;
  const xml = (path: string, build: (params: Record<string, string>) => Promise<string>, params?: ReturnType<typeof Type.Object>) => {
    r.get(path, {
      schema: { ...(params ? { params } : {}), response: Text, tags: ['feeds'], hide: true },
      handler: async (req, reply) => {
        const body = await ctx.feeds.cached(req.url.split('?')[0]!, await ctx.privileges.viewer(0), () => build(req.params as Record<string, string>));
        return send(reply, 'application/xml', body, guest.uid);
      },
    });
  };
  xml('/sitemap.xml', () => ctx.feeds.sitemapIndex());
  xml('/sitemap/pages.xml', () => ctx.feeds.sitemapPages());
  xml('/sitemap/categories.xml', () => ctx.feeds.sitemapCategories());
  xml('/sitemap/topics.:n.xml', (p) => ctx.feeds.sitemapTopics(id(p.n, 'error:no-page')), Type.Object({ n: Type.String({ maxLength: 9 }) }));
  r.get('/robots.txt', {
    schema: { response: Text, tags: ['feeds'], hide: true },
    handler: async (_req, reply) => send(reply, 'text/plain', await ctx.feeds.robots(), 0),
  });
}
