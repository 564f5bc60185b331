import type { DashboardPage } from '../../../shared/schemas/dashboard';
import type { PageBase } from '../../../shared/types';
import { useT } from '../../app/hooks';
import { PageHeader } from '../../components/PageHeader';
import { PeriodPicker } from './dashboard/PeriodPicker';
import { StatsTable } from './dashboard/StatsTable';
import { TrafficChart } from './dashboard/TrafficChart';

function bytes(n: number): string {
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

function duration(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return d ? `${d}d ${h}h ${m}m` : h ? `${h}h ${m}m` : `${m}m ${seconds % 60}s`;
}

const TRAFFIC = ['pageviews', 'pageviews:registered', 'pageviews:guest'] as const;
const ACTIVITY = ['posts', 'topics', 'registrations', 'logins', 'searches'] as const;

/** The admin dashboard (admin/dashboard): counters, traffic and activity charts, online now, top topics, system. */
export default function AdminDashboard({ page }: { page: PageBase }) {
  const { t } = useT();
  const data = page as DashboardPage;
  const rp = data.relative_path;
  const { system } = data;
  return (
    <>
      <PageHeader title={t('admin-dashboard:title')}>
        <PeriodPicker period={data.graph.period} path={`${rp}/admin`} />
      </PageHeader>
      {!data.mail.configured && (
        <div className="alert alert-warning d-flex flex-wrap gap-2 align-items-center" role="status" data-testid="mail-not-configured">
          <div className="flex-grow-1">
            <p className="mb-1">{t('admin-dashboard:mail-not-configured')}</p>
            <p className="mb-0 small fw-semibold">{t('admin-dashboard:mail-waiting', data.mail.waiting)}</p>
          </div>
          <a className="btn btn-sm btn-warning" href={`${rp}/admin/settings/email`}>{t('admin-dashboard:mail-set-up')}</a>
        </div>
      )}
      <div className="row g-3">
        <div className="col-lg-8">
          <section className="card mb-3" aria-labelledby="dash-traffic">
            <h2 className="card-header h6" id="dash-traffic">{t('admin-dashboard:graph-title')} · {t(`admin-dashboard:period.${data.graph.period}`)}</h2>
            <div className="card-body">
              <TrafficChart graph={data.graph} metrics={[...TRAFFIC]} label={t('admin-dashboard:graph-title')} />
            </div>
          </section>
          <section className="card mb-3" aria-labelledby="dash-activity">
            <h2 className="card-header h6" id="dash-activity">{t('admin-dashboard:posts')}, {t('admin-dashboard:topics')}, {t('admin-dashboard:new-users')}, {t('admin-dashboard:logins')}, {t('admin-dashboard:searches')}</h2>
            <div className="card-body">
              <TrafficChart graph={data.graph} metrics={[...ACTIVITY]} label={t('admin-dashboard:stats')} />
            </div>
          </section>
          <section className="card mb-3" aria-labelledby="dash-stats">
            <h2 className="card-header h6" id="dash-stats">{t('admin-dashboard:stats')}</h2>
            <StatsTable stats={data.stats} relativePath={rp} />
          </section>
        </div>
        <div className="col-lg-4">
          <section className="card mb-3" aria-labelledby="dash-online">
            <h2 className="card-header h6" id="dash-online">{t('admin-dashboard:online')}</h2>
            <div className="card-body d-flex justify-content-around text-center">
              <div>
                <div className="fs-3" data-field="online-members">{data.online.members}</div>
                <div className="small text-body-secondary">{t('admin-dashboard:online.members')}</div>
              </div>
              <div>
                <div className="fs-3" data-field="online-guests">{data.online.guests}</div>
                <div className="small text-body-secondary">{t('admin-dashboard:online.guests')}</div>
              </div>
            </div>
          </section>
          <section className="card mb-3" aria-labelledby="dash-top">
            <h2 className="card-header h6" id="dash-top">{t('admin-dashboard:top-topics')}</h2>
            {data.topTopics.length === 0 ? (
              <div className="card-body text-body-secondary">{t('admin-dashboard:top-topics.none')}</div>
            ) : (
              <ol className="list-group list-group-flush list-group-numbered top-topics">
                {data.topTopics.map((topic) => (
                  <li key={topic.tid} className="list-group-item d-flex gap-2 align-items-start">
                    <a href={`${rp}/topic/${topic.slug}`} className="flex-grow-1 min-w-0 text-break" dir="auto">{topic.title}</a>
                    <span className="badge text-bg-secondary" title={t('admin-dashboard:postcount')}>{topic.postcount}</span>
                    <span className="badge text-bg-light border" title={t('admin-dashboard:viewcount')}>{topic.viewcount}</span>
                  </li>
                ))}
              </ol>
            )}
          </section>
          <section className="card mb-3" aria-labelledby="dash-system">
            <h2 className="card-header h6" id="dash-system">{t('admin-dashboard:system')}</h2>
            {/* Sizes, versions and times are Latin-script values: kept left to right (whole) on an RTL page. */}
            <dl className="card-body row mb-0 small system-panel">
              <dt className="col-6">{t('admin-dashboard:system.version')}</dt>
              <dd className="col-6" data-field="version">{system.version}</dd>
              <dt className="col-6">{t('admin-dashboard:system.node')}</dt>
              <dd className="col-6"><bdi dir="ltr">{system.node}</bdi></dd>
              <dt className="col-6">{t('admin-dashboard:system.database')}</dt>
              <dd className="col-6">{system.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}</dd>
              <dt className="col-6">{t('admin-dashboard:system.database-size')}</dt>
              <dd className="col-6"><bdi dir="ltr">{bytes(system.databaseSize)}</bdi></dd>
              <dt className="col-6">{t('admin-dashboard:system.uptime')}</dt>
              <dd className="col-6"><bdi dir="ltr">{duration(system.uptime)}</bdi></dd>
              <dt className="col-6">{t('admin-dashboard:system.rss')}</dt>
              <dd className="col-6"><bdi dir="ltr">{bytes(system.rss)}</bdi></dd>
              <dt className="col-6">{t('admin-dashboard:system.heap')}</dt>
              <dd className="col-6 mb-0"><bdi dir="ltr">{bytes(system.heapUsed)} / {bytes(system.heapTotal)}</bdi></dd>
            </dl>
          </section>
        </div>
      </div>
    </>
  );
}
