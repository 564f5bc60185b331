import { languageInfo } from '../../../../shared/languages';
import { useEffect, useMemo, useState } from 'react';
import type { AdminSettingsPage, SettingField } from '../../../../shared/schemas/admin-settings';
import type { PageBase } from '../../../../shared/types';
import { api, ApiError } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { PageHeader } from '../../../components/PageHeader';
import { errorText } from '../../../i18n';
import { ApiTokens } from './ApiTokens';

type Value = string | number | boolean;
// Translation ids of settings: a colon in a key ("flags:reasons") becomes a dash.
const id = (key: string) => key.replace(/:/g, '-');
const UNSAVED = 'admin-settings';

/** What the form sends for a field's edited value: numbers as numbers when they read as one (the server refuses the rest). */
function outgoing(field: SettingField, value: Value): Value {
  if (field.control === 'number' && typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return value;
}

/** Every /admin/settings/{page}: the page's sections of settings, saved together with one request. */
export default function AdminSettings({ page }: { page: PageBase }) {
  const data = page as AdminSettingsPage;
  // A new page (or the same page loaded again) starts a new form.
  return <SettingsForm key={`${data.settingsPage}:${data.url}`} data={data} />;
}

function SettingsForm({ data }: { data: AdminSettingsPage }) {
  const { t } = useT();
  const rt = useRuntime();
  const [saved, setSaved] = useState<Record<string, Value>>(data.values);
  const [values, setValues] = useState<Record<string, Value>>(data.values);
  const [secretsSet, setSecretsSet] = useState(data.secretsSet);
  const [busy, setBusy] = useState(false);
  const [invalid, setInvalid] = useState<{ key: string; message: string } | null>(null);
  const fields = useMemo(() => data.sections.flatMap((s) => s.fields).filter((f) => f.control !== 'link'), [data.sections]);
  const changed = fields.filter((f) => String(values[f.key]) !== String(saved[f.key]));
  const dirty = changed.length > 0;

  useEffect(() => {
    rt.setUnsaved(UNSAVED, dirty);
  }, [rt, dirty]);
  useEffect(() => () => rt.setUnsaved(UNSAVED, false), [rt]);

  const edit = (key: string, value: Value) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (invalid?.key === key) setInvalid(null);
  };

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!dirty || busy) return;
    setBusy(true);
    setInvalid(null);
    const body = Object.fromEntries(changed.map((f) => [f.key, outgoing(f, values[f.key]!)]));
    try {
      await api(rt.config, 'PUT', '/admin/settings', { values: body });
      const next = { ...values };
      const nextSecrets = { ...secretsSet };
      // A secret typed in is stored: the field empties again and shows "set".
      for (const f of changed) {
        if (f.control === 'password') {
          nextSecrets[f.key] = true;
          next[f.key] = '';
        } else next[f.key] = body[f.key]!;
      }
      setSecretsSet(nextSecrets);
      setValues(next);
      setSaved(next);
      rt.alert({ type: 'success', title: t('admin-settings:saved'), message: '', timeout: 3000 });
    } catch (err) {
      const key = err instanceof ApiError && err.status === 400 ? String(err.params[0] ?? '') : '';
      if (err instanceof ApiError && key && fields.some((f) => f.key === key)) {
        const field = fields.find((f) => f.key === key)!;
        // A number out of range says what it takes; any other refusal says why (the server's translated message).
        const message = field.control === 'number' && err.key === 'error:invalid-setting-value' ? t('admin-settings:invalid-number', field.min ?? '', field.max ?? '') : errorText(rt.i18n, err);
        setInvalid({ key, message });
        document.getElementById(`setting-${id(key)}`)?.focus();
      } else rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };

  const title = t(`admin-settings:page.${data.settingsPage}`);
  // The test mail goes with the saved settings (the button waits for a save) to the admin's own address.
  const sendTest = async () => {
    setBusy(true);
    try {
      const res = await api<{ to: string }>(rt.config, 'POST', '/admin/email/test', {});
      rt.alert({ type: 'success', title: t('admin-settings:email.test-sent-title'), message: t('admin-settings:email.test-sent', res.to), timeout: 5000 });
    } catch (err) {
      rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  // The API page holds the tokens' own form: never inside the settings form (a form in a form is
  // dropped by the HTML parser, and the page would not hydrate).
  if (data.tokens && data.sections.length === 0) {
    return (
      <>
        <PageHeader title={title} />
        <ApiTokens initial={data.tokens} />
      </>
    );
  }
  return (
    <form onSubmit={save} noValidate className="admin-settings">
      <PageHeader title={title} subtitle={dirty ? <span className="text-warning-emphasis">{t('admin-settings:unsaved', changed.length)}</span> : undefined}>
        {data.settingsPage === 'email' && (
          <button type="button" className="btn btn-outline-primary" disabled={dirty || busy} title={t('admin-settings:email.test-help')} onClick={() => void sendTest()} data-testid="email-test">
            {t('admin-settings:email.test')}
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={!dirty || busy} data-testid="settings-save">
          {t(busy ? 'admin-settings:saving' : 'admin-settings:save')}
        </button>
      </PageHeader>
      {data.sections.length === 0 && <p className="text-body-secondary">{t('admin-settings:no-settings')}</p>}
      {data.mail && !data.mail.configured && (
        <div className="alert alert-warning" role="status" data-testid="mail-not-configured">
          <p className="mb-1">{t('admin-settings:email.not-configured')}</p>
          <p className="mb-0 fw-semibold">{t('admin-settings:email.waiting', data.mail.waiting)}</p>
        </div>
      )}
      <div className="d-flex flex-column gap-3">
        {data.sections.map((section) => (
          <section key={section.id} className="card" aria-labelledby={`settings-section-${section.id}`}>
            <div className="card-body">
              <h2 id={`settings-section-${section.id}`} className="h6 mb-3">{t(`admin-settings:section.${section.id}`)}</h2>
              <div className="d-flex flex-column gap-3">
                {section.fields.map((f) => (
                  <Field key={f.key} field={f} value={values[f.key] ?? ''} secretSet={secretsSet[f.key] ?? false} error={invalid?.key === f.key ? invalid.message : ''} onChange={(v) => edit(f.key, v)} />
                ))}
              </div>
            </div>
          </section>
        ))}
      </div>
      {data.sections.length > 0 && (
        <div className="position-sticky bottom-0 py-2 mt-3 bg-body border-top d-flex justify-content-end">
          <button type="submit" className="btn btn-primary" disabled={!dirty || busy}>
            {t(busy ? 'admin-settings:saving' : 'admin-settings:save')}
          </button>
        </div>
      )}
    </form>
  );
}

function Field({ field, value, secretSet, error, onChange }: { field: SettingField; value: Value; secretSet: boolean; error: string; onChange: (v: Value) => void }) {
  const { t } = useT();
  const key = id(field.key);
  const inputId = `setting-${key}`;
  const helpId = `${inputId}-help`;
  const errorId = `${inputId}-error`;
  const label = t(`admin-settings:${key}`);
  const help = t(`admin-settings:${key}.help`);
  const describedBy = error ? `${helpId} ${errorId}` : helpId;
  const invalidClass = error ? ' is-invalid' : '';
  const helpText = <div id={helpId} className="form-text">{help}{field.control === 'number' && field.min !== undefined ? ` ${t('admin-settings:range', field.min, field.max ?? '')}` : ''}</div>;
  const errorText = error ? <div id={errorId} className="invalid-feedback d-block" role="alert">{error}</div> : null;

  if (field.control === 'link') {
    return (
      <div>
        <div className="fw-semibold">{label}</div>
        <div className="form-text mt-0 mb-1">{help}</div>
        <a href={field.href} className="btn btn-outline-secondary btn-sm">{t('admin-settings:edit-on-page')}</a>
      </div>
    );
  }
  if (field.control === 'toggle') {
    return (
      <div className="form-check form-switch">
        <input className={`form-check-input${invalidClass}`} type="checkbox" role="switch" id={inputId} name={field.key} checked={value === true} aria-describedby={describedBy} onChange={(e) => onChange(e.target.checked)} />
        <label className="form-check-label fw-semibold" htmlFor={inputId}>{label}</label>
        {helpText}
        {errorText}
      </div>
    );
  }
  let control;
  if (field.control === 'select') {
    control = (
      <select className={`form-select${invalidClass}`} id={inputId} name={field.key} value={String(value)} aria-describedby={describedBy} aria-invalid={error ? true : undefined} onChange={(e) => onChange(e.target.value)}>
        {field.options!.map((o) => (
          <option key={o} value={o}>{field.key === 'defaultLang' ? (languageInfo(o)?.name ?? o) : t(`admin-settings:option.${o}`)}</option>
        ))}
      </select>
    );
  } else if (field.control === 'textarea') {
    control = <textarea className={`form-control font-monospace${invalidClass}`} id={inputId} name={field.key} rows={6} value={String(value)} maxLength={field.maxLength} aria-describedby={describedBy} aria-invalid={error ? true : undefined} onChange={(e) => onChange(e.target.value)} />;
  } else {
    const type = field.control === 'number' ? 'number' : field.control === 'password' ? 'password' : 'text';
    control = (
      <input
        className={`form-control${invalidClass}`}
        type={type}
        id={inputId}
        name={field.key}
        value={String(value)}
        min={field.min}
        max={field.max}
        step={field.control === 'number' ? 1 : undefined}
        inputMode={field.control === 'number' ? 'numeric' : undefined}
        maxLength={field.maxLength}
        autoComplete={field.control === 'password' ? 'new-password' : 'off'}
        placeholder={field.control === 'password' ? t(secretSet ? 'admin-settings:secret-set' : 'admin-settings:secret-empty') : undefined}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  return (
    <div>
      <label className="form-label fw-semibold mb-1" htmlFor={inputId}>{label}</label>
      {control}
      {errorText}
      {helpText}
    </div>
  );
}
