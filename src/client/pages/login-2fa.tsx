import { useId, useState, type FormEvent } from 'react';
import type { LoginTwoFactorPage } from '../../shared/security';
import type { PageBase } from '../../shared/types';
import { postSite, ApiError } from '../app/api';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { errorText } from '../i18n';
import { AuthCard, FormError, afterLoginUrl } from './auth-shared';

/**
 * The second login step and the admin re-authentication (`/login/2fa`, variants `totp` and
 * `backup`): a code from the authenticator app, or one of the backup codes.
 */
export default function LoginTwoFactor({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const data = page as LoginTwoFactorPage;
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const [busy, setBusy] = useState(false);
  const rp = rt.config.relative_path;
  const totp = data.variant === 'totp';
  const nextQuery = data.next && data.next !== '/' ? `?next=${encodeURIComponent(data.next)}` : '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return setError(t(totp ? 'error:two-factor-invalid-code' : 'error:two-factor-invalid-backup-code'));
    setBusy(true);
    setError(null);
    try {
      const res = await postSite<{ next: string }>(rt.config, `/login/2fa/${data.variant}`, { code: code.trim(), next: data.next });
      // A new session (or a re-authenticated one): a full load picks up its CSRF token.
      location.href = data.reauth ? res.next : afterLoginUrl(rt.config, res.next);
    } catch (err) {
      setExpired(err instanceof ApiError && err.key === 'error:two-factor-login-expired');
      setError(errorText(rt.i18n, err));
      setCode('');
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={t('login:two-factor.title')}
      footer={
        <a href={`${rp}/login/2fa/${totp ? 'backup' : 'totp'}${nextQuery}`} data-testid="two-factor-switch">
          {t(totp ? 'login:two-factor.use-backup' : 'login:two-factor.use-totp')}
        </a>
      }
    >
      <p className="text-body-secondary">{t(data.reauth ? 'login:two-factor.reauth-intro' : totp ? 'login:two-factor.totp-intro' : 'login:two-factor.backup-intro')}</p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <FormError message={error} />
        {expired && (
          <p>
            <a href={`${rp}/login`}>{t('login:two-factor.login-again')}</a>
          </p>
        )}
        <div className="mb-3">
          <label htmlFor={`${id}-c`} className="form-label">
            {t(totp ? 'login:two-factor.code' : 'login:two-factor.backup-code')}
          </label>
          <input
            id={`${id}-c`}
            name="code"
            className="form-control form-control-lg text-center font-monospace"
            inputMode={totp ? 'numeric' : 'text'}
            autoComplete={totp ? 'one-time-code' : 'off'}
            maxLength={totp ? 6 : 11}
            pattern={totp ? '[0-9]*' : undefined}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            required
            autoFocus
          />
        </div>
        <button type="submit" className="btn btn-primary w-100" disabled={busy}>
          {t('login:two-factor.verify')}
        </button>
      </form>
    </AuthCard>
  );
}
