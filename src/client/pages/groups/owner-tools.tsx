import { useState, type FormEvent } from 'react';
import type { GroupData, GroupFull } from '../../../shared/schemas/group';
import { slugify } from '../../../shared/slug';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { GroupBadge } from '../../components/GroupBadge';

type Flags = 'private' | 'hidden' | 'disableJoinRequests' | 'disableLeave' | 'userTitleEnabled';
const FLAGS: [Flags, string][] = [
  ['userTitleEnabled', 'groups:details.userTitleEnabled'],
  ['private', 'groups:details.private'],
  ['disableJoinRequests', 'groups:details.disableJoinRequests'],
  ['disableLeave', 'groups:details.disableLeave'],
  ['hidden', 'groups:details.hidden'],
];

/** The owners' edit form: name, description, badge (label, icon, colours), kind and switches; delete. */
export function GroupEditForm({ group, onSaved }: { group: GroupFull; onSaved: (slug: string) => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const [f, setF] = useState({
    name: group.name,
    description: group.description,
    userTitle: group.userTitle,
    icon: group.icon,
    labelColor: group.labelColor,
    textColor: group.textColor,
    private: group.private,
    hidden: group.hidden,
    disableJoinRequests: group.disableJoinRequests,
    disableLeave: group.disableLeave,
    userTitleEnabled: group.userTitleEnabled,
  });
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof typeof f>(k: K, v: (typeof f)[K]) => setF((x) => ({ ...x, [k]: v }));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const body = group.system ? { ...f, name: undefined } : f;
      const g = await api<GroupData>(rt.config, 'PUT', `/groups/${encodeURIComponent(group.slug)}`, body);
      rt.alert({ type: 'success', message: t('groups:event.updated') });
      onSaved(g.slug);
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!window.confirm(t('groups:details.delete-confirm'))) return;
    try {
      await api(rt.config, 'DELETE', `/groups/${encodeURIComponent(group.slug)}`);
      rt.alert({ type: 'success', message: t('groups:event.deleted', group.name) });
      rt.navigate(`${rt.config.relative_path}/groups`);
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    }
  };

  return (
    <form className="card" aria-labelledby="group-owner-tools" onSubmit={(e) => void save(e)} data-testid="group-edit">
      <div className="card-header"><h2 id="group-owner-tools" className="h6 mb-0">{t('groups:details.owner-options')}</h2></div>
      <div className="card-body row g-3">
        <div className="col-12 col-md-6">
          <label className="form-label" htmlFor="group-name">{t('groups:details.group-name')}</label>
          <input id="group-name" className="form-control" value={f.name} maxLength={255} disabled={!!group.system} onChange={(e) => set('name', e.target.value)} />
        </div>
        <div className="col-12 col-md-6">
          <label className="form-label" htmlFor="group-title">{t('groups:details.badge-text')}</label>
          <input id="group-title" className="form-control" value={f.userTitle} maxLength={40} onChange={(e) => set('userTitle', e.target.value)} />
        </div>
        <div className="col-12">
          <label className="form-label" htmlFor="group-description">{t('groups:details.description')}</label>
          <textarea id="group-description" className="form-control" rows={3} value={f.description} maxLength={10000} onChange={(e) => set('description', e.target.value)} />
        </div>
        <div className="col-12 col-sm-4">
          <label className="form-label" htmlFor="group-icon">{t('groups:details.change-icon')}</label>
          <input id="group-icon" className="form-control" value={f.icon} placeholder="fa-star" maxLength={100} onChange={(e) => set('icon', e.target.value)} />
        </div>
        <div className="col-6 col-sm-4">
          <label className="form-label" htmlFor="group-label-colour">{t('groups:details.change-label-colour')}</label>
          <input id="group-label-colour" type="color" className="form-control form-control-color w-100" value={f.labelColor} onChange={(e) => set('labelColor', e.target.value)} />
        </div>
        <div className="col-6 col-sm-4">
          <label className="form-label" htmlFor="group-text-colour">{t('groups:details.change-text-colour')}</label>
          <input id="group-text-colour" type="color" className="form-control form-control-color w-100" value={f.textColor} onChange={(e) => set('textColor', e.target.value)} />
        </div>
        <div className="col-12 small">
          {t('groups:details.badge-preview')}: <GroupBadge group={{ name: f.name, slug: slugify(f.name), userTitle: f.userTitle || f.name, icon: f.icon, labelColor: f.labelColor, textColor: f.textColor }} />
        </div>
        <div className="col-12 d-flex flex-column gap-1">
          {FLAGS.map(([k, label]) => (
            <div className="form-check form-switch" key={k}>
              <input className="form-check-input" type="checkbox" role="switch" id={`group-${k}`} checked={f[k] === 1} onChange={(e) => set(k, e.target.checked ? 1 : 0)} />
              <label className="form-check-label" htmlFor={`group-${k}`}>{t(label)}</label>
            </div>
          ))}
        </div>
      </div>
      <div className="card-footer d-flex flex-wrap gap-2">
        <button type="submit" className="btn btn-primary" disabled={busy}>{t('groups:save')}</button>
        {!group.system && <button type="button" className="btn btn-danger ms-auto" onClick={() => void remove()}>{t('groups:details.delete-group')}</button>}
      </div>
    </form>
  );
}

/** Invites a member by username (their profile data gives the uid). */
export function InviteForm({ slug, onInvited }: { slug: string; onInvited: () => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const invite = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const res = await fetch(`${rt.config.relative_path}/api/user/${encodeURIComponent(slugify(name.trim()))}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      const user = res.ok ? ((await res.json()) as { uid?: number }) : null;
      if (!user?.uid) throw new Error('[[error:no-user]]');
      await api(rt.config, 'POST', `/groups/${encodeURIComponent(slug)}/invites/${user.uid}`);
      rt.alert({ type: 'success', message: t('groups:membership.invited') });
      setName('');
      onInvited();
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="d-flex gap-2" onSubmit={(e) => void invite(e)}>
      <input className="form-control form-control-sm" aria-label={t('groups:bulk-invite-instructions')} placeholder={t('groups:bulk-invite-instructions')} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
      <button type="submit" className="btn btn-sm btn-outline-primary" disabled={busy || !name.trim()}>{t('groups:bulk-invite')}</button>
    </form>
  );
}
