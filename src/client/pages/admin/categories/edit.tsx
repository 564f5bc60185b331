import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { AdminCategoryPage } from '../../../../shared/schemas/admin-categories';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { CategoryIcon } from '../../../components/CategoryIcon';
import { PageHeader } from '../../../components/PageHeader';
import { errorText } from '../../../i18n';

interface Form {
  name: string;
  handle: string;
  description: string;
  icon: string;
  bgColor: string;
  color: string;
  link: string;
  parentCid: number;
  order: string;
  tagWhitelist: string;
  minTags: string;
  maxTags: string;
  postQueue: boolean;
  disabled: boolean;
}

function formOf(data: AdminCategoryPage): Form {
  const c = data.category;
  return {
    name: c.name,
    handle: c.handle,
    description: c.description,
    icon: c.icon,
    bgColor: c.bgColor,
    color: c.color,
    link: c.link,
    parentCid: c.parentCid,
    order: String(c.order),
    tagWhitelist: c.tagWhitelist.join(', '),
    minTags: data.ownTagLimits.minTags === null ? '' : String(data.ownTagLimits.minTags),
    maxTags: data.ownTagLimits.maxTags === null ? '' : String(data.ownTagLimits.maxTags),
    postQueue: !!c.postQueue,
    disabled: !!c.disabled,
  };
}

const limit = (v: string): number | null => (v.trim() === '' ? null : Number(v));

/** The fields of the form that differ from what was loaded, as the PUT /categories/{cid} body. */
function changes(form: Form, initial: Form): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['name', 'handle', 'description', 'icon', 'bgColor', 'color', 'link'] as const) if (form[key] !== initial[key]) out[key] = form[key];
  if (form.parentCid !== initial.parentCid) out.parentCid = form.parentCid;
  if (form.order !== initial.order || form.parentCid !== initial.parentCid) out.order = Number(form.order) || 1;
  if (form.tagWhitelist !== initial.tagWhitelist)
    out.tagWhitelist = form.tagWhitelist
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (form.minTags !== initial.minTags) out.minTags = limit(form.minTags);
  if (form.maxTags !== initial.maxTags) out.maxTags = limit(form.maxTags);
  if (form.postQueue !== initial.postQueue) out.postQueue = form.postQueue;
  if (form.disabled !== initial.disabled) out.disabled = form.disabled;
  return out;
}

function Field({ id, label, help, children }: { id: string; label: string; help?: string; children: ReactNode }) {
  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">{label}</label>
      {children}
      {help && <div id={`${id}-help`} className="form-text">{help}</div>}
    </div>
  );
}

