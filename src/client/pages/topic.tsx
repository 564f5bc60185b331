import { useCallback, useEffect, useRef, useState } from 'react';
import type { PageBase, PostView, TopicEventView, TopicPage } from '../../shared/types';
import { humanReadableNumber } from '../../shared/numbers';
import { useCurrentPath, useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { CategoryBadge } from '../components/CategoryIcon';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { Pagination } from '../components/Pagination';
import { Post } from '../components/Post';
import { EventRow } from '../components/topic-tools/EventRow';
import { PostSelectionBar } from '../components/topic-tools/PostSelectionBar';
import { TopicTools } from '../components/topic-tools/TopicTools';
import { errorText } from '../i18n';
import { apiUrl } from '../navigation/url';
import { topicTitleText } from '../navigation/title';
import { categoryPath, withQuery } from '../util/urls';
import { TopicReadButton, TopicWatchMenu } from './watch-controls';

/** Infinite scroll: loads the next page of posts when the sentinel comes into view. */
function useMorePosts(topic: TopicPage, enabled: boolean, setPosts: (fn: (p: PostView[]) => PostView[]) => void, setEvents?: (fn: (e: TopicEventView[]) => TopicEventView[]) => void) {
  const rt = useRuntime();
  const path = useCurrentPath();
  const [next, setNext] = useState(topic.pagination?.currentPage ? topic.pagination.currentPage + 1 : 2);
  const [busy, setBusy] = useState(false);
  const pageCount = topic.pagination?.pageCount ?? 1;
  const done = next > pageCount;
  const load = useCallback(async () => {
    if (busy || done) return;
    setBusy(true);
    rt.ui.set((s) => ({ ...s, postsLoading: true }));
    try {
      const base = path.split('?')[0]!.replace(/^(\/topic\/\d+\/[^/]+)\/\d+$/, '$1');
      const res = await fetch(apiUrl(withQuery(base, 'page', next), rt.config.relative_path), { headers: { Accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' });
      if (!res.ok) throw new Error(res.statusText);
      const data = (await res.json()) as TopicPage;
      setPosts((posts) => {
        const seen = new Set(posts.map((p) => p.pid));
        return [...posts, ...(data.posts ?? []).filter((p) => !seen.has(p.pid))];
      });
      // The timeline events of the loaded page join those shown.
      setEvents?.((events) => {
        const seen = new Set(events.map((e) => e.id));
        return [...events, ...(data.events ?? []).filter((e) => !seen.has(e.id))];
      });
      setNext((n) => n + 1);
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
      rt.ui.set((s) => ({ ...s, postsLoading: false }));
    }
  }, [busy, done, next, path, rt, setPosts, setEvents]);
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!enabled || done || !sentinel.current || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void load(), { rootMargin: '600px' });
    io.observe(sentinel.current);
    return () => io.disconnect();
  }, [enabled, done, load]);
  return { sentinel, busy, done, load };
}

/** A post as live events carry it (presented for nobody in particular). */
type LivePost = PostView & { tid: number };

/** A vote event (NodeBB's posts.upvote/downvote/unvote, and event:voted for other readers). */
interface LiveVote {
  post?: { pid: number; tid?: number; votes: number; upvotes: number; downvotes: number };
  fromuid?: number;
}

/** Applies live post events to the posts shown (spec §4: the topic room's events). */
function useLivePosts(topic: TopicPage, appendNew: boolean, newestFirst: boolean, setPosts: (fn: (p: PostView[]) => PostView[]) => void) {
  const rt = useRuntime();
  const user = useUser();
  const append = useRef(appendNew);
  append.current = appendNew;
  useEffect(() => {
    const mine = (p: { tid?: number } | null | undefined) => !!p && Number(p.tid) === topic.tid;
    // The viewer's own flags, which a live event (the same for every reader) cannot carry: the
    // server's rules from the topic's privileges (a new post is within the edit and delete times).
    const forViewer = (p: LivePost): PostView => {
      const own = !!user && p.uid === user.uid;
      const priv = topic.privileges;
      const mod = !!user && !!priv?.isAdminOrMod;
      return {
        ...p,
        selfPost: own,
        display_edit_tools: mod || (own && !!priv?.['posts:edit'] && !p.deleted && !topic.locked),
        display_delete_tools: p.pid !== topic.mainPid && (mod || (own && !!priv?.['posts:delete'])),
        display_moderator_tools: mod,
        upvoted: false,
        downvoted: false,
        bookmarked: false,
      };
    };
    const offs = [
      rt.live.on('event:new_post', (data) => {
        const incoming = ((data as { posts?: LivePost[] } | null)?.posts ?? []).filter(mine);
        // Only at the end of the topic: an earlier page would put the post out of order.
        if (!incoming.length || !append.current) return;
        setPosts((list) => {
          const seen = new Set(list.map((p) => p.pid));
          const fresh = incoming.filter((p) => !seen.has(p.pid)).map(forViewer);
          if (!fresh.length) return list;
          // Newest first: after the main post, newest on top; else in time order at the end.
          if (newestFirst) return [...list.slice(0, 1), ...fresh.sort((a, b) => b.index - a.index), ...list.slice(1)];
          return [...list, ...fresh].sort((a, b) => a.index - b.index);
        });
      }),
      rt.live.on('event:post_edited', (data) => {
        const post = (data as { post?: LivePost } | null)?.post;
        if (!mine(post)) return;
        setPosts((list) => list.map((p) => (p.pid === post!.pid ? { ...p, content: post!.content, edited: post!.edited, editedISO: post!.editedISO, editor: post!.editor } : p)));
      }),
      ...(['event:post_deleted', 'event:post_restored'] as const).map((event) =>
        rt.live.on(event, (data) => {
          const post = data as LivePost | null;
          if (!mine(post)) return;
          const deleted = event === 'event:post_deleted';
          // A deleted post's event carries no content: the text shown stays, marked deleted.
          setPosts((list) => list.map((p) => (p.pid === post!.pid ? { ...p, deleted: deleted ? 1 : 0, content: post!.content || p.content } : p)));
        }),
      ),
      rt.live.on('event:post_purged', (data) => {
        const gone = data as { pid?: number; tid?: number } | null;
        if (!mine(gone)) return;
        setPosts((list) => list.filter((p) => p.pid !== gone!.pid));
      }),
    ];
    // Vote counts change in place; the viewer's own flags only when the vote was theirs.
    const VOTES = { 'posts.upvote': [true, false], 'posts.downvote': [false, true], 'posts.unvote': [false, false], 'event:voted': null } as const;
    for (const [event, flags] of Object.entries(VOTES)) {
      offs.push(
        rt.live.on(event, (data) => {
          const vote = data as LiveVote | null;
          const post = vote?.post;
          if (!post || (post.tid !== undefined && Number(post.tid) !== topic.tid)) return;
          const own = !!flags && !!user && Number(vote.fromuid) === user.uid;
          setPosts((list) =>
            list.map((p) =>
              p.pid === post.pid
                ? { ...p, votes: post.votes, upvotes: post.upvotes, downvotes: post.downvotes, ...(own ? { upvoted: flags[0], downvoted: flags[1] } : {}) }
                : p,
            ),
          );
        }),
      );
    }
    return () => offs.forEach((off) => off());
  }, [rt, topic.tid, user?.uid, newestFirst]);
}

/** Posts and timeline events in one list by time (an event shows before the first post written after it). */
function timeline(posts: PostView[], events: TopicEventView[]): (PostView | TopicEventView)[] {
  const sorted = [...events].sort((a, b) => a.timestamp - b.timestamp || a.id - b.id);
  const out: (PostView | TopicEventView)[] = [];
  let i = 0;
  for (const post of posts) {
    while (i < sorted.length && sorted[i]!.timestamp < post.timestamp) out.push(sorted[i++]!);
    out.push(post);
  }
  return [...out, ...sorted.slice(i)];
}

/** A moderator changed the topic (a tool, a lock, a pin…): the page reloads its data so the timeline shows it. */
function useTopicToolEvents(tid: number) {
  const rt = useRuntime();
  useEffect(() => {
    const names = ['event:topic_tools', 'event:topic_locked', 'event:topic_unlocked', 'event:topic_pinned', 'event:topic_unpinned', 'event:topic_moved', 'event:topic_tags'];
    const offs = names.map((name) =>
      rt.live.on(name, (data) => {
        if (Number((data as { tid?: number } | null)?.tid) !== tid) return;
        rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });
      }),
    );
    return () => offs.forEach((off) => off());
  }, [rt, tid]);
}

