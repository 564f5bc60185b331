import { useState, type FormEvent } from 'react';
import type { AdminCustomisePage } from '../../../../shared/schemas/admin-appearance';
import type { PageBase } from '../../../../shared/types';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { PageHeader } from '../../../components/PageHeader';
import { errorText } from '../../../i18n';
import { saveSettings } from './save';

type Tab = 'css' | 'html' | 'js' | 'brand';
const BRAND = [
  { key: 'brand:logo', route: 'uploadlogo', label: 'admin-appearance:customise.logo' },
  { key: 'brand:favicon', route: 'uploadfavicon', label: 'admin-appearance:customise.favicon' },
  { key: 'brand:touchIcon', route: 'uploadTouchIcon', label: 'admin-appearance:customise.touch-icon' },
  { key: 'og:image', route: 'uploadOgImage', label: 'admin-appearance:customise.og-image' },
] as const;

/** The admin's customise page: custom CSS, header HTML and JavaScript (each with its switch and warnings), and the brand images. */
export default function AdminCustomise({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminCustomisePage;
  const [tab, setTab] = useState<Tab>('css');
  const [v, setV] = useState({
    customCSS: data.customCSS, useCustomCSS: data.useCustomCSS,
    customHTML: data.customHTML, useCustomHTML: data.useCustomHTML,
    customJS: data.customJS, useCustomJS: data.useCustomJS,
  });
  const [brand, setBrand] = useState<Record<string, string>>(data.brand);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof typeof v>(key: K, value: (typeof v)[K]) => setV((old) => ({ ...old, [key]: value }));
  const fail = (err: unknown) => rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      await saveSettings(rt.config, v);
      rt.alert({ type: 'success', message: t('admin-appearance:saved'), timeout: 3000 });
    } catch (err) {
      fail(err);
    } finally {
      setSaving(false);
    }
  };

  const upload = async (key: string, route: string, file: File | undefined) => {
    if (!file) return;
    const form = new FormData();
    form.append('files[]', file);
    try {
      const res = await fetch(`${rt.config.relative_path}/api/admin/${route}`, { method: 'POST', body: form, headers: { 'x-csrf-token': rt.config.csrf_token }, credentials: 'same-origin' });
      const json = (await res.json()) as { response?: { url?: string }; status?: { key?: string; message?: string; params?: unknown[] } };
      if (!res.ok) throw Object.assign(new Error(json.status?.message ?? String(res.status)), { key: json.status?.key, params: json.status?.params });
      setBrand((b) => ({ ...b, [key]: json.response?.url ?? '' }));
      rt.alert({ type: 'success', message: t('admin-appearance:customise.uploaded'), timeout: 3000 });
    } catch (err) {
      fail(err);
    }
  };
  const removeBrand = async (key: string) => {
    try {
      await saveSettings(rt.config, { [key]: '' });
      setBrand((b) => ({ ...b, [key]: '' }));
    } catch (err) {
      fail(err);
    }
  };

  const tabs: [Tab, string][] = [
    ['css', 'admin-appearance:customise.css'],
    ['html', 'admin-appearance:customise.html'],
    ['js', 'admin-appearance:customise.js'],
    ['brand', 'admin-appearance:customise.brand'],
  ];
  return (
    <>
      <PageHeader title={t('admin-appearance:customise.title')} subtitle={t('admin-appearance:customise.intro')} />
      <ul className="nav nav-tabs mb-3 flex-nowrap overflow-auto" role="tablist">
        {tabs.map(([id, label]) => (
          <li className="nav-item" role="presentation" key={id}>
            <button type="button" role="tab" id={`tab-${id}`} aria-controls={`panel-${id}`} aria-selected={tab === id} className={`nav-link text-nowrap${tab === id ? ' active' : ''}`} onClick={() => setTab(id)}>
              {t(label)}
            </button>
          </li>
        ))}
      </ul>
      {tab !== 'brand' ? (
        <form onSubmit={(e) => void save(e)} role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
          {tab === 'css' && (
            <Editor
              id="customCSS" label={t('admin-appearance:customise.css-label')} help={t('admin-appearance:customise.css-help')}
              value={v.customCSS} onChange={(x) => set('customCSS', x)}
              switchLabel={t('admin-appearance:customise.use-css')} on={v.useCustomCSS} onSwitch={(x) => set('useCustomCSS', x)}
            />
          )}
          {tab === 'html' && (
            <Editor
              id="customHTML" label={t('admin-appearance:customise.html-label')} help={t('admin-appearance:customise.html-help')}
              value={v.customHTML} onChange={(x) => set('customHTML', x)}
              switchLabel={t('admin-appearance:customise.use-html')} on={v.useCustomHTML} onSwitch={(x) => set('useCustomHTML', x)}
            />
          )}
          {tab === 'js' && (
            <>
              <div className="alert alert-warning" role="note">
                <strong>{t('admin-appearance:customise.js-warning-title')}</strong> {t('admin-appearance:customise.js-warning')}
              </div>
              <Editor
                id="customJS" label={t('admin-appearance:customise.js-label')} help={t('admin-appearance:customise.js-help')}
                value={v.customJS} onChange={(x) => set('customJS', x)}
                switchLabel={t('admin-appearance:customise.use-js')} on={v.useCustomJS} onSwitch={(x) => set('useCustomJS', x)}
              />
            </>
          )}
          <p className="small text-body-secondary">{t('admin-appearance:customise.admin-untouched')}</p>
          <button type="submit" className="btn btn-primary" disabled={saving}>{t('admin-appearance:save')}</button>
        </form>
      ) : (
        <div role="tabpanel" id="panel-brand" aria-labelledby="tab-brand" className="row g-3">
          {BRAND.map((b) => (
            <div key={b.key} className="col-12 col-md-6">
              <div className="card h-100">
                <div className="card-body d-flex flex-column gap-2">
                  <label className="fw-semibold" htmlFor={`brand-${b.route}`}>{t(b.label)}</label>
                  {brand[b.key] ? (
                    <img src={brand[b.key]} alt="" className="border rounded bg-body-tertiary align-self-start" style={{ maxHeight: '4rem', maxWidth: '100%' }} />
                  ) : (
                    <span className="small text-body-secondary">{t('admin-appearance:customise.none')}</span>
                  )}
                  <input id={`brand-${b.route}`} type="file" accept="image/png,image/jpeg,image/gif,image/webp" className="form-control form-control-sm" onChange={(e) => void upload(b.key, b.route, e.target.files?.[0])} />
                  {brand[b.key] && (
                    <button type="button" className="btn btn-sm btn-outline-danger align-self-start" onClick={() => void removeBrand(b.key)}>
                      {t('admin-appearance:customise.remove')}
                    </button>
                  )}
                </div>
              </div>
            </div>
          ))}
          <p className="small text-body-secondary mb-0">{t('admin-appearance:customise.brand-help')}</p>
        </div>
      )}
    </>
  );
}

function Editor(props: { id: string; label: string; help: string; value: string; onChange: (v: string) => void; switchLabel: string; on: boolean; onSwitch: (v: boolean) => void }) {
  return (
    <div className="mb-3">
      <div className="form-check form-switch mb-2">
        <input className="form-check-input" type="checkbox" role="switch" id={`use-${props.id}`} checked={props.on} onChange={(e) => props.onSwitch(e.target.checked)} />
        <label className="form-check-label fw-semibold" htmlFor={`use-${props.id}`}>{props.switchLabel}</label>
      </div>
      <label className="form-label small" htmlFor={props.id}>{props.label}</label>
      <textarea
        id={props.id}
        className="form-control font-monospace"
        rows={14}
        spellCheck={false}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-describedby={`${props.id}-help`}
      />
      <div id={`${props.id}-help`} className="form-text">{props.help}</div>
    </div>
  );
}
