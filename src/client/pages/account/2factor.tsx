import { useEffect, useId, useState, type FormEvent } from 'react';
import type { TwoFactorPage } from '../../../shared/security';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { FormError } from '../auth-shared';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { AccountNav } from './AccountNav';
import { SecurityNav } from './SecurityNav';

interface Enrolment {
  secret: string;
  uri: string;
  qr: string;
}

/** Backup codes, shown once: the member writes them down or copies them. */
function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useT();
  return (
    <div className="alert alert-warning" role="status">
      <h2 className="h6">{t('user:two-factor.backup-title')}</h2>
      <p className="small mb-2">{t('user:two-factor.backup-intro')}</p>
      <ol className="font-monospace row row-cols-2 row-cols-sm-5 g-1 ps-4 mb-3" data-testid="backup-codes">
        {codes.map((c) => (
          <li key={c} className="col">
            {c}
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn-sm btn-outline-dark" onClick={onDone}>
        {t('user:two-factor.backup-saved')}
      </button>
    </div>
  );
}

/**
 * The account page `2factor`: enrol a TOTP key (QR code made by the forum, the secret as text
 * for apps without a camera, confirmed by a code), see the backup codes once, make new ones or
 * turn the key off with the password.
 */
export default function TwoFactor({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as TwoFactorPage;
  const id = useId();
  const [enabled, setEnabled] = useState(data.enabled);
  const [left, setLeft] = useState(data.backupCodesLeft);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setEnabled(data.enabled);
    setLeft(data.backupCodesLeft);
  }, [data.enabled, data.backupCodesLeft]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(errorText(rt.i18n, err));
    } finally {
      setBusy(false);
    }
  };
  const base = `/users/${data.uid}/2fa`;
  const begin = () => run(async () => setEnrolment(await api<Enrolment>(rt.config, 'POST', base, {})));
  const confirm = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const res = await api<{ backupCodes: string[] }>(rt.config, 'PUT', base, { code: code.trim() });
      setCodes(res.backupCodes);
      setLeft(res.backupCodes.length);
      setEnabled(true);
      setEnrolment(null);
      setCode('');
      rt.alert({ type: 'success', message: t('user:two-factor.enabled') });
    });
  };
  const regenerate = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const res = await api<{ backupCodes: string[] }>(rt.config, 'POST', `${base}/backup-codes`, { password });
      setCodes(res.backupCodes);
      setLeft(res.backupCodes.length);
      setPassword('');
    });
  };
  const disable = () =>
    run(async () => {
      await api(rt.config, 'DELETE', base, { password });
      setEnabled(false);
      setCodes(null);
      setPassword('');
      rt.alert({ type: 'info', message: t('user:two-factor.disabled') });
    });

  return (
    <>
      <AccountNav userslug={data.userslug} active="security" own />
      <PageHeader title={t('user:two-factor.title')} icon={<Icon name="lock" size={28} />} />
      <SecurityNav userslug={data.userslug} active="2factor" isSelf={data.isSelf} />
      <FormError message={error} />
      {codes && <BackupCodes codes={codes} onDone={() => setCodes(null)} />}
      <section className="card" data-testid="two-factor-state" data-enabled={enabled ? '1' : '0'}>
        <div className="card-body">
          {enabled ? (
            <>
              <p className="d-flex align-items-center gap-2 text-success fw-semibold">
                <Icon name="check" /> {t('user:two-factor.on')}
              </p>
              <p className="text-body-secondary">{t('user:two-factor.codes-left', left)}</p>
              <form className="row g-2 align-items-end" onSubmit={regenerate}>
                <div className="col-sm-6">
                  <label htmlFor={`${id}-p`} className="form-label">
                    {t('user:security.current-password')}
                  </label>
                  <input id={`${id}-p`} type="password" className="form-control" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
                </div>
                <div className="col-sm-6 d-flex flex-wrap gap-2">
                  <button type="submit" className="btn btn-outline-primary" disabled={busy || !password}>
                    {t('user:two-factor.new-codes')}
                  </button>
                  <button type="button" className="btn btn-outline-danger" disabled={busy || !password} onClick={() => void disable()} data-testid="two-factor-disable">
                    {t('user:two-factor.disable')}
                  </button>
                </div>
              </form>
            </>
          ) : enrolment ? (
            <div className="row g-4">
              <div className="col-md-auto text-center">
                <img src={enrolment.qr} width={200} height={200} alt={t('user:two-factor.qr-alt')} className="border rounded bg-white" data-testid="two-factor-qr" />
              </div>
              <div className="col-md">
                <ol className="ps-3">
                  <li className="mb-2">{t('user:two-factor.step-scan')}</li>
                  <li className="mb-2">
                    {t('user:two-factor.step-secret')}
                    <code className="d-block user-select-all text-break fs-6 mt-1" data-testid="two-factor-secret">
                      {enrolment.secret}
                    </code>
                  </li>
                  <li>{t('user:two-factor.step-code')}</li>
                </ol>
                <form className="d-flex gap-2" onSubmit={confirm}>
                  <label htmlFor={`${id}-c`} className="visually-hidden">
                    {t('login:two-factor.code')}
                  </label>
                  <input
                    id={`${id}-c`}
                    className="form-control font-monospace"
                    style={{ maxWidth: 160 }}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    value={code}
                    onChange={(e) => setCode(e.target.value)}
                    placeholder="123456"
                  />
                  <button type="submit" className="btn btn-primary" disabled={busy || code.trim().length !== 6}>
                    {t('user:two-factor.confirm')}
                  </button>
                </form>
              </div>
            </div>
          ) : (
            <>
              <p>{t('user:two-factor.intro')}</p>
              <button type="button" className="btn btn-primary" onClick={() => void begin()} disabled={busy} data-testid="two-factor-begin">
                {t('user:two-factor.begin')}
              </button>
            </>
          )}
        </div>
      </section>
    </>
  );
}
