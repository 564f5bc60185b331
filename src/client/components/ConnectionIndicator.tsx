import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { useStore } from '../state/store';
import { Icon } from './Icon';

/** The live-connection indicator: spinner, plug (click retries) or a passing check mark. */
export function ConnectionIndicator() {
  const rt = useRuntime();
  const { t } = useT();
  const { view } = useStore(rt.connection);
  if (view === 'hidden') return null;
  const label = view === 'reconnecting' ? t('global:reconnecting-message', rt.config.siteTitle) : view === 'failed' ? t('error:socket-reconnect-failed') : t('global:reconnected');
  return (
    <div className={`connection-indicator shadow-sm connection-${view}`} role="status" aria-live="polite">
      {view === 'failed' ? (
        <button type="button" className="btn btn-sm btn-warning d-flex align-items-center gap-2" onClick={() => void rt.reconnect()} title={label}>
          <Icon name="plug" size={16} />
          <span className="visually-hidden">{label}</span>
        </button>
      ) : view === 'reconnecting' ? (
        <span className="d-flex align-items-center gap-2 px-2 py-1" title={label}>
          <span className="spinner-border spinner-border-sm" aria-hidden="true" />
          <span className="visually-hidden">{label}</span>
        </span>
      ) : (
        <span className="d-flex align-items-center gap-2 px-2 py-1 text-success" title={label}>
          <Icon name="check" size={16} />
          <span className="visually-hidden">{label}</span>
        </span>
      )}
    </div>
  );
}
