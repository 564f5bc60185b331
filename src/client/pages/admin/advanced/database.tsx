import { Fragment } from 'react';
import type { AdminDatabasePage } from '../../../../shared/schemas/admin-advanced';
import type { PageBase } from '../../../../shared/types';
import { useT } from '../../../app/hooks';
import { PageHeader } from '../../../components/PageHeader';

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

/** admin/advanced/database: dialect, version, size, row counts, the database's settings and Redis when configured. */
export default function AdminDatabase({ page }: { page: PageBase }) {
  const { t } = useT();
  const { database: db, redis } = page as AdminDatabasePage;
  return (
    <>
      <PageHeader title={t('admin-advanced:database.title')} />
      <div className="row g-3">
        <div className="col-md-6">
          <section className="card mb-3" aria-labelledby="db-info">
            <h2 className="card-header h6" id="db-info">{db.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}</h2>
            <dl className="card-body row mb-0 small">
              <dt className="col-5">{t('admin-advanced:database.version')}</dt>
              <dd className="col-7 text-break" data-field="version">{db.version}</dd>
              <dt className="col-5">{t('admin-advanced:database.size')}</dt>
              <dd className="col-7">{bytes(db.size)}</dd>
              {db.settings.map((s) => (
                <Fragment key={s.name}>
                  <dt className="col-5 font-monospace">{s.name}</dt>
                  <dd className="col-7 text-break">{s.value}</dd>
                </Fragment>
              ))}
            </dl>
          </section>
          {redis && (
            <section className="card mb-3" aria-labelledby="db-redis">
              <h2 className="card-header h6" id="db-redis">Redis</h2>
              <dl className="card-body row mb-0 small">
                {Object.entries(redis).map(([k, v]) => (
                  <Fragment key={k}>
                    <dt className="col-6 font-monospace">{k}</dt>
                    <dd className="col-6 text-break">{v}</dd>
                  </Fragment>
                ))}
              </dl>
            </section>
          )}
        </div>
        <div className="col-md-6">
          <section className="card" aria-labelledby="db-tables">
            <h2 className="card-header h6" id="db-tables">{t('admin-advanced:database.tables')}</h2>
            <div className="table-responsive">
              <table className="table table-sm mb-0">
                <thead>
                  <tr>
                    <th scope="col">{t('admin-advanced:database.table')}</th>
                    <th scope="col" className="text-end">{t('admin-advanced:database.rows')}</th>
                  </tr>
                </thead>
                <tbody>
                  {db.tables.map((tb) => (
                    <tr key={tb.name}>
                      <td className="font-monospace small">{tb.name}</td>
                      <td className="text-end">{tb.rows.toLocaleString()}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </div>
      </div>
    </>
  );
}
