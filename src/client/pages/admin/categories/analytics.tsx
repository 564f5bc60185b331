import type { AdminCategoryAnalyticsPage } from '../../../../shared/schemas/admin-categories';
import type { PageBase } from '../../../../shared/types';
import { useT } from '../../../app/hooks';
import { PageHeader } from '../../../components/PageHeader';

const DAY = 86_400_000;

/** One series as plain CSS bars (one per day, oldest first), with a table for screen readers. */
function Bars({ id, title, values, since, colour }: { id: string; title: string; values: number[]; since: number; colour: string }) {
  const { t } = useT();
  const max = Math.max(1, ...values);
  const total = values.reduce((a, b) => a + b, 0);
  const day = (i: number) => new Date(since + i * DAY).toISOString().slice(0, 10);
  return (
    <section className="card card-body mb-3" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="h6 d-flex justify-content-between">
        <span>{title}</span>
        <span className="text-body-secondary">{t('admin-manage:analytics.total', total)}</span>
      </h2>
      <div className="d-flex align-items-end gap-1" style={{ height: 140 }} aria-hidden="true" data-series={id}>
        {values.map((v, i) => (
          <div
            key={i}
            className="flex-fill rounded-top"
            title={`${day(i)}: ${v}`}
            data-value={v}
            style={{ height: `${Math.max(v ? 4 : 1, (v / max) * 100)}%`, minWidth: 2, background: v ? colour : 'var(--bs-border-color)' }}
          />
        ))}
      </div>
      <div className="d-flex justify-content-between small text-body-secondary mt-1" aria-hidden="true">
        <span>{day(0)}</span>
        <span>{day(values.length - 1)}</span>
      </div>
      <table className="visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{t('admin-manage:analytics.day')}</th>
            <th scope="col">{t('admin-manage:analytics.count')}</th>
          </tr>
        </thead>
        <tbody>
          {values.map((v, i) => (
            <tr key={i}>
              <td>{day(i)}</td>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** admin/manage/category-analytics: topics and posts per day in a category, the last 30 days. */
export default function AdminCategoryAnalytics({ page }: { page: PageBase }) {
  const { t } = useT();
  const data = page as AdminCategoryAnalyticsPage;
  const { analytics } = data;
  return (
    <>
      <PageHeader title={t('admin-manage:analytics.heading', data.name)} subtitle={t('admin-manage:analytics.subtitle')}>
        <a className="btn btn-outline-dark btn-sm" href={`${page.relative_path}/admin/manage/categories/${data.cid}`}>{t('admin-manage:analytics.back')}</a>
      </PageHeader>
      <Bars id="cat-topics" title={t('admin-manage:analytics.topics')} values={analytics['topics:daily']} since={analytics.since} colour="var(--bs-primary)" />
      <Bars id="cat-posts" title={t('admin-manage:analytics.posts')} values={analytics['posts:daily']} since={analytics.since} colour="var(--bs-success)" />
    </>
  );
}
