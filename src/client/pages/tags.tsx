import type { PageBase, TagsPage } from '../../shared/types';
import { humanReadableNumber } from '../../shared/numbers';
import { useT } from '../app/hooks';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';

/** The tags page: the most used tags with their topic counts. */
export default function Tags({ page }: { page: PageBase }) {
  const { t } = useT();
  const tags = (page as TagsPage).tags ?? [];
  return (
    <>
      <PageHeader title={t('pages:tags')} />
      {tags.length ? (
        <ul className="row row-cols-2 row-cols-sm-3 row-cols-lg-4 row-cols-xl-6 g-2 list-unstyled">
          {tags.map((tag) => (
            <li className="col" key={tag.value}>
              <a href={`${page.relative_path}/tags/${encodeURIComponent(tag.value)}`} className="card card-body py-2 px-3 d-flex flex-row align-items-center gap-2 text-decoration-none tag-card">
                <Icon name="tag" size={16} />
                <span className="flex-grow-1 text-truncate text-body fw-semibold">{tag.value}</span>
                <span className="badge text-bg-secondary" title={t('tags:topic-count', tag.score)}>{humanReadableNumber(tag.score)}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <div className="card card-body text-center text-body-secondary py-5">{t('tags:no-tags')}</div>
      )}
    </>
  );
}
