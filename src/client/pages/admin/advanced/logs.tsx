import type { AdminLogsPage } from '../../../../shared/schemas/admin-advanced';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { errorText } from '../../../i18n';
import { PageHeader } from '../../../components/PageHeader';

/** admin/advanced/logs: the last lines of the server log (kept in memory by this process). */
export default function AdminLogs({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminLogsPage;
  const reload = () => rt.navigate(window.location.pathname, { replace: true, force: true });
  const clear = async () => {
    try {
      await api(rt.config, 'DELETE', '/admin/logs');
      reload();
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    }
  };
  return (
    <>
      <PageHeader title={t('admin-advanced:logs.title')} subtitle={t('admin-advanced:logs.help', data.lines)}>
        <button type="button" className="btn btn-sm btn-primary" onClick={reload}>{t('admin-advanced:logs.reload')}</button>
        <button type="button" className="btn btn-sm btn-danger" onClick={() => void clear()}>{t('admin-advanced:logs.clear')}</button>
      </PageHeader>
      {data.data ? (
        <pre className="border rounded bg-body-tertiary p-2 small admin-logs" style={{ maxHeight: '70vh', overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} tabIndex={0} aria-label={t('admin-advanced:logs.title')}>
          {data.data}
        </pre>
      ) : (
        <p className="text-body-secondary">{t('admin-advanced:logs.empty')}</p>
      )}
    </>
  );
}
