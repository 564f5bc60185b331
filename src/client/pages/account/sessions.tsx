import { useEffect, useState } from 'react';
import type { AccountSession, SessionsPage } from '../../../shared/security';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Timeago } from '../../components/Timeago';
import { AccountNav } from './AccountNav';
import { SecurityNav } from './SecurityNav';

/** "Chrome 131 · Android"; `unknown` when the user agent named neither. */
function device(s: AccountSession, unknown: string): string {
  if (s.browser === 'Unknown' && s.platform === 'Unknown') return unknown;
  const browser = s.version ? `${s.browser} ${s.version.split('.')[0]}` : s.browser;
  return `${browser} · ${s.platform}`;
}

/** The account page `sessions`: every session with device, address, start and last use; revoke one or all others. */
export default function Sessions({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as SessionsPage;
  const [sessions, setSessions] = useState(data.sessions);
  const [busy, setBusy] = useState(false);
  useEffect(() => setSessions(data.sessions), [data.sessions]);

  const run = async (work: () => Promise<void>, done: string) => {
    setBusy(true);
    try {
      await work();
      rt.alert({ type: 'success', message: t(done) });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const revoke = (s: AccountSession) =>
    run(async () => {
      await api(rt.config, 'DELETE', `/users/${data.uid}/sessions/${s.uuid}`);
      setSessions((list) => list.filter((x) => x.uuid !== s.uuid));
    }, 'user:sessions.revoked');
  const revokeOthers = () =>
    run(async () => {
      await api(rt.config, 'DELETE', `/users/${data.uid}/sessions`);
      setSessions((list) => list.filter((x) => x.current));
    }, 'user:sessions.revoked-others');
  const others = sessions.filter((s) => !s.current).length;

  return (
    <>
      <AccountNav userslug={data.userslug} active="security" own />
      <PageHeader title={t('user:sessions.title')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="lock" size={28} />}>
        {others > 0 && (
          <button type="button" className="btn btn-danger btn-sm" onClick={() => void revokeOthers()} disabled={busy} data-testid="sessions-revoke-others">
            <Icon name="logout" size={16} /> {t('user:sessions.revoke-others')}
          </button>
        )}
      </PageHeader>
      <SecurityNav userslug={data.userslug} active="sessions" isSelf={data.isSelf} />
      <p className="text-body-secondary">{t('user:sessions.intro')}</p>
      <ul className="list-group" data-testid="sessions">
        {sessions.map((s) => (
          <li key={s.uuid} className="list-group-item d-flex flex-wrap gap-2 align-items-center" data-current={s.current ? '1' : '0'}>
            <div className="flex-grow-1 min-w-0">
              <div className="fw-semibold">
                {device(s, t('user:sessions.unknown-device'))}
                {s.current && <span className="badge text-bg-success ms-2">{t('user:sessions.current')}</span>}
              </div>
              <div className="small text-body-secondary">
                <span className="me-3">{s.ip || '—'}</span>
                <span className="me-3">
                  {t('user:sessions.started')} <Timeago iso={s.datetimeISO} />
                </span>
                <span>
                  {t('user:sessions.last-seen')} <Timeago iso={s.lastSeenISO} />
                </span>
              </div>
            </div>
            {!s.current && (
              <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void revoke(s)} disabled={busy} aria-label={`${t('user:sessions.revoke')}: ${device(s, t('user:sessions.unknown-device'))}`}>
                {t('user:sessions.revoke')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
