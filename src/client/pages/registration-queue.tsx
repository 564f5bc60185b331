import { useState } from 'react';
import type { QueuedRegistration, RegistrationQueuePage } from '../../shared/schemas/registration';
import type { PageBase } from '../../shared/types';
import { api, postSite } from '../app/api';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { errorText } from '../i18n';
import { PageHeader } from '../components/PageHeader';
import { Pagination } from '../components/Pagination';
import { Timeago } from '../components/Timeago';
import { InviteForm } from '../components/InviteForm';
import { ToolDialog } from '../components/topic-tools/ToolDialog';

/** The admins' registration queue (admin/manage/registration): accept, reject, report as spam; pending invitations and the invite form. */
export default function RegistrationQueue({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const data = page as RegistrationQueuePage;
  const [users, setUsers] = useState<QueuedRegistration[]>(data.users);
  const [busy, setBusy] = useState<string | null>(null);
  // The spam report's dialog: the registration it reports and what the admin chooses to block.
  const [reporting, setReporting] = useState<QueuedRegistration | null>(null);
  const [blockIp, setBlockIp] = useState(true);
  const [blockEmail, setBlockEmail] = useState(true);

  const act = async (u: QueuedRegistration, action: 'accept' | 'reject') => {
    setBusy(u.username);
    try {
      await api(rt.config, action === 'accept' ? 'PUT' : 'DELETE', `/admin/registration-queue/${encodeURIComponent(u.username)}`, action === 'accept' ? {} : undefined);
      setUsers((list) => list.filter((x) => x.username !== u.username));
      rt.alert({ type: 'success', message: t(action === 'accept' ? 'register:queue.accepted' : 'register:queue.rejected', u.username) });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(null);
    }
  };
  const openReport = (u: QueuedRegistration) => {
    setBlockIp(!!u.ip);
    setBlockEmail(!!u.email);
    setReporting(u);
  };
  // Spec §7/§8: the spam-be-gone report of a queued registration, with its alert texts.
  const report = async (u: QueuedRegistration) => {
    setBusy(u.username);
    try {
      await postSite(rt.config, `/api/user/${encodeURIComponent(u.username)}/spam-be-gone/report/queue`, { blockIp, blockEmail });
      // The report rejects the registration (and blocks the address and email the admin chose): it leaves the queue.
      setUsers((list) => list.filter((x) => x.username !== u.username));
      setReporting(null);
      rt.alert({ type: 'success', message: t('spam-be-gone:user-reported') });
    } catch (err) {
      rt.alert({ type: 'danger', message: (err as Error).message ? errorText(rt.i18n, err) : t('spam-be-gone:something-went-wrong') });
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <PageHeader title={t('register:queue.title')} subtitle={t('register:queue.count', data.registrationQueueCount - (data.users.length - users.length))} />
      {users.length === 0 ? (
        <div className="alert alert-info" role="status">{t('register:queue.none')}</div>
      ) : (
        <div className="table-responsive mb-4">
          <table className="table align-middle registration-queue">
            <thead>
              <tr>
                <th scope="col">{t('register:queue.username')}</th>
                <th scope="col" className="d-none d-sm-table-cell">{t('register:queue.email')}</th>
                <th scope="col" className="d-none d-md-table-cell">{t('register:queue.ip')}</th>
                <th scope="col" className="d-none d-md-table-cell">{t('register:queue.time')}</th>
                <th scope="col"><span className="visually-hidden">{t('register:queue.actions')}</span></th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.username} data-username={u.username}>
                  <td className="text-break">
                    <span className="fw-semibold">{u.username}</span>
                    {/* On a phone the address sits under the name (its own column is hidden). */}
                    <div className="small text-body-secondary d-sm-none">{u.email}</div>
                  </td>
                  <td className="text-break d-none d-sm-table-cell">{u.email}</td>
                  <td className="d-none d-md-table-cell">
                    {u.ip}
                    {u.ipMatch.length > 0 && (
                      <div className="small text-body-secondary">
                        {t('register:queue.ip-match')}:{' '}
                        {u.ipMatch.map((m) => (
                          <a key={m.uid} href={`${rt.config.relative_path}/user/${m.userslug}`} className="me-1">{m.username}</a>
                        ))}
                      </div>
                    )}
                  </td>
                  <td className="d-none d-md-table-cell small"><Timeago iso={u.timestampISO} /></td>
                  <td className="text-end">
                    <div className="d-flex flex-wrap gap-1 justify-content-end">
                      <button type="button" className="btn btn-sm btn-success" disabled={busy === u.username} onClick={() => void act(u, 'accept')}>{t('register:queue.accept')}</button>
                      <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy === u.username} onClick={() => void act(u, 'reject')}>{t('register:queue.reject')}</button>
                      <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => openReport(u)}>{t('spam-be-gone:report-user')}</button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {reporting && (
        <ToolDialog title={t('register:queue.spam-title', reporting.username)} confirmLabel={t('register:queue.spam-confirm')} danger busy={busy === reporting.username}
          onClose={() => setReporting(null)} onConfirm={() => void report(reporting)}>
          <p>{t('register:queue.spam-intro')}</p>
          {reporting.ip && (
            <div className="form-check">
              <input className="form-check-input" type="checkbox" id="spam-block-ip" checked={blockIp} onChange={(e) => setBlockIp(e.target.checked)} />
              <label className="form-check-label text-break" htmlFor="spam-block-ip">{t('register:queue.block-ip', reporting.ip)}</label>
            </div>
          )}
          {reporting.email && (
            <div className="form-check">
              <input className="form-check-input" type="checkbox" id="spam-block-email" checked={blockEmail} onChange={(e) => setBlockEmail(e.target.checked)} />
              <label className="form-check-label text-break" htmlFor="spam-block-email">{t('register:queue.block-email', reporting.email)}</label>
            </div>
          )}
        </ToolDialog>
      )}
      <Pagination pagination={data.pagination} />
      <InviteForm />
      {data.invites.length > 0 && (
        <section className="mt-4" aria-labelledby="pending-invites">
          <h2 id="pending-invites" className="h5">{t('register:queue.invites')}</h2>
          <ul className="list-unstyled">
            {data.invites.map((i) => (
              <li key={i.uid} className="mb-2">
                <div className="small text-body-secondary">{t('register:queue.invited-by', i.username)}</div>
                {i.invitations.map((inv) => <div key={inv.email} className="text-break">{inv.email}</div>)}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
