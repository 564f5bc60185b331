import { DASHBOARD_PERIODS, type DashboardPeriod } from '../../../../shared/schemas/dashboard';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';

/** Hour / day / month buttons: the page reloads its data with ?period=. */
export function PeriodPicker({ period, path }: { period: DashboardPeriod; path: string }) {
  const { t } = useT();
  const rt = useRuntime();
  return (
    <div className="btn-group btn-group-sm" role="group" aria-label={t('admin-dashboard:period')}>
      {DASHBOARD_PERIODS.map((p) => (
        <button
          key={p}
          type="button"
          className={`btn ${p === period ? 'btn-primary' : 'btn-outline-primary'}`}
          aria-pressed={p === period}
          data-period={p}
          onClick={() => rt.navigate(`${path}?period=${p}`)}
        >
          {t(`admin-dashboard:period.${p}`)}
        </button>
      ))}
    </div>
  );
}
