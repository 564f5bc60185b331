import { Component, lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { usePage } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { useStore } from '../../state/store';
import { clampHeight, saveHeight, savedHeight } from './resize';

// The composer's form (toolbar, autocomplete, preview, tags) is its own chunk, loaded when a
// composer first opens (spec §2: composer parts are loaded lazily).
const ComposerForm = lazy(() => import('./ComposerForm').then((m) => ({ default: m.ComposerForm })));

/** Shows a short message instead of the form when its chunk cannot be loaded (offline). */
class ChunkBoundary extends Component<{ message: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <p className="text-danger small m-0">{this.props.message}</p> : this.props.children;
  }
}

/**
 * The inline composer docked at the bottom of the window (not on the compose page). On wide
 * screens its top edge drags to resize it (the height is remembered); on phones it fills the screen.
 */
export function Composer() {
  const rt = useRuntime();
  const state = useStore(rt.composer);
  const page = usePage();
  const [height, setHeight] = useState<number | null>(null);
  const drag = useRef<{ startY: number; startH: number } | null>(null);
  const box = useRef<HTMLElement>(null);
  const [measured, setMeasured] = useState(0);
  useEffect(() => setHeight(savedHeight(localStorage)), []);
  useEffect(() => setMeasured(box.current?.offsetHeight ?? 0), [state?.save_id, state?.minimized, height]);
  if (!state || page.template?.name === 'compose') return null;

  const resizeTo = (px: number, save: boolean) => {
    const h = clampHeight(px, window.innerHeight);
    setHeight(h);
    if (save) saveHeight(localStorage, h);
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { startY: e.clientY, startH: box.current?.offsetHeight ?? 0 };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) resizeTo(drag.current.startH + drag.current.startY - e.clientY, false);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    resizeTo(drag.current.startH + drag.current.startY - e.clientY, true);
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
    e.preventDefault();
    resizeTo((box.current?.offsetHeight ?? 0) + (e.key === 'ArrowUp' ? 40 : -40), true);
  };
  const label = rt.i18n.t('modules:composer.resize');
  return (
    <section
      ref={box}
      className={`composer shadow-lg${state.minimized ? ' minimized' : ''}${height ? ' composer-sized' : ''}`}
      style={height && !state.minimized ? { ['--composer-h' as string]: `${height}px` } : undefined}
      aria-label={rt.i18n.t('modules:composer.label')}
    >
      {!state.minimized && (
        <div
          className="composer-resizer d-none d-lg-block"
          role="separator"
          aria-orientation="horizontal"
          aria-label={label}
          title={label}
          tabIndex={0}
          aria-valuenow={measured}
          aria-valuemin={200}
          aria-valuemax={typeof window === 'undefined' ? 0 : window.innerHeight}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => (drag.current = null)}
          onKeyDown={onKeyDown}
        />
      )}
      <ChunkBoundary message={rt.i18n.t('modules:composer.load-failed')}>
        <Suspense fallback={<p className="text-body-secondary small m-0">{rt.i18n.t('global:loading')}</p>}>
          <ComposerForm variant="docked" />
        </Suspense>
      </ChunkBoundary>
    </section>
  );
}