/** A topic: its posts, with reply and moderation tools per privileges. */
export default function Topic({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const user = useUser();
  const topic = page as TopicPage;
  const [posts, setPosts] = useState<PostView[]>(topic.posts ?? []);
  const [events, setEvents] = useState<TopicEventView[]>(topic.events ?? []);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const usePagination = user?.settings?.usePagination ?? rt.config.usePagination ?? false;
  const more = useMorePosts(topic, !usePagination, setPosts, setEvents);
  useTopicToolEvents(topic.tid);
  // The member's order of replies (the server sorts the pages): a new reply goes where that order puts it.
  const sort = user?.settings?.topicPostSort ?? 'oldest_to_newest';
  const onFirstPage = (topic.pagination?.currentPage ?? 1) === 1;
  const atEnd = usePagination ? (topic.pagination?.currentPage ?? 1) >= (topic.pagination?.pageCount ?? 1) : more.done;
  useLivePosts(topic, sort === 'newest_to_oldest' ? onFirstPage : atEnd, sort === 'newest_to_oldest', setPosts);
  const priv = topic.privileges;
  const canReply = !!priv?.['topics:reply'] && (!topic.locked || priv.isAdminOrMod);
  const rp = rt.config.relative_path;
  const update = (p: PostView) => setPosts((list) => list.map((x) => (x.pid === p.pid ? p : x)));
  const reply = () => rt.openComposer({ action: 'posts.reply', tid: topic.tid, title: topic.titleRaw });

  return (
    <>
      <PageHeader
        title={topicTitleText(topic)}
        subtitle={
          <span className="d-flex flex-wrap gap-2 align-items-center small">
            {topic.category && (
              <a href={`${rp}${categoryPath(topic.cid, topic.category.slug)}`} className="text-decoration-none">
                <CategoryBadge category={topic.category} />
              </a>
            )}
            {!!topic.pinned && <span className="badge text-bg-warning"><Icon name="pin" size={12} /> {t('topic:pinned')}</span>}
            {!!topic.locked && <span className="badge text-bg-secondary"><Icon name="lock" size={12} /> {t('topic:locked')}</span>}
            {topic.tags?.map((tag) => (
              <a key={tag.value} href={`${rp}/tags/${encodeURIComponent(tag.value)}`} className="badge text-bg-light border text-decoration-none">
                <Icon name="tag" size={12} /> {tag.value}
              </a>
            ))}
            <span>{t('topic:post-count', humanReadableNumber(topic.postcount))}</span>
            <span>{t('topic:view-count', humanReadableNumber(topic.viewcount))}</span>
          </span>
        }
      >
        {canReply && (
          <button type="button" className="btn btn-primary d-inline-flex align-items-center gap-1" onClick={reply}>
            <Icon name="reply" size={16} />
            {t('topic:reply')}
          </button>
        )}
        {!!topic.locked && !canReply && <span className="btn btn-outline-secondary disabled">{t('topic:locked')}</span>}
        {!user && <a className="btn btn-outline-primary" href={`${rp}/login`}>{t('topic:login-to-reply')}</a>}
        <TopicWatchMenu tid={topic.tid} following={topic.isFollowing} ignoring={topic.isIgnoring} />
        <TopicReadButton tid={topic.tid} />
        {priv?.isAdminOrMod && (
          <TopicTools
            topic={topic}
            selecting={selecting}
            onSelecting={(on) => {
              setSelecting(on);
              setSelected([]);
            }}
          />
        )}
      </PageHeader>
      {!!topic.deleted && <div className="alert alert-warning">{t('topic:topic-is-deleted')}</div>}
      <div className="posts" data-tid={topic.tid}>
        {timeline(posts, events).map((item) =>
          'pid' in item ? (
            <div key={`p${item.pid}`} className={selecting ? 'post-select-wrap d-flex gap-2 align-items-start' : undefined}>
              {selecting && (
                <input
                  type="checkbox"
                  className="form-check-input mt-3 flex-shrink-0 post-select"
                  disabled={item.pid === topic.mainPid}
                  checked={selected.includes(item.pid)}
                  onChange={(e) => setSelected((list) => (e.target.checked ? [...list, item.pid] : list.filter((p) => p !== item.pid)))}
                  aria-label={t('topic:tools.select-post', item.index + 1)}
                />
              )}
              <div className="flex-grow-1 min-w-0">
                <Post post={item} topic={topic} onChange={update} />
              </div>
            </div>
          ) : (
            <EventRow key={`e${item.id}`} event={item} tid={topic.tid} onDeleted={(id) => setEvents((list) => list.filter((e) => e.id !== id))} />
          ),
        )}
      </div>
      {selecting && (
        <PostSelectionBar
          topic={topic}
          pids={selected}
          onDone={() => {
            setSelecting(false);
            setSelected([]);
          }}
        />
      )}
      {usePagination ? (
        <Pagination pagination={topic.pagination} />
      ) : (
        <div ref={more.sentinel} className="text-center py-3">
          {more.busy && <div className="spinner-border spinner-border-sm" role="status"><span className="visually-hidden">{t('global:loading')}</span></div>}
          {!more.done && !more.busy && (
            <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => void more.load()}>
              {t('topic:load-more')}
            </button>
          )}
        </div>
      )}
      {canReply && posts.length > 3 && (
        <div className="text-end">
          <button type="button" className="btn btn-primary d-inline-flex align-items-center gap-1" onClick={reply}>
            <Icon name="reply" size={16} />
            {t('topic:reply')}
          </button>
        </div>
      )}
    </>
  );
}
