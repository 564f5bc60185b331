import type { ChangeEvent, ReactNode } from 'react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { RegisterPage } from '../../shared/schemas/registration';
import type { PageBase } from '../../shared/types';
import { emailError, passwordError, usernameError } from '../../shared/validation';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { postSite } from '../app/api';
import { errorText } from '../i18n';
import { AuthCard, FormError, afterLoginUrl } from './auth-shared';
import { Captcha, captchaFields } from '../components/captcha/Captcha';

type Scorer = (password: string, inputs: string[]) => number;
/** How long the username must rest before its availability is asked. */
const NAME_CHECK_DELAY_MS = 400;
/** What the server said of the name as typed: taken or free (null: not asked yet, or asking). */
type NameCheck = { name: string; taken: boolean } | null;
let scorer: Promise<Scorer> | null = null;

/** zxcvbn is large: it loads only here, on first need. */
function loadScorer(): Promise<Scorer> {
  scorer ??= import('../../shared/password-strength').then((m) => m.passwordStrength);
  return scorer;
}

const STRENGTH_CLASS = ['bg-danger', 'bg-danger', 'bg-warning', 'bg-info', 'bg-success'];

function Field({ id, label, error, help, valid, children }: { id: string; label: string; error?: string | null; help?: string; valid?: string | null; children: ReactNode }) {
  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">{label}</label>
      {children}
      {error ? (
        <div id={`${id}-error`} className="invalid-feedback d-block" aria-live="polite">{error}</div>
      ) : (
        <>
          {valid && <div id={`${id}-valid`} className="valid-feedback d-block" aria-live="polite">{valid}</div>}
          {help && <div id={`${id}-help`} className="form-text">{help}</div>}
        </>
      )}
    </div>
  );
}

function Check({ id, label, checked, onChange, error }: { id: string; label: string; checked: boolean; onChange: (v: boolean) => void; error: string | null }) {
  return (
    <div className="form-check mb-3">
      <input id={id} type="checkbox" className={`form-check-input${error ? ' is-invalid' : ''}`} checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby={error ? `${id}-error` : undefined} />
      <label htmlFor={id} className="form-check-label small">{label}</label>
      {error && <div id={`${id}-error`} className="invalid-feedback d-block">{error}</div>}
    </div>
  );
}

/**
 * The registration form with the shared validation rules and a live strength meter; it follows
 * the forum's registration type (an invitation link's token, the approval queue's message), asks
 * for the terms and consent when set, carries the captcha's solution and a honeypot field.
 */
