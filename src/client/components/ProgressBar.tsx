import { useRuntime } from '../app/runtime';
import { useStore } from '../state/store';

/** The thin navigation progress bar at the top of the window. */
export function ProgressBar() {
  const value = useStore(useRuntime().progress);
  return (
    <div className={`nav-progress${value === null ? '' : ' active'}`} aria-hidden="true">
      <div className="nav-progress-bar" style={{ width: `${value ?? 0}%` }} />
    </div>
  );
}
