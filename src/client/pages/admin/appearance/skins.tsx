import { useEffect, useState } from 'react';
import type { AdminSkin, AdminSkinsPage } from '../../../../shared/schemas/admin-appearance';
import type { ClientConfig, PageBase } from '../../../../shared/types';
import { skinHref } from '../../../app/settings';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { PageHeader } from '../../../components/PageHeader';
import { errorText } from '../../../i18n';
import { saveSettings } from './save';

/**
 * A sample page in the skin's own stylesheet, for the live preview (same origin, no script),
 * in the admin page's direction: the skin's RTL build on an ar, he or fa page.
 */
function previewDoc(skin: AdminSkin, t: (k: string) => string, config: ClientConfig): string {
  const html = document.documentElement;
  const dir = html.dir === 'rtl' ? 'rtl' : 'ltr';
  const href = skin.value ? skinHref(config.asset_base_url, skin.value, config['cache-buster'], dir) : '';
  const css = href ? `<link rel="stylesheet" href="${href}">` : '';
  const base = document.querySelector<HTMLLinkElement>('link#bootstrap-css')?.href ?? '';
  const plain = !href && base ? `<link rel="stylesheet" href="${base}">` : '';
  return `<!doctype html><html lang="${html.lang}" dir="${dir}" data-bs-theme="${skin.dark ? 'dark' : 'light'}"><head>${plain}${css}</head><body class="p-3">
<h5>${skin.name}</h5><p class="text-body-secondary small">${t('admin-appearance:skins.sample-text')}</p>
<div class="d-flex flex-wrap gap-2 mb-3"><button class="btn btn-primary btn-sm">Primary</button><button class="btn btn-secondary btn-sm">Secondary</button><button class="btn btn-outline-primary btn-sm">Outline</button><span class="badge text-bg-success align-self-center">Success</span><span class="badge text-bg-danger align-self-center">Danger</span></div>
<div class="card"><div class="card-body"><h6 class="card-title">${t('admin-appearance:skins.sample-topic')}</h6><a href="#">${t('admin-appearance:skins.sample-link')}</a></div></div>
<div class="alert alert-info mt-3 mb-0 py-2 small">${t('admin-appearance:skins.sample-alert')}</div></body></html>`;
}

