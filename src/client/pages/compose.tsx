import { useEffect } from 'react';
import type { PageBase } from '../../shared/types';
import { useCurrentPath, useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { errorText } from '../i18n';
import { useStore } from '../state/store';
import { composerStateFor } from '../components/composer/actions';
import { ComposerForm } from '../components/composer/ComposerForm';
import { requestFromQuery } from '../components/composer/payload';

/** The compose route (composeRouteEnabled): the composer as a full page, from its query. */
export default function Compose(_props: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const path = useCurrentPath();
  const state = useStore(rt.composer);
  useEffect(() => {
    const req = requestFromQuery(path.split('?')[1] ?? '');
    composerStateFor(rt, req)
      .then((s) => rt.composer.set(s))
      .catch((err: Error) => rt.alert({ type: 'danger', message: errorText(rt.i18n, err) }));
  }, [path, rt]);
  return (
    <div className="card">
      <div className="card-body compose-page">
        {state ? <ComposerForm variant="page" /> : <p className="text-body-secondary mb-0">{t('global:loading')}</p>}
      </div>
    </div>
  );
}
