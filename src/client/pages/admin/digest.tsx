import { useState } from 'react';
import type { AdminDigestPage } from '../../../shared/schemas/admin-people';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { Avatar } from '../../components/Avatar';
import { PageHeader } from '../../components/PageHeader';
import { Pagination } from '../../components/Pagination';
import { Timeago } from '../../components/Timeago';

/** admin/manage/digest: each member's digest frequency and last digest; send a digest now to one member or everyone. */
export default function AdminDigest({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminDigestPage;
  const [busy, setBusy] = useState<number | 'all' | null>(null);
  const send = async (uid?: number) => {
    setBusy(uid ?? 'all');
    try {
      const { sent } = await api<{ sent: number }>(rt.config, 'POST', '/admin/digest/send', uid ? { uid } : {});
      rt.alert({ type: sent ? 'success' : 'info', message: t('admin-people:digest.sent', sent), timeout: 4000 });
      rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(null);
    }
  };
  const freq = (f: string) => t(`user:settings.digest.${f}`);
  return (
    <>
      <PageHeader title={t('admin-people:digest.title')}>
        <button type="button" className="btn btn-sm btn-primary" disabled={busy !== null} onClick={() => void send()}>{t('admin-people:digest.send-all')}</button>
      </PageHeader>
      {!rt.config.mailConfigured && (
        <div className="alert alert-warning" role="status" data-testid="mail-not-configured">
          {t('admin-people:digest.no-mail')} <a href={`${rt.config.relative_path}/admin/settings/email`}>{t('admin-dashboard:mail-set-up')}</a>
        </div>
      )}
      <p className="mb-1">{t('admin-people:digest.default', freq(data.default))}</p>
      <p className="small text-body-secondary">
        {data.lastRun ? <>{t('admin-people:digest.last-run')} <Timeago iso={data.lastRun} /></> : t('admin-people:digest.never-run')}
      </p>
      <div className="table-responsive">
        <table className="table align-middle admin-digest">
          <thead>
            <tr>
              <th scope="col">{t('admin-people:digest.col.user')}</th>
              <th scope="col" className="d-none d-sm-table-cell">{t('admin-people:digest.col.setting')}</th>
              <th scope="col" className="d-none d-md-table-cell">{t('admin-people:digest.col.last')}</th>
              <th scope="col"><span className="visually-hidden">{t('admin-people:digest.col.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {data.delivery.map((d) => (
              <tr key={d.uid} data-uid={d.uid}>
                <td className="text-break">
                  <div className="d-flex align-items-center gap-2">
                    <Avatar user={{ ...d, picture: d.picture ?? '' }} size="sm" />
                    <div>
                      <a href={`${page.relative_path}/user/${d.userslug}`}>{d.username}</a>
                      <div className="small text-body-secondary d-sm-none">{d.setting ? freq(d.setting) : t('admin-people:digest.forum-default')}</div>
                    </div>
                  </div>
                </td>
                <td className="d-none d-sm-table-cell">{d.setting ? freq(d.setting) : <span className="text-body-secondary">{t('admin-people:digest.forum-default')}</span>}</td>
                <td className="d-none d-md-table-cell small">{d.lastDelivery ? <Timeago iso={d.lastDelivery} /> : t('admin-people:digest.never')}</td>
                <td className="text-end">
                  <button type="button" className="btn btn-sm btn-outline-primary text-nowrap" disabled={busy !== null} onClick={() => void send(d.uid)}>
                    {t('admin-people:digest.send-now')}<span className="visually-hidden"> {d.username}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination pagination={data.pagination} />
    </>
  );
}
