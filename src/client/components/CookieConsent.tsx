import { useEffect, useState } from 'react';
import { useRuntime } from '../app/runtime';

const COOKIE = 'cookieconsent_status';

/**
 * The cookie consent banner (admin: Settings > Cookies): shown while enabled until the
 * visitor dismisses it (remembered a year in a cookie). Its texts are the admin's plain text
 * (React escapes them); the link only ever leads to a forum path or an http(s) address.
 */
export function CookieConsent() {
  const rt = useRuntime();
  const c = rt.config.cookies;
  // After the first render only: the server does not know the visitor's choice.
  const [show, setShow] = useState(false);
  useEffect(() => {
    setShow(Boolean(c?.enabled) && !document.cookie.split('; ').includes(`${COOKIE}=dismiss`));
  }, [c?.enabled]);
  if (!c || !show) return null;
  const href = c.link_url.startsWith('/') ? `${rt.config.relative_path}${c.link_url}` : c.link_url;
  const dismiss = () => {
    document.cookie = `${COOKIE}=dismiss; path=${rt.config.relative_path || '/'}; max-age=${365 * 86400}; samesite=lax`;
    setShow(false);
  };
  return (
    <div className="cookie-consent position-fixed bottom-0 start-0 end-0 p-2" style={{ zIndex: 1080 }} role="region" aria-label={c.dismiss}>
      <div className="container-xxl d-flex flex-wrap align-items-center gap-2 bg-body-tertiary border rounded shadow-sm p-3">
        <p className="mb-0 flex-grow-1">
          {c.message}
          {c.link && /^(https?:\/\/|\/)/.test(c.link_url) && (
            <>
              {' '}
              <a href={href} rel="noopener">{c.link}</a>
            </>
          )}
        </p>
        <button type="button" className="btn btn-primary btn-sm" onClick={dismiss}>{c.dismiss}</button>
      </div>
    </div>
  );
}
