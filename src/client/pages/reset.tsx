import { useId, useState, type FormEvent } from 'react';
import type { PageBase } from '../../shared/types';
import { emailError } from '../../shared/validation';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { postSite } from '../app/api';
import { errorText } from '../i18n';
import { AuthCard, FormError } from './auth-shared';

/** The password-reset request form (POST /reset {email}). */
export default function Reset({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const id = useId();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  // Without mail set up no link can reach the member: the page says so instead of promising one.
  const mail = rt.config.mailConfigured;
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const bad = emailError(email);
    if (bad) return setError(t(bad));
    setBusy(true);
    setError(null);
    try {
      await postSite(rt.config, '/reset', { email });
      setSent(true);
    } catch (err) {
      setError(errorText(rt.i18n, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard title={t('reset_password:reset-password')} footer={<a href={`${page.relative_path}/login`}>{t('reset_password:back-to-login')}</a>}>
      {!mail ? (
        <div className="alert alert-warning mb-0" role="status" data-testid="mail-not-configured">{t('reset_password:mail-not-configured')}</div>
      ) : sent ? (
        <div className="alert alert-success" role="status">{t('reset_password:password-reset-sent')}</div>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <p className="text-body-secondary small">{t('reset_password:enter-email')}</p>
          <FormError message={error} />
          <div className="mb-3">
            <label htmlFor={id} className="form-label">{t('reset_password:email')}</label>
            <input id={id} type="email" className="form-control" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoFocus />
          </div>
          <button type="submit" className="btn btn-primary w-100" disabled={busy}>{t('reset_password:send-reset')}</button>
        </form>
      )}
    </AuthCard>
  );
}
