import type { CategoriesPage, CategoryView, PageBase } from '../../shared/types';
import { humanReadableNumber } from '../../shared/numbers';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { serverCachedOf } from '../app/fragments';
import { Avatar } from '../components/Avatar';
import { CategoryIcon } from '../components/CategoryIcon';
import { PageHeader } from '../components/PageHeader';
import { Timeago } from '../components/Timeago';
import { categoryPath, topicPath } from '../util/urls';

function rowProps(category: CategoryView) {
  return { className: 'list-group-item category-row d-flex gap-3 align-items-start py-3', 'data-cid': category.cid };
}

/**
 * One category row: icon, name, description, subcategories, counts and latest post. The server
 * render writes it from the fragment cache (app/fragments.ts) when it can.
 */
export function CategoryRow({ category }: { category: CategoryView }) {
  const rt = useRuntime();
  return serverCachedOf(rt, 'li', rowProps(category), 'category-row', category, <CategoryRowView category={category} />);
}

function CategoryRowView({ category }: { category: CategoryView }) {
  const { t, tx } = useT();
  const rp = useRuntime().config.relative_path;
  const href = category.link || `${rp}${categoryPath(category.cid, category.slug)}`;
  const latest = category.posts?.[0];
  return (
    <li {...rowProps(category)}>
      <CategoryIcon category={category} size={44} />
      <div className="flex-grow-1 min-w-0">
        <h2 className="h6 mb-1">
          <a href={href} className="text-reset text-decoration-none" dir="auto">{tx(category.name)}</a>
        </h2>
        {category.descriptionParsed ? (
          <div className="small text-body-secondary category-description" dir="auto" dangerouslySetInnerHTML={{ __html: category.descriptionParsed }} />
        ) : (
          category.description && <div className="small text-body-secondary">{tx(category.description)}</div>
        )}
        {category.children?.length > 0 && (
          <ul className="list-inline small mt-1 mb-0">
            {category.children.map((child) => (
              <li key={child.cid} className="list-inline-item">
                <a href={child.link || `${rp}${categoryPath(child.cid, child.slug)}`} className="d-inline-flex align-items-center gap-1 text-decoration-none">
                  <span className="category-dot" style={{ backgroundColor: child.bgColor || '#6c757d' }} aria-hidden="true" />
                  <span dir="auto">{tx(child.name)}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="d-none d-md-flex gap-3 flex-shrink-0 text-center">
        <div className="topic-stat">
          <div className="fw-semibold">{humanReadableNumber(category.totalTopicCount ?? category.topic_count)}</div>
          <div className="small text-body-secondary">{t('global:topics')}</div>
        </div>
        <div className="topic-stat">
          <div className="fw-semibold">{humanReadableNumber(category.totalPostCount ?? category.post_count)}</div>
          <div className="small text-body-secondary">{t('global:posts')}</div>
        </div>
      </div>
      <div className="d-none d-lg-block flex-shrink-0 topic-teaser small">
        {latest ? (
          <a href={`${rp}${topicPath(latest.tid, String(latest.tid), latest.index + 1)}`} className="d-flex gap-2 align-items-center text-reset text-decoration-none">
            <Avatar user={latest.user} size="xs" />
            <span className="min-w-0">
              <span className="d-block text-truncate">{latest.user.displayname}</span>
              <span className="text-body-secondary"><Timeago iso={latest.timestampISO} ts={latest.timestamp} /></span>
            </span>
          </a>
        ) : (
          <span className="text-body-secondary">{t('category:no-new-posts')}</span>
        )}
      </div>
    </li>
  );
}

/** The home page: every top-level category with its children. */
export default function Categories({ page }: { page: PageBase }) {
  const { t } = useT();
  const data = page as CategoriesPage;
  return (
    <>
      <PageHeader title={t('pages:categories')} />
      {data.categories?.length ? (
        <div className="card">
          <ul className="list-group list-group-flush">
            {data.categories.map((c) => (
              <CategoryRow key={c.cid} category={c} />
            ))}
          </ul>
        </div>
      ) : (
        <div className="card card-body text-center text-body-secondary py-5">{t('category:no-categories')}</div>
      )}
    </>
  );
}
