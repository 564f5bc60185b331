import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { Pagination as PaginationData, TopicSummary } from '../../shared/types';
import { useCurrentPath, useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { errorText } from '../i18n';
import { apiUrl } from '../navigation/url';
import { withQuery } from '../util/urls';
import { Pagination } from './Pagination';

/**
 * A topic list's pages: with the member's `usePagination` on (the default), the page's topics
 * and its pagination links; off, the next pages load as the end of the list comes into view
 * (or with the button), as the topic page does for posts.
 */
export function useTopicPages(first: TopicSummary[], pagination: PaginationData | undefined): { topics: TopicSummary[]; footer: ReactNode } {
  const rt = useRuntime();
  const { t } = useT();
  const user = useUser();
  const path = useCurrentPath();
  const paged = user?.settings?.usePagination ?? rt.config.usePagination ?? true;
  const [more, setMore] = useState<TopicSummary[]>([]);
  const [next, setNext] = useState((pagination?.currentPage ?? 1) + 1);
  const [busy, setBusy] = useState(false);
  const done = next > (pagination?.pageCount ?? 1);
  const load = useCallback(async () => {
    if (busy || done) return;
    setBusy(true);
    try {
      const res = await fetch(apiUrl(withQuery(path, 'page', next), rt.config.relative_path), { headers: { Accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' });
      if (!res.ok) throw new Error(res.statusText);
      const data = (await res.json()) as { topics?: TopicSummary[] };
      setMore((list) => [...list, ...(data.topics ?? [])]);
      setNext((n) => n + 1);
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  }, [busy, done, next, path, rt]);
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (paged || done || !sentinel.current || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void load(), { rootMargin: '600px' });
    io.observe(sentinel.current);
    return () => io.disconnect();
  }, [paged, done, load]);
  if (paged) return { topics: first, footer: <Pagination pagination={pagination} /> };
  // A topic that moved up between two loads shows once, where it was first seen.
  const seen = new Set(first.map((x) => x.tid));
  const topics = [...first, ...more.filter((x) => !seen.has(x.tid) && seen.add(x.tid))];
  return {
    topics,
    footer: (
      <div ref={sentinel} className="text-center py-3" data-testid="more-topics">
        {busy && <div className="spinner-border spinner-border-sm" role="status"><span className="visually-hidden">{t('global:loading')}</span></div>}
        {!done && !busy && (
          <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => void load()}>
            {t('recent:load-more')}
          </button>
        )}
      </div>
    ),
  };
}