/** The admin's skins page: every skin as a swatch, a live preview, the forum's default and the skins members may pick. */
export default function AdminSkins({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminSkinsPage;
  const [current, setCurrent] = useState(data.bootswatchSkin);
  const [preview, setPreview] = useState(data.bootswatchSkin);
  const [allowed, setAllowed] = useState<string[]>(data.allowedSkins.length ? data.allowedSkins : data.skins.filter((s) => s.value).map((s) => s.value));
  const [busy, setBusy] = useState(false);
  // The preview is built in the browser (it names the page's own stylesheets), after hydration.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const all = data.skins.filter((s) => s.value).map((s) => s.value);
  const shown = data.skins.find((s) => s.value === preview) ?? data.skins[0]!;
  const fail = (err: unknown) => rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
  const ok = () => rt.alert({ type: 'success', message: t('admin-appearance:saved'), timeout: 3000 });

  const choose = async (value: string) => {
    setBusy(true);
    try {
      // The default must stay one members may see: allow it when it was left out.
      const nextAllowed = value && !allowed.includes(value) ? [...allowed, value] : allowed;
      await saveSettings(rt.config, { bootswatchSkin: value, allowedSkins: nextAllowed.length === all.length ? '' : nextAllowed.join(',') });
      setAllowed(nextAllowed);
      setCurrent(value);
      ok();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  const toggleAllowed = async (value: string, on: boolean) => {
    const next = on ? all.filter((v) => v === value || allowed.includes(v)) : allowed.filter((v) => v !== value);
    try {
      await saveSettings(rt.config, { allowedSkins: next.length === all.length ? '' : next.join(',') });
      setAllowed(next);
      ok();
    } catch (err) {
      fail(err);
    }
  };

  return (
    <>
      <PageHeader title={t('admin-appearance:skins.title')} subtitle={t('admin-appearance:skins.intro')} />
      <div className="row g-3">
        <div className="col-12 col-xl-8">
          <ul className="skin-grid list-unstyled row row-cols-1 row-cols-sm-2 row-cols-lg-3 g-2 mb-0" aria-label={t('admin-appearance:skins.list')}>
            {data.skins.map((s) => {
              const isDefault = current === s.value;
              const mayPick = !s.value || allowed.includes(s.value);
              return (
                <li key={s.value || 'bootstrap'} className="col">
                  <div className={`card h-100${isDefault ? ' border-primary border-2' : ''}`} data-skin={s.value || 'bootstrap'}>
                    <button type="button" className="btn p-0 border-0 text-start" onClick={() => setPreview(s.value)} aria-label={t('admin-appearance:skins.preview-of', s.name)} aria-pressed={preview === s.value}>
                      <div className="d-flex rounded-top overflow-hidden" style={{ background: s.colours.bg, height: '3.5rem' }} aria-hidden="true">
                        <div className="d-flex flex-column justify-content-center gap-1 px-2" style={{ minWidth: '5.5rem' }}>
                          <div className="rounded-pill" style={{ background: s.colours.fg, height: '0.4rem', width: '3.5rem' }} />
                          <div className="rounded-pill" style={{ background: s.colours.fg, height: '0.4rem', width: '2.5rem', opacity: 0.6 }} />
                        </div>
                        {(['primary', 'secondary', 'success', 'danger', 'warning', 'info'] as const).map((c) => (
                          <div key={c} className="flex-grow-1" style={{ background: s.colours[c] }} />
                        ))}
                      </div>
                    </button>
                    <div className="card-body py-2 px-2 d-flex flex-wrap align-items-center gap-2">
                      <span className="fw-semibold me-auto">{s.name}</span>
                      {s.dark && <span className="badge text-bg-dark">{t('admin-appearance:skins.dark')}</span>}
                      {isDefault ? (
                        <span className="badge text-bg-primary">{t('admin-appearance:skins.current-default')}</span>
                      ) : (
                        <button type="button" className="btn btn-sm btn-outline-primary" disabled={busy} onClick={() => void choose(s.value)} aria-label={t('admin-appearance:skins.make-default-of', s.name)}>
                          {t('admin-appearance:skins.make-default')}
                        </button>
                      )}
                      {s.value && (
                        <div className="form-check form-switch w-100 mb-0 small">
                          <input
                            className="form-check-input"
                            type="checkbox"
                            role="switch"
                            id={`allow-${s.value}`}
                            checked={mayPick}
                            disabled={isDefault}
                            onChange={(e) => void toggleAllowed(s.value, e.target.checked)}
                          />
                          <label className="form-check-label" htmlFor={`allow-${s.value}`}>{t('admin-appearance:skins.members-may-pick')}</label>
                        </div>
                      )}
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>
        </div>
        <section className="col-12 col-xl-4" aria-labelledby="skin-preview-title">
          <div className="card position-sticky" style={{ top: '1rem' }}>
            <div className="card-body">
              <h2 id="skin-preview-title" className="h6">{t('admin-appearance:skins.preview', shown.name)}</h2>
              <iframe
                key={shown.value || 'bootstrap'}
                className="w-100 border rounded"
                style={{ height: '18rem' }}
                title={t('admin-appearance:skins.preview', shown.name)}
                sandbox="allow-same-origin"
                srcDoc={mounted ? previewDoc(shown, t, rt.config) : ''}
              />
              <p className="small text-body-secondary mt-2 mb-0">{t('admin-appearance:skins.members-note')}</p>
            </div>
          </div>
        </section>
      </div>
    </>
  );
}
