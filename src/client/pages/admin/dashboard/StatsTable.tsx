import type { DashboardStat } from '../../../../shared/schemas/dashboard';
import { useT } from '../../../app/hooks';

/** NodeBB's stats table: each counter over the last day, week, month and all time, with the day's change. */
export function StatsTable({ stats, relativePath }: { stats: DashboardStat[]; relativePath: string }) {
  const { t, tx } = useT();
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle mb-0 dashboard-stats">
        <thead>
          <tr>
            <th scope="col">{t('admin-dashboard:stat')}</th>
            <th scope="col" className="text-end">{t('admin-dashboard:today')}</th>
            <th scope="col" className="text-end d-none d-sm-table-cell">{t('admin-dashboard:this-week')}</th>
            <th scope="col" className="text-end">{t('admin-dashboard:this-month')}</th>
            <th scope="col" className="text-end d-none d-md-table-cell">{t('admin-dashboard:all-time')}</th>
          </tr>
        </thead>
        <tbody>
          {stats.map((s) => (
            <tr key={s.set} data-set={s.set}>
              <th scope="row" className="fw-normal">
                {s.href ? <a href={`${relativePath}/${s.href}`}>{tx(s.name)}</a> : tx(s.name)}
              </th>
              <td className="text-end">
                <span data-field="today">{s.today}</span>{' '}
                <small className={s.dayTextClass} title={t('admin-dashboard:change-day', s.dayIncrease)}>
                  ({Number(s.dayIncrease) > 0 ? '+' : ''}{s.dayIncrease}%)
                </small>
              </td>
              <td className="text-end d-none d-sm-table-cell">{s.thisweek}</td>
              <td className="text-end">{s.thismonth}</td>
              <td className="text-end d-none d-md-table-cell">{s.alltime}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
