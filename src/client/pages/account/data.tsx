import { useEffect, useState, type FormEvent } from 'react';
import type { AccountDataPage, ExportState, ExportType } from '../../../shared/schemas/account-data';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Timeago } from '../../components/Timeago';
import { errorText } from '../../i18n';
import { AccountNav } from './AccountNav';

type Kind = 'account' | 'both';
const KIND_LABEL: Record<Kind, string> = { account: 'user:data.delete-keep', both: 'user:data.delete-all' };

/** The account page `data`: the member's exports (profile, posts, uploads) and the account deletion. */
export default function AccountData({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const rp = rt.config.relative_path;
  const data = page as AccountDataPage;
  const [exports, setExports] = useState<ExportState[]>(data.exports ?? []);
  const [kind, setKind] = useState<Kind>('account');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setExports(data.exports ?? []), [data.exports]);
  const fail = (err: unknown) => rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
  const base = `/users/${data.uid}`;

  const request = async (type: ExportType) => {
    try {
      await api(rt.config, 'POST', `${base}/exports/${type}`);
      setExports((list) => list.map((e) => (e.type === type ? { ...e, pending: true } : e)));
      rt.alert({ type: 'success', message: t('user:data.requested') });
    } catch (err) {
      fail(err);
    }
  };

  const remove = async (e: FormEvent) => {
    e.preventDefault();
    if (!window.confirm(t('user:data.delete-confirm'))) return;
    setBusy(true);
    try {
      const path = kind === 'both' ? base : `${base}/${kind}`;
      await api(rt.config, 'DELETE', path, data.needsPassword ? { password } : {});
      setPassword('');
      rt.alert({ type: 'success', message: t('user:data.deleted') });
      // The session is gone with the account: a full load starts the page as a guest.
      window.location.href = data.isSelf ? `${rp}/` : `${rp}/users`;
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <AccountNav userslug={data.userslug} active="data" own />
      <PageHeader title={t('user:data.title')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="drafts" size={28} />} />
      <section className="mb-4" aria-labelledby="exports-heading">
        <h2 className="h5" id="exports-heading">
          {t('user:data.exports')}
        </h2>
        <p className="text-body-secondary">{t('user:data.exports-intro', data.exportExpiryDays)}</p>
        <ul className="list-group" data-testid="exports">
          {exports.map((x) => (
            <li key={x.type} className="list-group-item d-flex flex-wrap gap-2 align-items-center" data-export={x.type}>
              <div className="flex-grow-1">
                <div className="fw-semibold">{t(`user:export-${x.type}`)}</div>
                <div className="small text-body-secondary">
                  {x.pending ? (
                    t('user:data.pending')
                  ) : x.timestamp ? (
                    <span>
                      {t('user:data.ready', '')}
                      <Timeago iso={new Date(x.timestamp).toISOString()} />
                    </span>
                  ) : (
                    t('user:data.none')
                  )}
                </div>
              </div>
              {x.timestamp > 0 && (
                <a className="btn btn-sm btn-primary" href={`${rp}/api/v3${base}/exports/${x.type}`} download data-testid={`download-${x.type}`}>
                  <Icon name="chevron-down" size={16} /> {t('user:data.download')}
                </a>
              )}
              <button
                type="button"
                className="btn btn-sm btn-outline-secondary"
                disabled={x.pending}
                onClick={() => void request(x.type)}
                data-testid={`request-${x.type}`}
              >
                {t(x.timestamp ? 'user:data.request-again' : 'user:data.request')}
              </button>
            </li>
          ))}
        </ul>
      </section>
      {data.canDelete && (
        <section className="card border-danger mb-4" aria-labelledby="delete-heading">
          <div className="card-body">
            <h2 className="h5 text-danger" id="delete-heading">
              {t('user:data.delete')}
            </h2>
            <p className="text-body-secondary mb-2">{t('user:data.delete-intro')}</p>
            {data.isTargetAdmin && <p className="small text-body-secondary">{t('user:data.admin-note')}</p>}
            <form onSubmit={(e) => void remove(e)} data-testid="delete-form">
              <fieldset className="mb-3">
                <legend className="visually-hidden">{t('user:data.delete')}</legend>
                {(['account', 'both'] as Kind[]).map((k) => (
                  <div className="form-check" key={k}>
                    <input
                      className="form-check-input"
                      type="radio"
                      name="delete-kind"
                      id={`delete-${k}`}
                      value={k}
                      checked={kind === k}
                      onChange={() => setKind(k)}
                    />
                    <label className="form-check-label" htmlFor={`delete-${k}`}>
                      {t(KIND_LABEL[k])}
                    </label>
                  </div>
                ))}
              </fieldset>
              {data.needsPassword && (
                <div className="mb-3" style={{ maxWidth: '24rem' }}>
                  <label className="form-label" htmlFor="delete-password">
                    {t('user:data.password')}
                  </label>
                  <input
                    id="delete-password"
                    type="password"
                    className="form-control"
                    autoComplete="current-password"
                    value={password}
                    onChange={(e) => setPassword(e.target.value)}
                    required
                  />
                </div>
              )}
              <button type="submit" className="btn btn-danger" disabled={busy || (data.needsPassword && !password)}>
                <Icon name="trash" size={16} /> {t('user:data.delete-button')}
              </button>
            </form>
          </div>
        </section>
      )}
    </>
  );
}
