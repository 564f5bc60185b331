import { useEffect, useId, useState, type FormEvent } from 'react';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { LoginTwoFactorPage, TwoFactorVariant } from '../../shared/security';
import type { PageBase } from '../../shared/types';
import { postSite, ApiError, apiError } from '../app/api';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { errorText } from '../i18n';
import { AuthCard, FormError, afterLoginUrl } from './auth-shared';
import { getAssertion } from './webauthn';

const SWITCH_LABEL: Record<TwoFactorVariant, string> = {
  authn: 'login:two-factor.use-authn',
  totp: 'login:two-factor.use-totp',
  backup: 'login:two-factor.use-backup',
};

/**
 * The second login step and the admin re-authentication (`/login/2fa`, variants `authn`,
 * `totp` and `backup`): the member's security key, a code from the authenticator app, or one
 * of the backup codes, with links to the other variants the member has. The page is the same
 * for every guest (it may be cached), so a login asks the server which variants its member has.
 */
export default function LoginTwoFactor({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const data = page as LoginTwoFactorPage;
  const id = useId();
  const [variants, setVariants] = useState<TwoFactorVariant[] | null>(data.variants.length > 0 ? data.variants : null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const [busy, setBusy] = useState(false);
  const rp = rt.config.relative_path;
  const nextQuery = data.next && data.next !== '/' ? `?next=${encodeURIComponent(data.next)}` : '';

  useEffect(() => {
    if (data.variants.length > 0) return setVariants(data.variants);
    let live = true;
    void (async () => {
      try {
        const res = await fetch(`${rp}/login/2fa/variants`, { headers: { Accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
        const json: unknown = await res.json().catch(() => null);
        if (!res.ok) throw apiError(res.status, json);
        if (live) setVariants((json as { variants: TwoFactorVariant[] }).variants);
      } catch (err) {
        if (!live) return;
        setExpired(err instanceof ApiError && err.key === 'error:two-factor-login-expired');
        setError(errorText(rt.i18n, err));
        setVariants([]);
      }
    })();
    return () => {
      live = false;
    };
  }, [data.variants, rp, rt.i18n]);

  // A path without a variant shows the member's first one (security key, then app, then backup).
  const variant: TwoFactorVariant = data.chosen ? data.variant : (variants?.[0] ?? data.variant);
  const totp = variant === 'totp';
  const others = (variants ?? []).filter((v) => v !== variant);

  const done = (next: string) => {
    // A new session (or a re-authenticated one): a full load picks up its CSRF token.
    location.href = data.reauth ? next : afterLoginUrl(rt.config, next);
  };
  const failed = (err: unknown) => {
    setExpired(err instanceof ApiError && err.key === 'error:two-factor-login-expired');
    setError(errorText(rt.i18n, err));
    setBusy(false);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return setError(t(totp ? 'error:two-factor-invalid-code' : 'error:two-factor-invalid-backup-code'));
    setBusy(true);
    setError(null);
    try {
      const res = await postSite<{ next: string }>(rt.config, `/login/2fa/${variant}`, { code: code.trim(), next: data.next });
      done(res.next);
    } catch (err) {
      setCode('');
      failed(err);
    }
  };

  const proveKey = async () => {
    setBusy(true);
    setError(null);
    try {
      const options = await postSite<PublicKeyCredentialRequestOptionsJSON>(rt.config, '/login/2fa/authn/options', {});
      const response = await getAssertion(options);
      const res = await postSite<{ next: string }>(rt.config, '/login/2fa/authn', { response, next: data.next });
      done(res.next);
    } catch (err) {
      failed(err);
    }
  };

  const intro =
    variant === 'authn'
      ? data.reauth
        ? 'login:two-factor.reauth-authn-intro'
        : 'login:two-factor.authn-intro'
      : data.reauth
        ? 'login:two-factor.reauth-intro'
        : totp
          ? 'login:two-factor.totp-intro'
          : 'login:two-factor.backup-intro';
  // Until the login's variants are known, nothing is offered (the first one may not be a code).
  const waiting = variants === null && !data.chosen;

  return (
    <AuthCard
      title={t('login:two-factor.title')}
      footer={
        others.length > 0 ? (
          <nav aria-label={t('login:two-factor.other-ways')} className="d-flex flex-column gap-2">
            {others.map((v) => (
              <a key={v} href={`${rp}/login/2fa/${v}${nextQuery}`} data-testid="two-factor-switch" data-variant={v}>
                {t(SWITCH_LABEL[v])}
              </a>
            ))}
          </nav>
        ) : undefined
      }
    >
      <FormError message={error} />
      {expired && (
        <p>
          <a href={`${rp}/login`}>{t('login:two-factor.login-again')}</a>
        </p>
      )}
      {waiting ? (
        <div className="text-center py-3" aria-busy="true">
          <span className="spinner-border spinner-border-sm text-secondary" role="status" aria-label={t('global:loading')} />
        </div>
      ) : variant === 'authn' ? (
        <div data-testid="authn-step">
          <p className="text-body-secondary">{t(intro)}</p>
          {busy && (
            <p className="small text-body-secondary" role="status">
              {t('login:two-factor.authn-waiting')}
            </p>
          )}
          <button type="button" className="btn btn-primary btn-lg w-100" disabled={busy} onClick={() => void proveKey()} data-testid="authn-start">
            {t('login:two-factor.authn-button')}
          </button>
        </div>
      ) : (
        <>
          <p className="text-body-secondary">{t(intro)}</p>
          <form onSubmit={(e) => void submit(e)} noValidate>
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
        </>
      )}
    </AuthCard>
  );
}
