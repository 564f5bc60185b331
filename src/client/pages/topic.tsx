import { useCallback, useEffect, useRef, useState } from 'react';
import type { PageBase, PostView, TopicPage } from '../../shared/types';
import { humanReadableNumber } from '../../shared/numbers';
import { useCurrentPath, useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { CategoryBadge } from '../components/CategoryIcon';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { Pagination } from '../components/Pagination';
import { Post } from '../components/Post';
import { apiUrl } from '../navigation/url';
import { topicTitleText } from '../navigation/title';
import { categoryPath, withQuery } from '../util/urls';

/** Infinite scroll: loads the next page of posts when the sentinel comes into view. */
function useMorePosts(topic: TopicPage, enabled: boolean, setPosts: (fn: (p: PostView[]) => PostView[]) => void) {
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
      setNext((n) => n + 1);
    } catch (err) {
      rt.alert({ type: 'danger', message: (err as Error).message });
    } finally {
      setBusy(false);
      rt.ui.set((s) => ({ ...s, postsLoading: false }));
    }
  }, [busy, done, next, path, rt, setPosts]);
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!enabled || done || !sentinel.current || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void load(), { rootMargin: '600px' });
    io.observe(sentinel.current);
    return () => io.disconnect();
  }, [enabled, done, load]);
  return { sentinel, busy, done, load };
}

/** A topic: its posts, with reply and moderation tools per privileges. */
export default function Topic({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const user = useUser();
  const topic = page as TopicPage;
  const [posts, setPosts] = useState<PostView[]>(topic.posts ?? []);
  const usePagination = user?.settings?.usePagination ?? rt.config.usePagination ?? false;
  const more = useMorePosts(topic, !usePagination, setPosts);
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
            {topic.pinned && <span className="badge text-bg-warning"><Icon name="pin" size={12} /> {t('topic:pinned')}</span>}
            {topic.locked && <span className="badge text-bg-secondary"><Icon name="lock" size={12} /> {t('topic:locked')}</span>}
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
        {topic.locked && !canReply && <span className="btn btn-outline-secondary disabled">{t('topic:locked')}</span>}
        {!user && <a className="btn btn-outline-primary" href={`${rp}/login`}>{t('topic:login-to-reply')}</a>}
      </PageHeader>
      {topic.deleted && <div className="alert alert-warning">{t('topic:topic-is-deleted')}</div>}
      <div className="posts" data-tid={topic.tid}>
        {posts.map((post) => (
          <Post key={post.pid} post={post} topic={topic} onChange={update} />
        ))}
      </div>
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
