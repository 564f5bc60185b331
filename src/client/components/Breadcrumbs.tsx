import type { Breadcrumb } from '../../shared/types';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';

/** The trail above a page; the last crumb is the current page. */
export function Breadcrumbs({ items }: { items: Breadcrumb[] | undefined }) {
  const { t, tx } = useT();
  const rp = useRuntime().config.relative_path;
  if (!items?.length) return null;
  return (
    <nav aria-label={t('global:breadcrumbs')}>
      <ol className="breadcrumb mb-2 small">
        {items.map((b, i) => {
          const last = i === items.length - 1;
          const href = b.url ? (b.url.startsWith(rp) ? b.url : `${rp}${b.url}`) : undefined;
          return (
            <li key={`${i}-${b.text}`} className={`breadcrumb-item${last ? ' active' : ''}`} aria-current={last ? 'page' : undefined}>
              {href && !last ? <a href={href} dir="auto">{tx(b.text)}</a> : <span dir="auto">{tx(b.text)}</span>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
