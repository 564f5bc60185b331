import { useEffect, useState, type FormEvent } from 'react';
import type { AdminGroupPage } from '../../../../shared/schemas/admin-privileges';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { errorText } from '../../../i18n';
import { PageHeader } from '../../../components/PageHeader';

type Form = { name: string; description: string; userTitle: string; icon: string; labelColor: string; textColor: string; userTitleEnabled: boolean; hidden: boolean; private: boolean; disableJoinRequests: boolean; disableLeave: boolean };

/** admin/manage/group: a group's settings (name, description, badge, switches), its members and owners. */
export default function AdminGroup({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminGroupPage;
  const g = data.group;
  const initial = (): Form => ({
    name: g.name, description: g.description, userTitle: g.userTitle, icon: g.icon, labelColor: g.labelColor || '#000000', textColor: g.textColor || '#ffffff',
    userTitleEnabled: g.userTitleEnabled, hidden: g.hidden, private: g.private, disableJoinRequests: g.disableJoinRequests, disableLeave: g.disableLeave,
  });
  const [form, setForm] = useState<Form>(initial);
  const [uid, setUid] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setForm(initial()), [data]);
  const slug = encodeURIComponent(g.slug);
  const reload = () => rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });
  const run = async (fn: () => Promise<unknown>, message: string, then: () => void = reload) => {
    setBusy(true);
    try {
      await fn();
      rt.alert({ type: 'success', message, timeout: 3000 });
      then();
    } catch (err) {
      rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));
  const save = (e: FormEvent) => {
    e.preventDefault();
    const body = {
      ...(g.system ? {} : { name: form.name }),
      description: form.description, userTitle: form.userTitle, icon: form.icon, labelColor: form.labelColor, textColor: form.textColor,
      userTitleEnabled: form.userTitleEnabled ? 1 : 0, hidden: form.hidden ? 1 : 0, private: form.private ? 1 : 0,
      disableJoinRequests: form.disableJoinRequests ? 1 : 0, disableLeave: form.disableLeave ? 1 : 0,
    };
    let next = g.slug;
    void run(
      () => api<{ slug: string }>(rt.config, 'PUT', `/groups/${slug}`, body).then((r) => { next = r.slug || g.slug; }),
      t('admin-privileges:groups.saved'),
      () => rt.navigate(`${page.relative_path}/admin/manage/groups/${encodeURIComponent(next)}`, { replace: true, force: true }),
    );
  };
  const add = (e: FormEvent) => {
    e.preventDefault();
    void run(() => api(rt.config, 'PUT', `/groups/${slug}/membership/${encodeURIComponent(uid.trim())}`).then(() => setUid('')), t('admin-privileges:groups.member-added'));
  };
  const remove = (m: number) => void run(() => api(rt.config, 'DELETE', `/groups/${slug}/membership/${m}`), t('admin-privileges:groups.member-removed'));
  const owner = (m: number, on: boolean) => void run(() => api(rt.config, on ? 'PUT' : 'DELETE', `/groups/${slug}/ownership/${m}`), t('admin-privileges:groups.saved'));
  const check = (k: 'userTitleEnabled' | 'hidden' | 'private' | 'disableJoinRequests' | 'disableLeave', label: string) => (
    <div className="form-check" key={k}>
      <input id={`group-${k}`} type="checkbox" className="form-check-input" checked={form[k]} onChange={(e) => set(k, e.target.checked)} />
      <label htmlFor={`group-${k}`} className="form-check-label">{label}</label>
    </div>
  );
  return (
    <>
      <PageHeader title={g.name} />
      <div className="row g-3">
        <section className="col-12 col-lg-6" aria-labelledby="group-settings">
          <form className="card card-body d-flex flex-column gap-2" onSubmit={save}>
            <h2 id="group-settings" className="h6">{t('admin-privileges:groups.settings')}</h2>
            <div>
              <label htmlFor="group-name" className="form-label small mb-1">{t('admin-privileges:groups.name')}</label>
              <input id="group-name" className="form-control form-control-sm" value={form.name} onChange={(e) => set('name', e.target.value)} disabled={g.system} maxLength={255} required />
            </div>
            <div>
              <label htmlFor="group-description" className="form-label small mb-1">{t('admin-privileges:groups.description')}</label>
              <textarea id="group-description" className="form-control form-control-sm" rows={3} value={form.description} onChange={(e) => set('description', e.target.value)} maxLength={10000} />
            </div>
            <div className="row g-2">
              <div className="col-6">
                <label htmlFor="group-title" className="form-label small mb-1">{t('admin-privileges:groups.badge-text')}</label>
                <input id="group-title" className="form-control form-control-sm" value={form.userTitle} onChange={(e) => set('userTitle', e.target.value)} maxLength={40} />
              </div>
              <div className="col-6">
                <label htmlFor="group-icon" className="form-label small mb-1">{t('admin-privileges:groups.icon')}</label>
                <input id="group-icon" className="form-control form-control-sm" value={form.icon} onChange={(e) => set('icon', e.target.value)} maxLength={100} placeholder="fa-star" />
              </div>
              <div className="col-6">
                <label htmlFor="group-label-color" className="form-label small mb-1">{t('admin-privileges:groups.label-color')}</label>
                <input id="group-label-color" type="color" className="form-control form-control-sm form-control-color" value={form.labelColor} onChange={(e) => set('labelColor', e.target.value)} />
              </div>
              <div className="col-6">
                <label htmlFor="group-text-color" className="form-label small mb-1">{t('admin-privileges:groups.text-color')}</label>
                <input id="group-text-color" type="color" className="form-control form-control-sm form-control-color" value={form.textColor} onChange={(e) => set('textColor', e.target.value)} />
              </div>
            </div>
            <div>
              <span className="small me-2">{t('admin-privileges:groups.preview')}</span>
              <span className="badge" style={{ backgroundColor: form.labelColor, color: form.textColor }}>{form.userTitle || form.name}</span>
            </div>
            {check('userTitleEnabled', t('admin-privileges:groups.title-enabled'))}
            {check('private', t('admin-privileges:groups.private-help'))}
            {check('disableJoinRequests', t('admin-privileges:groups.disable-join'))}
            {check('disableLeave', t('admin-privileges:groups.disable-leave'))}
            {check('hidden', t('admin-privileges:groups.hidden-help'))}
            <div className="d-flex gap-2">
              <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>{t('admin-privileges:groups.save')}</button>
              <a className="btn btn-outline-secondary btn-sm" href={`${page.relative_path}/api/admin/groups/${encodeURIComponent(g.name)}/csv`} download>{t('admin-privileges:groups.csv')}</a>
            </div>
          </form>
        </section>
        <section className="col-12 col-lg-6" aria-labelledby="group-members">
          <div className="card card-body">
            <h2 id="group-members" className="h6">{t('admin-privileges:groups.member-count', data.memberCount)}</h2>
            <form className="d-flex gap-2 mb-2" onSubmit={add}>
              <input className="form-control form-control-sm" inputMode="numeric" pattern="[0-9]+" value={uid} onChange={(e) => setUid(e.target.value)} placeholder={t('admin-privileges:groups.add-uid')} aria-label={t('admin-privileges:groups.add-uid')} required />
              <button type="submit" className="btn btn-sm btn-outline-primary text-nowrap" disabled={busy}>{t('admin-privileges:groups.add')}</button>
            </form>
            <ul className="list-group list-group-flush">
              {data.members.map((m) => (
                <li key={m.uid} className="list-group-item d-flex align-items-center gap-2 px-0">
                  <a href={`${page.relative_path}/user/${m.userslug}`} className="me-auto">{m.username}</a>
                  {m.isOwner && <span className="badge text-bg-primary">{t('admin-privileges:groups.owner')}</span>}
                  <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => owner(m.uid, !m.isOwner)} disabled={busy}>
                    {t(m.isOwner ? 'admin-privileges:groups.unmake-owner' : 'admin-privileges:groups.make-owner')}
                  </button>
                  <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => remove(m.uid)} disabled={busy} aria-label={t('admin-privileges:groups.remove-member', m.username)}>
                    {t('admin-privileges:groups.remove')}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        </section>
      </div>
    </>
  );
}
