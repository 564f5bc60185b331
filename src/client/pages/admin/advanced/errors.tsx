import type { AdminErrorEntry, AdminErrorsPage } from '../../../../shared/schemas/admin-advanced';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { errorText } from '../../../i18n';
import { PageHeader } from '../../../components/PageHeader';
import { Timeago } from '../../../components/Timeago';

function ErrorTable({ rows, label, id }: { rows: AdminErrorEntry[]; label: string; id: string }) {
  const { t } = useT();
  return (
    <section className="card mb-3" aria-labelledby={id}>
      <h2 className="card-header h6" id={id}>{label}</h2>
      {rows.length === 0 ? (
        <p className="card-body text-body-secondary mb-0">{t('admin-advanced:errors.none')}</p>
      ) : (
        <div className="table-responsive">
          <table className="table table-sm align-middle mb-0">
            <thead>
              <tr>
                <th scope="col">{t('admin-advanced:errors.path')}</th>
                <th scope="col" className="text-end">{t('admin-advanced:errors.count')}</th>
                <th scope="col" className="d-none d-sm-table-cell">{t('admin-advanced:errors.last-seen')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.value}>
                  <td className="text-break font-monospace small">{r.value}</td>
                  <td className="text-end">{r.score.toLocaleString()}</td>
                  <td className="d-none d-sm-table-cell small"><Timeago iso={r.lastSeenISO} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** admin/advanced/errors: the 404s and 500s seen, most frequent first; CSV export and clear. */
export default function AdminErrors({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminErrorsPage;
  const clear = async () => {
    try {
      await api(rt.config, 'DELETE', '/admin/errors');
      rt.navigate(window.location.pathname, { replace: true, force: true });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    }
  };
  return (
    <>
      <PageHeader title={t('admin-advanced:errors.title')}>
        <a className="btn btn-sm btn-primary" href={`${page.relative_path}/api/admin/advanced/errors/export`} download="errors.csv">{t('admin-advanced:errors.export')}</a>
        <button type="button" className="btn btn-sm btn-danger" onClick={() => void clear()}>{t('admin-advanced:errors.clear')}</button>
      </PageHeader>
      <ErrorTable rows={data['not-found']} label={t('admin-advanced:errors.not-found')} id="errors-404" />
      <ErrorTable rows={data['server-error']} label={t('admin-advanced:errors.server-error')} id="errors-500" />
    </>
  );
}
