import { useState } from 'react';
import type { AdminCachePage } from '../../../../shared/schemas/admin-advanced';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { errorText } from '../../../i18n';
import { PageHeader } from '../../../components/PageHeader';

/** admin/advanced/cache: each cache's size and hit rate, with a clear button. */
export default function AdminCache({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminCachePage;
  const [busy, setBusy] = useState<string | null>(null);
  const clear = async (name: string) => {
    setBusy(name);
    try {
      await api(rt.config, 'DELETE', `/admin/cache/${name}`);
      rt.alert({ type: 'success', message: t('admin-advanced:cache.cleared', t(`admin-advanced:cache.name-${name}`)), timeout: 3000 });
      rt.navigate(window.location.pathname, { replace: true, force: true });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <PageHeader title={t('admin-advanced:cache.title')} subtitle={t('admin-advanced:cache.help')} />
      <div className="row g-3">
        {data.caches.map((c) => {
          const pct = Math.round(Number(c.hitRatio) * 100);
          return (
            <div key={c.name} className="col-sm-6 col-xl-3">
              <section className="card h-100" data-cache={c.name} aria-labelledby={`cache-${c.name}`}>
                <h2 className="card-header h6" id={`cache-${c.name}`}>{t(`admin-advanced:cache.name-${c.name}`)}</h2>
                <div className="card-body small">
                  <dl className="row mb-2">
                    <dt className="col-6">{t('admin-advanced:cache.length')}</dt>
                    <dd className="col-6 text-end" data-field="length">{c.length.toLocaleString()}</dd>
                    <dt className="col-6">{t('admin-advanced:cache.hits')}</dt>
                    <dd className="col-6 text-end">{c.hits.toLocaleString()}</dd>
                    <dt className="col-6">{t('admin-advanced:cache.misses')}</dt>
                    <dd className="col-6 text-end">{c.misses.toLocaleString()}</dd>
                    <dt className="col-6">{t('admin-advanced:cache.ttl')}</dt>
                    <dd className="col-6 text-end">{c.ttl ? `${c.ttl / 1000} s` : '—'}</dd>
                  </dl>
                  <div className="progress mb-2" role="progressbar" aria-label={t('admin-advanced:cache.hit-ratio')} aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100}>
                    <div className="progress-bar" style={{ width: `${pct}%` }}>{pct}%</div>
                  </div>
                  {!c.enabled && <p className="text-body-secondary mb-2">{t('admin-advanced:cache.disabled')}</p>}
                  <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy !== null} onClick={() => void clear(c.name)}>
                    {t('admin-advanced:cache.clear')}<span className="visually-hidden"> {t(`admin-advanced:cache.name-${c.name}`)}</span>
                  </button>
                </div>
              </section>
            </div>
          );
        })}
      </div>
    </>
  );
}
