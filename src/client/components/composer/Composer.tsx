import { usePage } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { useStore } from '../../state/store';
import { ComposerForm } from './ComposerForm';

/** The inline composer docked at the bottom of the window (not on the compose page). */
export function Composer() {
  const rt = useRuntime();
  const state = useStore(rt.composer);
  const page = usePage();
  if (!state || page.template?.name === 'compose') return null;
  return (
    <section className={`composer shadow-lg${state.minimized ? ' minimized' : ''}`} aria-label={rt.i18n.t('modules:composer.label')}>
      <ComposerForm variant="docked" />
    </section>
  );
}