/** admin/manage/category: every field of one category, copy settings (and privileges) from another, links to its privileges and analytics. */
export default function AdminCategoryEdit({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminCategoryPage;
  const c = data.category;
  const [initial, setInitial] = useState(() => formOf(data));
  const [form, setForm] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [copyFrom, setCopyFrom] = useState(0);
  const [copyPrivileges, setCopyPrivileges] = useState(false);
  useEffect(() => {
    const f = formOf(data);
    setInitial(f);
    setForm(f);
  }, [data]);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const dirty = Object.keys(changes(form, initial)).length > 0;
  const reload = () => rt.navigate(window.location.pathname, { replace: true, force: true });
  const run = async (fn: () => Promise<unknown>, message: string) => {
    setBusy(true);
    try {
      await fn();
      rt.alert({ type: 'success', message, timeout: 3000 });
      reload();
    } catch (err) {
      // Nothing typed is lost: the form keeps its values.
      rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    void run(() => api(rt.config, 'PUT', `/categories/${c.cid}`, changes(form, initial)), t('admin-manage:category.saved'));
  };
  const copy = (e: FormEvent) => {
    e.preventDefault();
    if (!copyFrom) return;
    void run(() => api(rt.config, 'POST', `/admin/categories/${c.cid}/copy-settings`, { fromCid: copyFrom, privileges: copyPrivileges }), t('admin-manage:category.copied'));
  };
  const base = `${page.relative_path}/admin/manage`;
  // A category cannot go below itself or its descendants.
  const below = new Set<number>([c.cid, ...data.categories.filter((o) => isBelow(data.categories, o.cid, c.cid)).map((o) => o.cid)]);
  const others = data.categories.filter((o) => o.cid !== c.cid);
  const colour = (key: 'bgColor' | 'color', id: string, label: string) => (
    <Field id={id} label={label}>
      <div className="input-group">
        <input type="color" className="form-control form-control-color" aria-label={label} value={/^#[0-9a-f]{6}$/i.test(form[key]) ? form[key] : '#000000'} onChange={(e) => set(key, e.target.value)} />
        <input id={id} className="form-control" value={form[key]} maxLength={9} onChange={(e) => set(key, e.target.value)} />
      </div>
    </Field>
  );

  return (
    <>
      <PageHeader title={c.name} subtitle={t('admin-manage:category.subtitle', c.cid)} icon={<CategoryIcon category={{ ...c, name: form.name || c.name, icon: form.icon, bgColor: form.bgColor, color: form.color }} size={44} />}>
        <a className="btn btn-outline-dark btn-sm" href={`${page.relative_path}/category/${c.slug}`}>{t('admin-manage:category.view')}</a>
        <a className="btn btn-outline-dark btn-sm" href={`${base}/privileges/${c.cid}`}>{t('admin-manage:category.privileges')}</a>
        <a className="btn btn-outline-dark btn-sm" href={`${base}/categories/${c.cid}/analytics`}>{t('admin-manage:analytics.title')}</a>
        <a className="btn btn-outline-dark btn-sm" href={`${base}/categories/${c.cid}/federation`}>{t('admin-manage:federation.title')}</a>
      </PageHeader>
      <div className="row g-4">
        <form className="col-12 col-lg-8" onSubmit={save} aria-label={t('admin-manage:category.settings')}>
          <div className="card card-body">
            <div className="row">
              <div className="col-12 col-md-6">
                <Field id="cat-name" label={t('admin-manage:category.name')}>
                  <input id="cat-name" className="form-control" value={form.name} maxLength={255} required onChange={(e) => set('name', e.target.value)} />
                </Field>
              </div>
              <div className="col-12 col-md-6">
                <Field id="cat-handle" label={t('admin-manage:category.handle')} help={t('admin-manage:category.handle-help')}>
                  <input id="cat-handle" className="form-control" value={form.handle} maxLength={100} aria-describedby="cat-handle-help" onChange={(e) => set('handle', e.target.value)} />
                </Field>
              </div>
            </div>
            <Field id="cat-description" label={t('admin-manage:category.description')}>
              <textarea id="cat-description" className="form-control" rows={3} value={form.description} maxLength={5000} onChange={(e) => set('description', e.target.value)} />
            </Field>
            <div className="row">
              <div className="col-12 col-md-4">
                <Field id="cat-icon" label={t('admin-manage:category.icon')} help={t('admin-manage:category.icon-help')}>
                  <input id="cat-icon" className="form-control" value={form.icon} maxLength={200} aria-describedby="cat-icon-help" onChange={(e) => set('icon', e.target.value)} />
                </Field>
              </div>
              <div className="col-6 col-md-4">{colour('bgColor', 'cat-bg', t('admin-manage:category.bg-color'))}</div>
              <div className="col-6 col-md-4">{colour('color', 'cat-color', t('admin-manage:category.color'))}</div>
            </div>
            <Field id="cat-link" label={t('admin-manage:category.link')} help={t('admin-manage:category.link-help')}>
              <input id="cat-link" className="form-control" value={form.link} maxLength={2048} aria-describedby="cat-link-help" onChange={(e) => set('link', e.target.value)} />
            </Field>
            <div className="row">
              <div className="col-12 col-md-8">
                <Field id="cat-parent" label={t('admin-manage:category.parent')}>
                  <select id="cat-parent" className="form-select" value={form.parentCid} onChange={(e) => set('parentCid', Number(e.target.value))}>
                    <option value={0}>{t('admin-manage:categories.parent-none')}</option>
                    {others.map((o) => (
                      <option key={o.cid} value={o.cid} disabled={below.has(o.cid)} dir="auto">{`${'\u2003'.repeat(o.level)}${o.name}`}</option>
                    ))}
                  </select>
                </Field>
              </div>
              <div className="col-12 col-md-4">
                <Field id="cat-order" label={t('admin-manage:category.order')}>
                  <input id="cat-order" type="number" min={1} className="form-control" value={form.order} onChange={(e) => set('order', e.target.value)} />
                </Field>
              </div>
            </div>
            <Field id="cat-tags" label={t('admin-manage:category.tag-whitelist')} help={t('admin-manage:category.tag-whitelist-help')}>
              <input id="cat-tags" className="form-control" value={form.tagWhitelist} aria-describedby="cat-tags-help" onChange={(e) => set('tagWhitelist', e.target.value)} />
            </Field>
            <div className="row">
              <div className="col-6">
                <Field id="cat-min-tags" label={t('admin-manage:category.min-tags')}>
                  <input id="cat-min-tags" type="number" min={0} max={100} className="form-control" placeholder={t('admin-manage:category.forum-default')} value={form.minTags} onChange={(e) => set('minTags', e.target.value)} />
                </Field>
              </div>
              <div className="col-6">
                <Field id="cat-max-tags" label={t('admin-manage:category.max-tags')}>
                  <input id="cat-max-tags" type="number" min={0} max={100} className="form-control" placeholder={t('admin-manage:category.forum-default')} value={form.maxTags} onChange={(e) => set('maxTags', e.target.value)} />
                </Field>
              </div>
            </div>
            <div className="form-check form-switch mb-2">
              <input id="cat-post-queue" type="checkbox" className="form-check-input" role="switch" checked={form.postQueue} onChange={(e) => set('postQueue', e.target.checked)} />
              <label htmlFor="cat-post-queue" className="form-check-label">{t('admin-manage:category.post-queue')}</label>
              {!data.postQueueEnabled && <div className="form-text">{t('admin-manage:category.post-queue-off')}</div>}
            </div>
            <div className="form-check form-switch mb-3">
              <input id="cat-disabled" type="checkbox" className="form-check-input" role="switch" checked={form.disabled} onChange={(e) => set('disabled', e.target.checked)} />
              <label htmlFor="cat-disabled" className="form-check-label">{t('admin-manage:category.disabled')}</label>
            </div>
            <div className="d-flex gap-2 align-items-center">
              <button type="submit" className="btn btn-primary" disabled={busy || !dirty}>{t('admin-manage:category.save')}</button>
              {dirty && <span className="small text-body-secondary">{t('admin-manage:category.unsaved')}</span>}
            </div>
          </div>
        </form>
        <div className="col-12 col-lg-4">
          <form className="card card-body" onSubmit={copy} aria-labelledby="cat-copy-title">
            <h2 id="cat-copy-title" className="h6">{t('admin-manage:category.copy-title')}</h2>
            <p className="small text-body-secondary">{t('admin-manage:category.copy-help')}</p>
            <Field id="cat-copy-from" label={t('admin-manage:category.copy-from')}>
              <select id="cat-copy-from" className="form-select" value={copyFrom} onChange={(e) => setCopyFrom(Number(e.target.value))}>
                <option value={0}>{t('admin-manage:category.copy-choose')}</option>
                {others.map((o) => (
                  <option key={o.cid} value={o.cid} dir="auto">{`${'\u2003'.repeat(o.level)}${o.name}`}</option>
                ))}
              </select>
            </Field>
            <div className="form-check mb-3">
              <input id="cat-copy-privileges" type="checkbox" className="form-check-input" checked={copyPrivileges} onChange={(e) => setCopyPrivileges(e.target.checked)} />
              <label htmlFor="cat-copy-privileges" className="form-check-label">{t('admin-manage:category.copy-privileges')}</label>
            </div>
            <button type="submit" className="btn btn-outline-primary" disabled={busy || !copyFrom}>{t('admin-manage:category.copy-button')}</button>
          </form>
          <div className="card card-body mt-3 small">
            <div>{t('admin-manage:categories.stats', c.topic_count, c.post_count)}</div>
          </div>
        </div>
      </div>
    </>
  );
}

function isBelow(list: { cid: number; level: number }[], cid: number, ancestor: number): boolean {
  // The list is parents before children with depths: a category is below `ancestor` when it
  // follows it with a greater depth and no shallower-or-equal row comes between.
  const start = list.findIndex((o) => o.cid === ancestor);
  if (start < 0) return false;
  for (let i = start + 1; i < list.length; i++) {
    if (list[i]!.level <= list[start]!.level) return false;
    if (list[i]!.cid === cid) return true;
  }
  return false;
}
