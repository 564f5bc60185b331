import { useEffect, useId, useState, type FormEvent } from 'react';
import type { PageBase, TagsPage } from '../../shared/types';
import { humanReadableNumber } from '../../shared/numbers';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';

/** The tags page: the most used tags with their topic counts. */
export default function Tags({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const id = useId();
  const data = page as TagsPage;
  const tags = data.tags ?? [];
  const [query, setQuery] = useState(data.query ?? '');
  useEffect(() => setQuery(data.query ?? ''), [data.query]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    rt.navigate(`${page.relative_path}/tags${q ? `?query=${encodeURIComponent(q)}` : ''}`);
  };
  return (
    <>
      <PageHeader title={t('pages:tags')} />
      <form role="search" className="mb-3" onSubmit={submit} style={{ maxWidth: '24rem' }}>
        <label htmlFor={id} className="visually-hidden">{t('tags:search-tags')}</label>
        <input id={id} type="search" name="query" className="form-control" placeholder={t('tags:search-tags')} value={query} onChange={(e) => setQuery(e.target.value)} />
      </form>
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
