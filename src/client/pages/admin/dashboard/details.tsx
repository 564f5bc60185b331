import type { DashboardDetailBase, DashboardLoginsPage, DashboardSearchesPage, DashboardTopicsPage, DashboardUsersPage } from '../../../../shared/schemas/dashboard';
import type { PageBase } from '../../../../shared/types';
import { useT } from '../../../app/hooks';
import { Avatar } from '../../../components/Avatar';
import { PageHeader } from '../../../components/PageHeader';
import { Timeago } from '../../../components/Timeago';
import { PeriodPicker } from './PeriodPicker';
import { TrafficChart } from './TrafficChart';

function Empty({ text }: { text: string }) {
  return <div className="alert alert-info" role="status">{text}</div>;
}

function Logins({ data }: { data: DashboardLoginsPage }) {
  const { t } = useT();
  if (!data.sessions.length) return <Empty text={t('admin-dashboard:logins.none')} />;
  return (
    <table className="table table-sm align-middle dashboard-list">
      <caption className="caption-top">{t('admin-dashboard:logins.recent')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('admin-dashboard:logins.user')}</th>
          <th scope="col" className="d-none d-md-table-cell">{t('admin-dashboard:logins.ip')}</th>
          <th scope="col" className="d-none d-sm-table-cell">{t('admin-dashboard:logins.device')}</th>
          <th scope="col">{t('admin-dashboard:logins.time')}</th>
          <th scope="col" className="d-none d-md-table-cell">{t('admin-dashboard:logins.last-seen')}</th>
        </tr>
      </thead>
      <tbody>
        {data.sessions.map((s) => (
          <tr key={s.uuid}>
            <td className="text-break">
              <a href={`${data.relative_path}/user/${s.user.userslug}`} className="d-inline-flex gap-2 align-items-center">
                <Avatar user={s.user} size="sm" /> {s.user.displayname || s.user.username}
              </a>
            </td>
            <td className="d-none d-md-table-cell font-monospace small">{s.ip}</td>
            <td className="d-none d-sm-table-cell small">{s.browser} {s.version} · {s.platform}</td>
            <td className="small"><Timeago iso={s.datetimeISO} /></td>
            <td className="d-none d-md-table-cell small"><Timeago iso={s.lastSeenISO} /></td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Users({ data }: { data: DashboardUsersPage }) {
  const { t } = useT();
  if (!data.users.length) return <Empty text={t('admin-dashboard:users.none')} />;
  return (
    <table className="table table-sm align-middle dashboard-list">
      <caption className="caption-top">{t('admin-dashboard:users.newest')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('admin-dashboard:logins.user')}</th>
          <th scope="col">{t('admin-dashboard:users.joined')}</th>
          <th scope="col" className="text-end">{t('admin-dashboard:postcount')}</th>
        </tr>
      </thead>
      <tbody>
        {data.users.map((u) => (
          <tr key={u.uid}>
            <td className="text-break">
              <a href={`${data.relative_path}/user/${u.userslug}`} className="d-inline-flex gap-2 align-items-center">
                <Avatar user={u} size="sm" /> {u.displayname || u.username}
              </a>
            </td>
            <td className="small"><Timeago iso={u.joindateISO} /></td>
            <td className="text-end">{u.postcount}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Topics({ data }: { data: DashboardTopicsPage }) {
  const { t } = useT();
  if (!data.topics.length) return <Empty text={t('admin-dashboard:topics.none')} />;
  return (
    <table className="table table-sm align-middle dashboard-list">
      <caption className="caption-top">{t('admin-dashboard:topics.newest')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('admin-dashboard:topics')}</th>
          <th scope="col" className="d-none d-sm-table-cell">{t('admin-dashboard:topics.created')}</th>
          <th scope="col" className="text-end">{t('admin-dashboard:postcount')}</th>
          <th scope="col" className="text-end d-none d-sm-table-cell">{t('admin-dashboard:viewcount')}</th>
        </tr>
      </thead>
      <tbody>
        {data.topics.map((topic) => (
          <tr key={topic.tid}>
            <td className="text-break"><a href={`${data.relative_path}/topic/${topic.slug}`}>{topic.title}</a></td>
            <td className="d-none d-sm-table-cell small"><Timeago iso={topic.timestampISO} /></td>
            <td className="text-end">{topic.postcount}</td>
            <td className="text-end d-none d-sm-table-cell">{topic.viewcount}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Searches({ data }: { data: DashboardSearchesPage }) {
  const { t } = useT();
  return (
    <>
      <p className="small text-body-secondary">{t('admin-dashboard:searches.terms-note')}</p>
      {!data.searchesPerDay.length ? (
        <Empty text={t('admin-dashboard:searches.none')} />
      ) : (
        <table className="table table-sm dashboard-list">
          <caption className="caption-top">{t('admin-dashboard:searches.per-day')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin-dashboard:searches.day')}</th>
              <th scope="col" className="text-end">{t('admin-dashboard:searches.count')}</th>
            </tr>
          </thead>
          <tbody>
            {data.searchesPerDay.map((d) => (
              <tr key={d.day}>
                <td>{new Date(d.day).toISOString().slice(0, 10)}</td>
                <td className="text-end">{d.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** The dashboard's detail pages (admin/dashboard/logins, users, topics, searches): the counter's chart and summary, then its list. */
export default function DashboardDetail({ page }: { page: PageBase }) {
  const { t, tx } = useT();
  const data = page as DashboardDetailBase;
  const name = page.template.name;
  return (
    <>
      <PageHeader title={tx(data.graphTitle)}>
        <PeriodPicker period={data.graph.period} path={`${data.relative_path}/${name}`} />
      </PageHeader>
      <section className="card mb-3" aria-labelledby="detail-chart">
        <h2 className="card-header h6" id="detail-chart">{tx(data.graphTitle)} · {t(`admin-dashboard:period.${data.graph.period}`)}</h2>
        <div className="card-body">
          <TrafficChart graph={data.graph} metrics={[data.set]} label={tx(data.graphTitle)} />
        </div>
        <div className="card-footer d-flex flex-wrap justify-content-around text-center small">
          <div><div className="fs-5" data-field="summary-day">{data.summary.day}</div>{t('admin-dashboard:summary.day')}</div>
          <div><div className="fs-5">{data.summary.week}</div>{t('admin-dashboard:summary.week')}</div>
          <div><div className="fs-5">{data.summary.month}</div>{t('admin-dashboard:summary.month')}</div>
        </div>
      </section>
      <div className="table-responsive">
        {name === 'admin/dashboard/logins' && <Logins data={data as DashboardLoginsPage} />}
        {name === 'admin/dashboard/users' && <Users data={data as DashboardUsersPage} />}
        {name === 'admin/dashboard/topics' && <Topics data={data as DashboardTopicsPage} />}
      </div>
      {name === 'admin/dashboard/searches' && <Searches data={data as DashboardSearchesPage} />}
    </>
  );
}
