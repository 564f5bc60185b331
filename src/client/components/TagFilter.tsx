import { useT } from '../app/hooks';
import { Icon } from './Icon';

/** The tag a list is filtered by (?tag=), with a link back to the whole list. */
export function TagFilter({ tag, url }: { tag: { label: string; value: string } | null | undefined; url: string }) {
  const { t } = useT();
  if (!tag) return null;
  const u = new URL(url, 'http://x');
  u.searchParams.delete('tag');
  u.searchParams.delete('page');
  const clear = `${u.pathname}${u.search}`;
  return (
    <div className="d-flex align-items-center gap-2 mb-3 small" role="status">
      <span className="text-body-secondary">{t('tags:filtered-by')}</span>
      <span className="badge text-bg-secondary d-inline-flex align-items-center gap-1">
        <Icon name="tag" size={12} /> {tag.label}
      </span>
      <a href={clear} className="d-inline-flex align-items-center" aria-label={t('tags:clear-filter')} title={t('tags:clear-filter')}>
        <Icon name="x" size={14} />
      </a>
    </div>
  );
}
