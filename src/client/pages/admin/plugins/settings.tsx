import { useState, type FormEvent } from 'react';
import type { AdminPluginField, AdminPluginSettingsPage } from '../../../../shared/schemas/admin-appearance';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { PageHeader } from '../../../components/PageHeader';
import { errorText } from '../../../i18n';

/** A built-in plugin's settings page (and the theme's): its settings, saved together, and what is not offered. */
export default function AdminPluginSettings({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminPluginSettingsPage;
  const [values, setValues] = useState<Record<string, AdminPluginField['value']>>(Object.fromEntries(data.fields.map((f) => [f.key, f.value])));
  const [invalid, setInvalid] = useState('');
  const [saving, setSaving] = useState(false);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setInvalid('');
    try {
      await api(rt.config, 'PUT', '/admin/settings', { values });
      rt.alert({ type: 'success', message: t('admin-extend:saved'), timeout: 3000 });
    } catch (err) {
      const params = (err as { params?: unknown[] }).params;
      if (Array.isArray(params) && typeof params[0] === 'string') setInvalid(params[0]);
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <PageHeader title={t(data.plugin.title)} subtitle={t(data.plugin.description)} />
      {data.plugin.toggleable && !data.plugin.active && (
        <div className="alert alert-secondary" role="status">{t('admin-extend:settings.inactive')}</div>
      )}
      <div className="row g-3">
        <div className="col-12 col-lg-7">
          {data.fields.length ? (
            <form className="card" onSubmit={(e) => void save(e)}>
              <div className="card-body d-flex flex-column gap-3">
                {data.fields.map((f) => (
                  <Field key={f.key} field={f} value={values[f.key]!} invalid={invalid === f.key} onChange={(v) => setValues((old) => ({ ...old, [f.key]: v }))} />
                ))}
                <div>
                  <button type="submit" className="btn btn-primary" disabled={saving}>{t('admin-extend:save')}</button>
                </div>
              </div>
            </form>
          ) : (
            <div className="alert alert-info" role="status">{t('admin-extend:settings.none')}</div>
          )}
        </div>
        <div className="col-12 col-lg-5 d-flex flex-column gap-3">
          {data.notes.length > 0 && (
            <section className="card" aria-labelledby="plugin-notes">
              <div className="card-body">
                <h2 id="plugin-notes" className="h6">{t('admin-extend:settings.notes')}</h2>
                {data.notes.map((n) => <p key={n} className="small mb-2">{t(n)}</p>)}
              </div>
            </section>
          )}
          {data.notOffered.length > 0 && (
            <section className="card" aria-labelledby="plugin-not-offered">
              <div className="card-body">
                <h2 id="plugin-not-offered" className="h6">{t('admin-extend:settings.not-offered')}</h2>
                {data.notOffered.map((n) => <p key={n} className="small mb-2">{t(n)}</p>)}
              </div>
            </section>
          )}
        </div>
      </div>
    </>
  );
}

function Field({ field, value, invalid, onChange }: { field: AdminPluginField; value: AdminPluginField['value']; invalid: boolean; onChange: (v: AdminPluginField['value']) => void }) {
  const { t } = useT();
  const id = `setting-${field.key.replace(/[^A-Za-z0-9-]/g, '-')}`;
  const help = field.help ? <div id={`${id}-help`} className="form-text">{t(field.help)}</div> : null;
  if (field.type === 'boolean') {
    return (
      <div>
        <div className="form-check form-switch">
          <input className="form-check-input" type="checkbox" role="switch" id={id} name={field.key} checked={value === true} onChange={(e) => onChange(e.target.checked)} aria-describedby={field.help ? `${id}-help` : undefined} />
          <label className="form-check-label" htmlFor={id}>{t(field.label)}</label>
        </div>
        {help}
      </div>
    );
  }
  return (
    <div>
      <label className="form-label" htmlFor={id}>{t(field.label)}</label>
      <input
        id={id}
        name={field.key}
        className={`form-control${invalid ? ' is-invalid' : ''}`}
        type={field.type === 'integer' ? 'number' : field.type === 'url' ? 'url' : 'text'}
        min={field.min}
        max={field.max}
        maxLength={field.maxLength}
        value={String(value)}
        onChange={(e) => onChange(field.type === 'integer' ? (e.target.value === '' ? '' : Number(e.target.value)) : e.target.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={field.help ? `${id}-help` : undefined}
      />
      {help}
    </div>
  );
}
