import { useEffect } from 'react';
import { useRuntime } from '../app/runtime';
import { useT } from '../app/hooks';
import { useStore } from '../state/store';
import type { AlertItem } from '../state/alerts';
import { Icon } from './Icon';

function AlertToast({ alert }: { alert: AlertItem }) {
  const rt = useRuntime();
  const { t, tx } = useT();
  // A fresh timer per version: reusing an id restarts the countdown.
  useEffect(() => {
    if (!alert.timeout) return;
    const timer = setTimeout(() => {
      rt.closeAlert(alert.alert_id);
      alert.timeoutfn?.();
    }, alert.timeout);
    return () => clearTimeout(timer);
  }, [alert.alert_id, alert.version, alert.timeout]);

  const close = () => {
    rt.closeAlert(alert.alert_id);
    alert.closefn?.();
  };
  const click = () => {
    if (!alert.clickfn) return;
    rt.closeAlert(alert.alert_id);
    alert.clickfn();
  };
  return (
    <div
      className={`toast show align-items-center border-0 text-bg-${alert.type} alert-toast`}
      role={alert.type === 'danger' ? 'alert' : 'status'}
      aria-live={alert.type === 'danger' ? 'assertive' : 'polite'}
      aria-atomic="true"
      data-alert-id={alert.alert_id}
    >
      <div className="d-flex">
        <div className={`toast-body flex-grow-1${alert.clickfn ? ' clickable' : ''}`} onClick={click} onKeyDown={(e) => e.key === 'Enter' && click()} tabIndex={alert.clickfn ? 0 : undefined}>
          {alert.title && <strong className="d-block">{tx(alert.title)}</strong>}
          <span>{tx(alert.message)}</span>
        </div>
        <button type="button" className="btn btn-link text-reset me-1 p-2 align-self-start" onClick={close} aria-label={t('global:close')}>
          <Icon name="x" size={16} />
        </button>
      </div>
    </div>
  );
}

/** The stack of alerts (toasts) in the corner of the screen. */
export function Alerts() {
  const rt = useRuntime();
  const list = useStore(rt.alerts);
  const composer = useStore(rt.composer);
  // Toasts must never cover the open composer's buttons: they move out of its way.
  const clear = composer && !composer.minimized && rt.page.get().page.template?.name !== 'compose' ? ' alerts-above-composer' : '';
  return (
    <div className={`toast-container position-fixed bottom-0 end-0 p-3 alerts-area${clear}`}>
      {list.map((a) => (
        <AlertToast key={a.alert_id} alert={a} />
      ))}
    </div>
  );
}
