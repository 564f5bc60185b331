import { useId, useState, type FormEvent } from 'react';
import type { ResetCodePage } from '../../shared/mail-pages';
import type { PageBase } from '../../shared/types';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { postSite } from '../app/api';
import { errorText } from '../i18n';
import { AuthCard, FormError } from './auth-shared';

/** `/reset/:code` (reset_code): chooses a new password with the code of a reset mail, or says why the link does not work. */
export default function ResetCode({ page }: { page: PageBase }) {
  const data = page as ResetCodePage;
  const rt = useRuntime();
  const { t } = useT();
  const id = useId();
  const [f, setF] = useState({ password: '', confirm: '' });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const rp = rt.config.relative_path;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!f.password) return setError(t('error:invalid-password'));
    if (f.password !== f.confirm) return setError(t('reset_password:passwords-do-not-match'));
    setBusy(true);
    setError(null);
    try {
      // The server checks the password rules (length, strength) and the code, once.
      await postSite(rt.config, `/reset/${encodeURIComponent(data.code)}`, { password: f.password, 'password-confirm': f.confirm });
      setDone(true);
    } catch (err) {
      setError(errorText(rt.i18n, err));
    } finally {
      setBusy(false);
    }
  };

  const footer = <a href={`${rp}/login`}>{t('reset_password:back-to-login')}</a>;
  if (!data.valid) {
    return (
      <AuthCard title={t('email:reset-code.title')} footer={footer}>
        <div className="alert alert-danger" role="alert">{t(data.error || 'error:reset-code-invalid')}</div>
        <a href={`${rp}/reset`} className="btn btn-primary w-100">{t('reset_password:send-reset')}</a>
      </AuthCard>
    );
  }
  if (done) {
    return (
      <AuthCard title={t('email:reset-code.title')}>
        <div className="alert alert-success" role="status">{t('email:reset-code.done')}</div>
        <a href={`${rp}/login`} className="btn btn-primary w-100">{t('global:login')}</a>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('email:reset-code.title')} footer={footer}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <FormError message={error} />
        <div className="mb-3">
          <label htmlFor={`${id}-p`} className="form-label">{t('email:reset-code.new-password')}</label>
          <input id={`${id}-p`} type="password" className="form-control" autoComplete="new-password" value={f.password} onChange={(e) => setF({ ...f, password: e.target.value })} required autoFocus />
        </div>
        <div className="mb-3">
          <label htmlFor={`${id}-c`} className="form-label">{t('email:reset-code.repeat-password')}</label>
          <input id={`${id}-c`} type="password" className="form-control" autoComplete="new-password" value={f.confirm} onChange={(e) => setF({ ...f, confirm: e.target.value })} required />
        </div>
        <button type="submit" className="btn btn-primary w-100" disabled={busy}>{t('email:reset-code.submit')}</button>
      </form>
    </AuthCard>
  );
}
