import { useState } from 'react';
import type { DbSearchPage, PageBase } from '../../shared/types';
import { humanReadableNumber } from '../../shared/numbers';
import { api } from '../app/api';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { PageHeader } from '../components/PageHeader';

const IN = ['titles', 'posts', 'titlesposts'] as const;
const SORTS = ['relevance', 'timestamp', 'votes', 'topic.lastposttime', 'topic.title', 'topic.postcount', 'topic.viewcount', 'topic.timestamp'] as const;
const SORT_LABEL: Record<string, string> = {
  relevance: 'search:relevance', timestamp: 'search:post-time-sort', votes: 'search:votes', 'topic.lastposttime': 'search:last-reply-time',
  'topic.title': 'search:topic-title', 'topic.postcount': 'search:topic-reply-count', 'topic.viewcount': 'search:topic-views', 'topic.timestamp': 'search:topic-start-date',
};
const IN_LABEL: Record<string, string> = { titles: 'search:in-titles', posts: 'search:in-posts', titlesposts: 'search:in-titles-posts' };

/** The admin's search page: the index, searches per day, the search settings, a rebuild. */
export default function AdminDbSearch({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as DbSearchPage;
  const [queued, setQueued] = useState(false);
  const complete = data.documents === data.posts;
  const fail = (err: unknown) => rt.alert({ type: 'danger', title: t('global:alert.error'), message: err instanceof Error ? err.message : String(err) });
  const save = (key: string, value: string) =>
    api(rt.config, 'PUT', `/admin/settings/${encodeURIComponent(key)}`, { value })
      .then(() => rt.alert({ type: 'success', title: t('search:dbsearch.saved'), message: '', timeout: 3000 }))
      .catch(fail);
  const reindex = () =>
    api(rt.config, 'POST', '/admin/search/reindex')
      .then(() => setQueued(true))
      .catch(fail);
  const max = Math.max(1, ...data.searchesPerDay.map((d) => d.count));
  return (
    <>
      <PageHeader title={t('search:dbsearch.title')} />
      <div className="row g-3">
        <section className="col-12 col-lg-6" aria-labelledby="dbsearch-index">
          <div className="card h-100">
            <div className="card-body d-flex flex-column gap-2">
              <h2 id="dbsearch-index" className="h6 mb-1">{t('search:dbsearch.index')}</h2>
              <p className="mb-0">{t('search:dbsearch.documents', humanReadableNumber(data.documents), humanReadableNumber(data.posts))}</p>
              <p className="mb-0 small text-body-secondary">{t(data.dialect === 'postgres' ? 'search:dbsearch.how-postgres' : 'search:dbsearch.how-sqlite')}</p>
              {!complete && <p className="mb-0 small text-warning-emphasis">{t('search:dbsearch.incomplete')}</p>}
              <div>
                <button type="button" className="btn btn-outline-primary btn-sm" onClick={reindex} disabled={queued}>
                  {t(queued ? 'search:dbsearch.reindex-queued' : 'search:dbsearch.reindex')}
                </button>
              </div>
            </div>
          </div>
        </section>
        <section className="col-12 col-lg-6" aria-labelledby="dbsearch-settings">
          <div className="card h-100">
            <div className="card-body d-flex flex-column gap-3">
              <h2 id="dbsearch-settings" className="h6 mb-0">{t('search:dbsearch.settings')}</h2>
              <Select label={t('search:dbsearch.default-in')} value={data.searchDefaultIn} options={IN.map((v) => [v, t(IN_LABEL[v]!)])} onChange={(v) => save('searchDefaultIn', v)} />
              <Select label={t('search:dbsearch.default-in-quick')} value={data.searchDefaultInQuick} options={IN.map((v) => [v, t(IN_LABEL[v]!)])} onChange={(v) => save('searchDefaultInQuick', v)} />
              <Select label={t('search:dbsearch.default-sort')} value={data.searchDefaultSortBy} options={SORTS.map((v) => [v, t(SORT_LABEL[v]!)])} onChange={(v) => save('searchDefaultSortBy', v)} />
            </div>
          </div>
        </section>
        <section className="col-12" aria-labelledby="dbsearch-searches">
          <div className="card">
            <div className="card-body">
              <h2 id="dbsearch-searches" className="h6">{t('search:dbsearch.searches')}</h2>
              {data.searchesPerDay.length ? (
                <table className="table table-sm mb-0">
                  <thead>
                    <tr>
                      <th scope="col">{t('search:dbsearch.day')}</th>
                      <th scope="col" className="w-100">{t('search:dbsearch.count')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.searchesPerDay.map((d) => (
                      <tr key={d.day}>
                        <td className="text-nowrap">{new Date(d.day).toISOString().slice(0, 10)}</td>
                        <td>
                          <div className="d-flex align-items-center gap-2">
                            <div className="bg-primary rounded" style={{ height: '0.6rem', width: `${Math.max(2, (d.count / max) * 100)}%` }} aria-hidden="true" />
                            <span>{humanReadableNumber(d.count)}</span>
                          </div>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : (
                <p className="mb-0 text-body-secondary">{t('search:dbsearch.no-searches')}</p>
              )}
            </div>
          </div>
        </section>
      </div>
    </>
  );
}

function Select({ label, value, options, onChange }: { label: string; value: string; options: [string, string][]; onChange: (v: string) => void }) {
  const [current, setCurrent] = useState(value);
  return (
    <label className="d-flex flex-column gap-1 small fw-semibold">
      {label}
      <select
        className="form-select"
        value={current}
        onChange={(e) => {
          setCurrent(e.target.value);
          onChange(e.target.value);
        }}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>{text}</option>
        ))}
      </select>
    </label>
  );
}
