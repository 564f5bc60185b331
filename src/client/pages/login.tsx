import { useId, useState, type FormEvent } from 'react';
import type { LoginPage, PageBase } from '../../shared/types';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { postSite } from '../app/api';
import { errorText } from '../i18n';
import { AuthCard, FormError, afterLoginUrl } from './auth-shared';
import { useLoginCaptcha } from '../components/captcha/login';

/** The login form: POST /login (JSON), then a full load of the next page (new session). */
export default function Login({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t, tx } = useT();
  const data = page as LoginPage;
  const id = useId();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // "Remember me": the session outlives the browser for the forum's session days (NodeBB's loginDays).
  const [remember, setRemember] = useState(true);
  const [error, setError] = useState<string | null>(data.error ? tx(data.error) : null);
  const [busy, setBusy] = useState(false);
  const captcha = useLoginCaptcha();
  const rp = rt.config.relative_path;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!username.trim() || !password) {
      setError(t('error:invalid-username-or-password'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await postSite<{ next?: string }>(rt.config, '/login', { username: username.trim(), password, remember, ...captcha.fields() });
      // A member with a two-factor key is asked for the code first; the page they came for stays remembered.
      location.href = res?.next?.endsWith('/login/2fa') ? res.next : afterLoginUrl(rt.config, res?.next);
    } catch (err) {
      setError(errorText(rt.i18n, err));
      captcha.failed(err);
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={t('login:title')}
      footer={
        data.allowRegistration !== false && rt.config.allowRegistration ? (
          <>
            {t('login:dont-have-account')} <a href={`${rp}/register`}>{t('global:register')}</a>
          </>
        ) : undefined
      }
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <FormError message={error} />
        <div className="mb-3">
          <label htmlFor={`${id}-u`} className="form-label">{t('login:username-email')}</label>
          <input id={`${id}-u`} name="username" className="form-control" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} required autoFocus />
        </div>
        <div className="mb-3">
          <div className="d-flex justify-content-between">
            <label htmlFor={`${id}-p`} className="form-label">{t('login:password')}</label>
            <a href={`${rp}/reset`} className="small">{t('login:forgot-password')}</a>
          </div>
          <input id={`${id}-p`} name="password" type="password" className="form-control" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </div>
        <div className="form-check mb-3">
          <input id={`${id}-r`} name="remember" type="checkbox" className="form-check-input" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          <label htmlFor={`${id}-r`} className="form-check-label">{t('login:remember-me')}</label>
        </div>
        {captcha.widget}
        <button type="submit" className="btn btn-primary w-100" disabled={busy}>
          {busy ? t('login:logging-in') : t('login:login')}
        </button>
      </form>
    </AuthCard>
  );
}
