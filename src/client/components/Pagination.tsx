import type { Pagination as PaginationData } from '../../shared/types';
import { useCurrentPath, useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { withQuery } from '../util/urls';

/** Page links for list pages; hidden when there is one page. */
export function Pagination({ pagination }: { pagination: PaginationData | undefined }) {
  const { t } = useT();
  const rt = useRuntime();
  const base = useCurrentPath();
  if (!pagination || pagination.pageCount <= 1) return null;
  const href = (n: number) => `${rt.config.relative_path}${withQuery(base, 'page', n)}`;
  return (
    <nav aria-label={t('global:pagination')} className="mt-3">
      <ul className="pagination justify-content-center flex-wrap">
        <li className={`page-item${pagination.prev.active ? '' : ' disabled'}`}>
          <a className="page-link" href={href(pagination.prev.page)} aria-disabled={!pagination.prev.active} rel="prev">
            {t('global:pagination.previouspage')}
          </a>
        </li>
        {pagination.pages.map((p) => (
          <li key={p.page} className={`page-item${p.active ? ' active' : ''}`}>
            <a className="page-link" href={href(p.page)} aria-current={p.active ? 'page' : undefined}>
              {p.page}
            </a>
          </li>
        ))}
        <li className={`page-item${pagination.next.active ? '' : ' disabled'}`}>
          <a className="page-link" href={href(pagination.next.page)} aria-disabled={!pagination.next.active} rel="next">
            {t('global:pagination.nextpage')}
          </a>
        </li>
      </ul>
    </nav>
  );
}
