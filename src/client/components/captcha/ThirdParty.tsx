import { useEffect, useRef, useState } from 'react';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';

type Provider = 'recaptcha' | 'hcaptcha';

/** What reCAPTCHA's and hCaptcha's scripts put on window (the part used here: the same for both). */
interface WidgetApi {
  render(el: HTMLElement, opts: Record<string, unknown>): string | number;
  reset(id?: string | number): void;
  ready?(cb: () => void): void;
}

/** The widget's script; loaded only on a form that asks for the captcha, and only when the admin chose this provider. */
const SCRIPTS: Record<Provider, string> = {
  recaptcha: 'https://www.google.com/recaptcha/api.js?render=explicit',
  hcaptcha: 'https://js.hcaptcha.com/1/api.js?render=explicit',
};
const GLOBALS: Record<Provider, string> = { recaptcha: 'grecaptcha', hcaptcha: 'hcaptcha' };
const loading = new Map<Provider, Promise<WidgetApi>>();

function load(provider: Provider, lang: string): Promise<WidgetApi> {
  let p = loading.get(provider);
  if (!p) {
    p = new Promise<WidgetApi>((resolve, reject) => {
      const el = document.createElement('script');
      el.src = `${SCRIPTS[provider]}&hl=${encodeURIComponent(lang)}`;
      el.async = true;
      el.onload = () => {
        const api = (window as unknown as Record<string, WidgetApi | undefined>)[GLOBALS[provider]];
        if (!api) return reject(new Error('no widget'));
        if (api.ready) api.ready(() => resolve(api));
        else resolve(api);
      };
      el.onerror = () => {
        loading.delete(provider);
        reject(new Error('script failed'));
      };
      document.head.appendChild(el);
    });
    loading.set(provider, p);
  }
  return p;
}

/**
 * reCAPTCHA's or hCaptcha's widget, when the admin chose one instead of ALTCHA: its script comes
 * from the provider (the page's security policy allows it only then), the widget renders with
 * the admin's site key, and its token goes to the form. A new `round` resets it (a token works once).
 */
export function ThirdPartyCaptcha({ provider, onSolved, round = 0 }: { provider: Provider; onSolved: (token: string | null) => void; round?: number }) {
  const rt = useRuntime();
  const { t } = useT();
  const box = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: WidgetApi; id: string | number } | null>(null);
  const solved = useRef(onSolved);
  solved.current = onSolved;
  const [failed, setFailed] = useState(false);
  const cfg = rt.config.captcha;

  useEffect(() => {
    let gone = false;
    load(provider, cfg?.options.hl ?? 'en')
      .then((api) => {
        if (gone || !box.current || widget.current) return;
        const id = api.render(box.current, {
          sitekey: cfg?.publicKey ?? '',
          theme: cfg?.options.theme ?? 'light',
          callback: (token: string) => solved.current(token),
          'expired-callback': () => solved.current(null),
          'error-callback': () => solved.current(null),
        });
        widget.current = { api, id };
      })
      .catch(() => {
        if (!gone) setFailed(true);
      });
    return () => {
      gone = true;
    };
  }, [provider, cfg?.publicKey, cfg?.options.hl, cfg?.options.theme]);

  useEffect(() => {
    if (round === 0 || !widget.current) return;
    solved.current(null);
    widget.current.api.reset(widget.current.id);
  }, [round]);

  return (
    <div id={cfg?.targetId ?? `${provider}-captcha`} className="mb-3" data-provider={provider}>
      <div ref={box} />
      {failed && <div className="small text-danger">{t('register:captcha-failed')}</div>}
    </div>
  );
}