export default function Register({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t, tx } = useT();
  const data = page as RegisterPage;
  const id = useId();
  const [f, setF] = useState({ username: '', email: data.invitedEmail ?? '', password: '', confirm: '' });
  const [agree, setAgree] = useState({ terms: false, gdpr: false });
  const [altcha, setAltcha] = useState<string | null>(null);
  const [captchaRound, setCaptchaRound] = useState(0);
  const [honeypot, setHoneypot] = useState('');
  const [queued, setQueued] = useState<string | null>(null);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [score, setScore] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [nameCheck, setNameCheck] = useState<NameCheck>(null);
  const rules = {
    minimumUsernameLength: data.minimumUsernameLength ?? rt.config.minimumUsernameLength,
    maximumUsernameLength: data.maximumUsernameLength ?? rt.config.maximumUsernameLength,
    minimumPasswordLength: data.minimumPasswordLength ?? rt.config.minimumPasswordLength,
    minimumPasswordStrength: data.minimumPasswordStrength ?? rt.config.minimumPasswordStrength,
  };

  // Spec §8: a captcha callback that comes back with ?error=… shows that error.
  useEffect(() => {
    const fromUrl = new URLSearchParams(window.location.search).get('error');
    if (fromUrl) setError(tx(fromUrl.startsWith('[[') ? fromUrl : `[[${fromUrl}]]`));
  }, [tx]);

  useEffect(() => {
    if (!f.password) return setScore(null);
    let live = true;
    void loadScorer().then((score) => live && setScore(score(f.password, [f.username, f.email])));
    return () => {
      live = false;
    };
  }, [f.password, f.username, f.email]);

  // The name's availability, asked as it is typed (debounced): NodeBB's HEAD /api/v3/users/bySlug.
  const nameRuleError = usernameError(f.username, rules);
  useEffect(() => {
    if (nameRuleError) return;
    const name = f.username.trim();
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`${rt.config.relative_path}/api/v3/users/bySlug/${encodeURIComponent(name)}`, { method: 'HEAD', credentials: 'same-origin', signal: controller.signal })
        .then((res) => (res.status === 200 || res.status === 404) && setNameCheck({ name, taken: res.status === 200 }))
        // Offline or aborted: the server still refuses a taken name at submit.
        .catch(() => undefined);
    }, NAME_CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [f.username, nameRuleError, rt.config.relative_path]);
  const checked = nameCheck && nameCheck.name === f.username.trim() ? nameCheck : null;

  const errors = {
    username: nameRuleError ?? (checked?.taken ? 'error:username-taken' : null),
    email: emailError(f.email),
    // Until the strength scorer has loaded, only the length rules are judged: no flash of "weak".
    password: passwordError(f.password, rules, score ?? 4),
    confirm: f.confirm !== f.password ? 'reset_password:passwords-do-not-match' : null,
    terms: data.termsOfUse && !agree.terms ? 'register:terms_of_use_error' : null,
    gdpr: data.gdpr_enabled && !agree.gdpr ? 'register:gdpr-consent-denied' : null,
  };
  const shown = (k: keyof typeof errors) => (touched[k] && errors[k] ? t(errors[k]!, k === 'password' ? rules.minimumPasswordLength : '') : null);
  const set = (k: keyof typeof f) => (e: ChangeEvent<HTMLInputElement>) => setF({ ...f, [k]: e.target.value });
  const blur = (k: string) => () => setTouched((s) => ({ ...s, [k]: true }));
  const invalid = (k: keyof typeof errors) => (touched[k] && errors[k] ? ' is-invalid' : touched[k] ? ' is-valid' : '');
  // The username's mark follows the server's answer as typed: red when taken, green only once it is known to be free.
  const nameShown = checked?.taken ? t('error:username-taken') : shown('username');
  const nameClass = nameShown ? ' is-invalid' : !nameRuleError && checked && !checked.taken ? ' is-valid' : '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched({ username: true, email: true, password: true, confirm: true, terms: true, gdpr: true });
    // The strength scorer loads lazily: a quick submit must wait for it, not count as weak.
    let strength = score;
    if (strength === null && f.password) {
      strength = (await loadScorer())(f.password, [f.username, f.email]);
      setScore(strength);
    }
    const now = { ...errors, password: passwordError(f.password, rules, strength ?? 0) };
    if (Object.values(now).some(Boolean)) return;
    if (data.captcha && !altcha) return setError(t('error:captcha-required'));
    setBusy(true);
    setError(null);
    try {
      const res = await postSite<{ next?: string; message?: string }>(rt.config, '/register', {
        username: f.username,
        email: f.email,
        password: f.password,
        'password-confirm': f.confirm,
        ...(data.token ? { token: data.token } : {}),
        ...(data.termsOfUse ? { 'agree-terms': agree.terms } : {}),
        ...(data.gdpr_enabled ? { gdpr_consent: agree.gdpr } : {}),
        ...captchaFields(rt.config, altcha),
        ...(honeypot ? { website: honeypot } : {}),
      });
      if (res?.message) {
        setQueued(tx(res.message));
        setBusy(false);
        return;
      }
      location.href = afterLoginUrl(rt.config, res?.next);
    } catch (err) {
      setError(errorText(rt.i18n, err));
      setBusy(false);
      // A solution works once: a refused form gets a new challenge.
      if (data.captcha) setCaptchaRound((n) => n + 1);
    }
  };

  if (data.allowRegistration === false || !rt.config.allowRegistration) {
    return <AuthCard title={t('register:register')}><div className="alert alert-info mb-0">{t('error:registration-disabled')}</div></AuthCard>;
  }
  if (data.canRegister === false) {
    return <AuthCard title={t('register:register')}><div className="alert alert-info mb-0" role="status">{tx(`[[${data.reason}]]`)}</div></AuthCard>;
  }
  if (queued) {
    return <AuthCard title={t('register:registration-queue-waiting')}><div className="alert alert-success mb-0" role="status">{queued}</div></AuthCard>;
  }
  const strength = score ?? 0;
  return (
    <AuthCard title={t('register:register')} footer={<>{t('register:already-have-account')} <a href={`${rt.config.relative_path}/login`}>{t('global:login')}</a></>}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <FormError message={error} />
        {data.token && <div className="alert alert-info py-2 small">{t('register:invite.welcome')}</div>}
        <Field
          id={`${id}-u`}
          label={t('register:username')}
          error={nameShown}
          valid={nameClass === ' is-valid' ? t('register:username-available') : null}
          help={t('register:username-help', rules.minimumUsernameLength, rules.maximumUsernameLength)}
        >
          <input id={`${id}-u`} className={`form-control${nameClass}`} autoComplete="username" value={f.username} onChange={set('username')} onBlur={blur('username')} aria-invalid={!!nameShown} aria-describedby={nameShown ? `${id}-u-error` : `${id}-u-help`} required autoFocus />
        </Field>
        <Field id={`${id}-e`} label={t('register:email')} error={shown('email')}>
          <input id={`${id}-e`} type="email" className={`form-control${invalid('email')}`} autoComplete="email" value={f.email} onChange={set('email')} onBlur={blur('email')} aria-invalid={!!shown('email')} aria-describedby={shown('email') ? `${id}-e-error` : undefined} required />
        </Field>
        <Field id={`${id}-p`} label={t('register:password')} error={shown('password')} help={t('register:password-help', rules.minimumPasswordLength)}>
          <input id={`${id}-p`} type="password" className={`form-control${invalid('password')}`} autoComplete="new-password" value={f.password} onChange={set('password')} onBlur={blur('password')} aria-invalid={!!shown('password')} aria-describedby={`${id}-strength ${shown('password') ? `${id}-p-error` : `${id}-p-help`}`} required />
        </Field>
        <div className="mb-3" aria-live="polite">
          <div className="progress" style={{ height: 6 }} role="progressbar" aria-label={t('register:strength')} aria-valuemin={0} aria-valuemax={4} aria-valuenow={strength}>
            <div className={`progress-bar ${STRENGTH_CLASS[strength]}`} style={{ width: f.password ? `${((strength + 1) / 5) * 100}%` : '0%' }} />
          </div>
          <div id={`${id}-strength`} className="form-text">{f.password && score !== null ? t('register:strength-label', t(`register:strength-${strength}`)) : '\u00a0'}</div>
        </div>
        <Field id={`${id}-c`} label={t('register:confirm-password')} error={shown('confirm')}>
          <input id={`${id}-c`} type="password" className={`form-control${invalid('confirm')}`} autoComplete="new-password" value={f.confirm} onChange={set('confirm')} onBlur={blur('confirm')} aria-invalid={!!shown('confirm')} aria-describedby={shown('confirm') ? `${id}-c-error` : undefined} required />
        </Field>
        {data.termsOfUse && (
          <div className="mb-3">
            <div className="fw-semibold mb-1">{t('register:terms_of_use')}</div>
            <div className="tos border rounded p-2 small overflow-auto mb-2" style={{ maxHeight: 160 }} dangerouslySetInnerHTML={{ __html: data.termsOfUse }} />
            <Check id={`${id}-tos`} label={t('register:agree_to_terms_of_use')} checked={agree.terms} onChange={(v) => setAgree({ ...agree, terms: v })} error={shown('terms')} />
          </div>
        )}
        {data.gdpr_enabled && <Check id={`${id}-gdpr`} label={t('register:gdpr-agree')} checked={agree.gdpr} onChange={(v) => setAgree({ ...agree, gdpr: v })} error={shown('gdpr')} />}
        {/* People never see nor fill this field; a bot that fills every input is refused. */}
        <div className="visually-hidden" aria-hidden="true">
          <label htmlFor={`${id}-w`}>{t('register:honeypot-label')}</label>
          <input id={`${id}-w`} name="website" type="text" tabIndex={-1} autoComplete="off" value={honeypot} onChange={(e) => setHoneypot(e.target.value)} />
        </div>
        {data.captcha && <Captcha onSolved={setAltcha} round={captchaRound} />}
        <button type="submit" className="btn btn-primary w-100" disabled={busy || (data.captcha && !altcha)}>{busy ? t('register:registering') : t('register:register-now')}</button>
      </form>
    </AuthCard>
  );
}
