import { useCallback, useEffect, useState } from 'react';
import type { PushDevice, WebPushPage } from '../../../shared/schemas/push';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime, type Runtime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Timeago } from '../../components/Timeago';
import { AccountNav } from './AccountNav';

const BASE = '/plugins/web-push';
const READY_TIMEOUT_MS = 10_000;

/** What this browser can do about push: found out after hydration (the server cannot know). */
type BrowserState = 'checking' | 'unsupported' | 'insecure' | 'denied' | 'dismissed' | 'off' | 'on';

/** The browser's PushManager, when it has one. */
async function registration(rt: Runtime): Promise<ServiceWorkerRegistration> {
  const rp = rt.config.relative_path;
  // The app registers the worker at start (not in Safari): register it here when it did not.
  const existing = await navigator.serviceWorker.getRegistration(`${rp}/`);
  if (!existing) await navigator.serviceWorker.register(`${rp}/service-worker.js`, { scope: `${rp}/` });
  // `ready` never settles when the worker cannot start: give up after a while instead of spinning.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('service worker not ready')), READY_TIMEOUT_MS)));
  try {
    return await Promise.race([navigator.serviceWorker.ready, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The first 16 hex characters of sha-256(endpoint): how the server names a browser without showing its endpoint. */
async function endpointId(endpoint: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(endpoint));
  return [...new Uint8Array(digest)]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, 16);
}

/** The VAPID key as the bytes PushManager.subscribe wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** "Chrome · Android" from a user agent; the raw text when nothing is recognised. */
export function describeAgent(ua: string): string {
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /OPR\//.test(ua)
        ? 'Opera'
        : /Chrome\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : '';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : '';
  return browser && os ? `${browser} · ${os}` : browser || os || ua || '?';
}

/**
 * The account page `web-push`: turns push notifications on or off for this browser (asks
 * permission, subscribes through the service worker with the forum's VAPID key, posts the
 * subscription) and lists the member's browsers, each removable.
 */
export default function WebPush({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as WebPushPage;
  const [devices, setDevices] = useState<PushDevice[]>(data.devices ?? []);
  const [state, setState] = useState<BrowserState>('checking');
  const [thisId, setThisId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => setDevices(data.devices ?? []), [data.devices]);

  // What this browser supports and whether it is subscribed (and known to the forum).
  const check = useCallback(
    async (list: PushDevice[]) => {
      if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return setState('unsupported');
      if (!window.isSecureContext) return setState('insecure');
      if (Notification.permission === 'denied') return setState('denied');
      const reg = await navigator.serviceWorker.getRegistration(`${rt.config.relative_path}/`);
      const sub = await reg?.pushManager.getSubscription();
      const id = sub ? await endpointId(sub.endpoint) : null;
      setThisId(id);
      setState(id && list.some((d) => d.endpointId === id) ? 'on' : 'off');
    },
    [rt],
  );
  useEffect(() => {
    check(devices).catch(() => setState('unsupported'));
  }, [check, devices]);

  const reload = async () => setDevices((await api<{ devices: PushDevice[] }>(rt.config, 'GET', `${BASE}/subscriptions`)).devices);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (err) {
      rt.alert({ type: 'danger', message: t('user:web-push.failed', errorText(rt.i18n, err)) });
    } finally {
      setBusy(false);
    }
  };

  const turnOn = () =>
    run(async () => {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') return setState(permission === 'denied' ? 'denied' : 'dismissed');
      const reg = await registration(rt);
      const options = { userVisibleOnly: true, applicationServerKey: keyBytes(data.vapidKey) };
      let sub: PushSubscription;
      try {
        sub = await reg.pushManager.subscribe(options);
      } catch (err) {
        // Subscribed earlier with another key (the forum's keys were remade): start again.
        const old = await reg.pushManager.getSubscription();
        if (!old) throw err;
        await old.unsubscribe();
        sub = await reg.pushManager.subscribe(options);
      }
      await api(rt.config, 'POST', `${BASE}/subscription`, { subscription: sub.toJSON() });
      await reload();
      rt.alert({ type: 'success', message: t('user:web-push.enabled') });
    });

  const turnOff = () =>
    run(async () => {
      const reg = await navigator.serviceWorker.getRegistration(`${rt.config.relative_path}/`);
      const sub = await reg?.pushManager.getSubscription();
      if (sub) {
        await api(rt.config, 'DELETE', `${BASE}/subscription`, { endpoint: sub.endpoint }).catch(() => undefined);
        await sub.unsubscribe();
      }
      await reload();
      rt.alert({ type: 'info', message: t('user:web-push.disabled') });
    });

  const remove = (d: PushDevice) =>
    run(async () => {
      await api(rt.config, 'DELETE', `${BASE}/subscriptions/${d.id}`);
      if (d.endpointId === thisId) {
        const reg = await navigator.serviceWorker.getRegistration(`${rt.config.relative_path}/`);
        await (await reg?.pushManager.getSubscription())?.unsubscribe();
      }
      await reload();
      rt.alert({ type: 'success', message: t('user:web-push.removed') });
    });

  const sendTest = () =>
    run(async () => {
      await api(rt.config, 'POST', `${BASE}/test`, {});
      rt.alert({ type: 'info', message: t('user:web-push.test-sent') });
    });

  const message: Record<BrowserState, string> = {
    checking: t('user:web-push.checking'),
    unsupported: t('user:web-push.unsupported'),
    insecure: t('user:web-push.insecure'),
    denied: t('user:web-push.denied'),
    dismissed: t('user:web-push.dismissed'),
    off: t('user:web-push.state-off'),
    on: t('user:web-push.state-on'),
  };
  const actions = state === 'off' || state === 'dismissed' || state === 'on' || devices.length > 0;
  const problem = state === 'unsupported' || state === 'insecure' || state === 'denied';

  return (
    <>
      <AccountNav userslug={data.userslug} active="web-push" own />
      <PageHeader title={t('user:web-push.title')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="bell" size={28} />} />
      <section className="card mb-4" aria-labelledby="web-push-browser" data-testid="web-push-browser">
        <div className="card-body">
          <h2 id="web-push-browser" className="h5">
            {t('user:web-push.this-browser')}
          </h2>
          {data.isSelf && <p className="text-body-secondary">{t('user:web-push.intro')}</p>}
          {data.isSelf ? (
            <>
              <div
                className={`alert ${problem || state === 'dismissed' ? 'alert-warning' : state === 'on' ? 'alert-success' : 'alert-secondary'} d-flex gap-2 align-items-center${actions ? '' : ' mb-0'}`}
                role="status"
                data-testid="web-push-state"
                data-state={state}
              >
                <Icon name={problem ? 'alert' : state === 'on' ? 'check' : 'bell'} />
                <span>{message[state]}</span>
              </div>
              {actions && (
                <div className="d-flex flex-wrap gap-2">
                  {(state === 'off' || state === 'dismissed') && (
                    <button type="button" className="btn btn-primary" onClick={() => void turnOn()} disabled={busy} data-testid="web-push-enable">
                      {t('user:web-push.enable')}
                    </button>
                  )}
                  {state === 'on' && (
                    <button type="button" className="btn btn-outline-secondary" onClick={() => void turnOff()} disabled={busy} data-testid="web-push-disable">
                      {t('user:web-push.disable')}
                    </button>
                  )}
                  {devices.length > 0 && (
                    <button type="button" className="btn btn-outline-primary" onClick={() => void sendTest()} disabled={busy} data-testid="web-push-test">
                      {t('user:web-push.test')}
                    </button>
                  )}
                </div>
              )}
            </>
          ) : (
            <div className="alert alert-info mb-0" role="status">
              {t('user:web-push.not-self', data.username)}
            </div>
          )}
        </div>
      </section>
      <section className="card" aria-labelledby="web-push-devices">
        <div className="card-header">
          <h2 id="web-push-devices" className="h6 mb-0">
            {t('user:web-push.devices')}
          </h2>
        </div>
        {devices.length ? (
          <ul className="list-group list-group-flush" data-testid="web-push-devices">
            {devices.map((d) => (
              <li key={d.id} className="list-group-item d-flex flex-wrap gap-2 align-items-center">
                <div className="flex-grow-1 min-w-0">
                  <div className="fw-semibold text-truncate" title={d.userAgent}>
                    {describeAgent(d.userAgent)}
                    {d.endpointId === thisId && <span className="badge text-bg-primary ms-2">{t('user:web-push.this-browser')}</span>}
                  </div>
                  <div className="small text-body-secondary text-truncate">
                    {d.service} · {t('user:web-push.subscribed-on')} <Timeago iso={d.createdISO} />
                  </div>
                </div>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-danger"
                  onClick={() => void remove(d)}
                  disabled={busy}
                  aria-label={`${t('user:web-push.remove')}: ${describeAgent(d.userAgent)}`}
                >
                  <Icon name="trash" size={16} /> {t('user:web-push.remove')}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <div className="card-body text-body-secondary" data-testid="web-push-no-devices">
            {t('user:web-push.no-devices')}
          </div>
        )}
      </section>
    </>
  );
}
