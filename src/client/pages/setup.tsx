import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import type { SetupPage } from '../../shared/schemas/admin-shell';
import type { PageBase } from '../../shared/types';
import { emailError, usernameError } from '../../shared/validation';
import { postSite } from '../app/api';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { errorText } from '../i18n';
import { FormError } from './auth-shared';

/**
 * First-run setup (issue 16 §1): served instead of the forum while no administrator exists.
 * The forum's title and the first administrator's account; the server applies spec §5's
 * password rules (length and strength) and answers each refused field with its key.
 */
export default function Setup({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const data = page as SetupPage;
  const id = useId();
  const [f, setF] = useState({ siteTitle: data.siteTitle ?? '', username: '', email: '', password: '', confirm: '' });
  const [demo, setDemo] = useState(true);
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const rules = {
    minimumUsernameLength: data.minimumUsernameLength,
    maximumUsernameLength: data.maximumUsernameLength,
  };
  const errors: Record<keyof typeof f, string | null> = {
    siteTitle: f.siteTitle.trim() === '' || f.siteTitle.length > 255 ? 'error:invalid-site-title' : null,
    username: usernameError(f.username, rules),
    email: emailError(f.email),
    password: f.password.length < data.minimumPasswordLength ? 'reset_password:password-too-short' : null,
    confirm: f.confirm !== f.password ? 'reset_password:passwords-do-not-match' : null,
  };
  const set = (k: keyof typeof f) => (e: ChangeEvent<HTMLInputElement>) => setF({ ...f, [k]: e.target.value });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (Object.values(errors).some(Boolean)) return;
    setBusy(true);
    setError(null);
    try {
      const res = await postSite<{ next?: string }>(rt.config, '/setup', {
        siteTitle: f.siteTitle,
        username: f.username,
        email: f.email,
        password: f.password,
        'password-confirm': f.confirm,
        demo,
      });
      // A full load: the new administrator's session, the forum's new title and the admin area.
      location.href = res?.next ?? `${rt.config.relative_path}/admin`;
    } catch (err) {
      setError(errorText(rt.i18n, err));
      setBusy(false);
    }
  };

  const field = (k: keyof typeof f, label: string, type: string, autoComplete: string, help?: string) => {
    const shown = touched && errors[k] ? t(errors[k]!, k === 'password' ? data.minimumPasswordLength : '') : null;
    const fid = `${id}-${k}`;
    return (
      <div className="mb-3">
        <label htmlFor={fid} className="form-label">{label}</label>
        <input
          id={fid}
          name={k}
          type={type}
          autoComplete={autoComplete}
          className={`form-control${shown ? ' is-invalid' : ''}`}
          value={f[k]}
          onChange={set(k)}
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? `${fid}-error` : help ? `${fid}-help` : undefined}
          required
        />
        {shown ? <div id={`${fid}-error`} className="invalid-feedback d-block">{shown}</div> : help && <div id={`${fid}-help`} className="form-text">{help}</div>}
      </div>
    );
  };

  return (
    <div className="setup-page mx-auto py-md-4" style={{ maxWidth: 520 }}>
      <div className="card shadow-sm">
        <div className="card-body p-4">
          <h1 className="h4 mb-2">{t('admin-setup:title')}</h1>
          <p className="text-body-secondary">{t('admin-setup:intro')}</p>
          <p className="small text-body-secondary" data-testid="setup-language">{t('admin-setup:language-note', data.languageName)}</p>
          <FormError message={error} />
          <form onSubmit={(e) => void submit(e)} noValidate id="setup-form">
            {field('siteTitle', t('admin-setup:site-title'), 'text', 'off', t('admin-setup:site-title-help'))}
            <h2 className="h6 mt-4 mb-3">{t('admin-setup:admin-section')}</h2>
            {field('username', t('admin-setup:username'), 'text', 'username')}
            {field('email', t('admin-setup:email'), 'email', 'email')}
            {field('password', t('admin-setup:password'), 'password', 'new-password', t('admin-setup:password-help', data.minimumPasswordLength))}
            {field('confirm', t('admin-setup:confirm'), 'password', 'new-password')}
            <div className="form-check mb-3">
              <input id={`${id}-demo`} type="checkbox" className="form-check-input" checked={demo} onChange={(e) => setDemo(e.target.checked)} aria-describedby={`${id}-demo-help`} />
              <label htmlFor={`${id}-demo`} className="form-check-label">{t('admin-setup:demo')}</label>
              <div id={`${id}-demo-help`} className="form-text">{t('admin-setup:demo-help')}</div>
            </div>
            <button type="submit" className="btn btn-primary w-100" disabled={busy}>
              {busy ? t('admin-setup:busy') : t('admin-setup:submit')}
            </button>
          </form>
        </div>
      </div>
    </div>
  );
}
