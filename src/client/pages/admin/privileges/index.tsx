import { useEffect, useState, type FormEvent } from 'react';
import type { AdminPrivilegesPage, PrivilegeMatrix } from '../../../../shared/schemas/admin-privileges';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { errorText } from '../../../i18n';
import { PageHeader } from '../../../components/PageHeader';

const TYPE_CLASS: Record<string, string> = { viewing: 'text-info-emphasis', posting: 'text-success-emphasis', moderation: 'text-danger-emphasis', other: '' };

/**
 * admin/manage/privileges: the matrix groups × privileges (and members with grants of their
 * own), global or per category. A box saves at once; a preset sets a whole row; a category's
 * grants can be copied to every category or taken from another one.
 */
export default function AdminPrivileges({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminPrivilegesPage;
  const [matrix, setMatrix] = useState<PrivilegeMatrix>(data.privileges);
  const [busy, setBusy] = useState('');
  const [fromCid, setFromCid] = useState('');
  useEffect(() => setMatrix(data.privileges), [data]);
  const cid = data.cid;
  const base = `${page.relative_path}/admin/manage/privileges`;
  const label = (name: string) => t(`admin-privileges:priv.${name}`);

  const fail = (err: unknown) => rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
  const call = async (key: string, fn: () => Promise<PrivilegeMatrix>, done?: string) => {
    setBusy(key);
    try {
      setMatrix(await fn());
      if (done) rt.alert({ type: 'success', message: done, timeout: 3000 });
    } catch (err) {
      fail(err);
    } finally {
      setBusy('');
    }
  };
  const toggle = (member: string, privilege: string, on: boolean) =>
    call(`${member}|${privilege}`, () =>
      api<PrivilegeMatrix>(rt.config, on ? 'PUT' : 'DELETE', `/admin/privileges/${cid}/${encodeURIComponent(privilege)}`, { member }),
    );
  const preset = (member: string, value: string) => {
    if (!value) return;
    void call(`${member}|preset`, () => api<PrivilegeMatrix>(rt.config, 'POST', `/admin/privileges/${cid}/preset`, { member, preset: value }), t('admin-privileges:saved'));
  };
  const copyAll = () => {
    if (!window.confirm(t('admin-privileges:copy-to-all-confirm'))) return;
    void call('copy', () => api<PrivilegeMatrix>(rt.config, 'POST', `/admin/privileges/${cid}/copy-to-all`, {}), t('admin-privileges:copied'));
  };
  const copyFrom = (e: FormEvent) => {
    e.preventDefault();
    if (!fromCid) return;
    void call('copy', () => api<PrivilegeMatrix>(rt.config, 'POST', `/admin/privileges/${cid}/copy-from`, { fromCid: Number(fromCid) }), t('admin-privileges:copied'));
  };
  const [uid, setUid] = useState('');
  const addUser = (e: FormEvent) => {
    e.preventDefault();
    if (/^\d+$/.test(uid.trim())) rt.navigate(`${base}${cid ? `/${cid}` : ''}?uid=${uid.trim()}`);
  };
  const addGroup = (name: string) => {
    if (name) rt.navigate(`${base}${cid ? `/${cid}` : ''}?group=${encodeURIComponent(name)}`);
  };

  const rows: { key: string; member: string; name: string; system?: boolean; privileges: Record<string, boolean>; user?: boolean }[] = [
    ...matrix.groups.map((g) => ({ key: `g:${g.name}`, member: g.name, name: g.name, system: g.isSystem, privileges: g.privileges })),
    ...matrix.users.map((u) => ({ key: `u:${u.uid}`, member: String(u.uid), name: u.name, privileges: u.privileges, user: true })),
  ];

  return (
    <>
      <PageHeader title={t('admin-privileges:title')} />
      <div className="d-flex flex-wrap gap-2 align-items-end mb-3">
        <div>
          <label htmlFor="priv-scope" className="form-label small mb-1">{t('admin-privileges:scope')}</label>
          <select id="priv-scope" className="form-select form-select-sm" value={cid} onChange={(e) => rt.navigate(Number(e.target.value) ? `${base}/${e.target.value}` : base)}>
            <option value={0}>{t('admin-privileges:global')}</option>
            {data.categories.map((c) => (
              <option key={c.cid} value={c.cid} dir="auto">{'\u00a0\u00a0'.repeat(c.level) + c.name}</option>
            ))}
          </select>
        </div>
        {data.otherGroups.length > 0 && (
          <div>
            <label htmlFor="priv-add-group" className="form-label small mb-1">{t('admin-privileges:add-group')}</label>
            <select id="priv-add-group" className="form-select form-select-sm" value="" onChange={(e) => addGroup(e.target.value)}>
              <option value="">{t('admin-privileges:choose-group')}</option>
              {data.otherGroups.map((g) => (
                <option key={g} value={g}>{g}</option>
              ))}
            </select>
          </div>
        )}
        <form className="d-flex gap-2 align-items-end" onSubmit={addUser}>
          <div>
            <label htmlFor="priv-add-user" className="form-label small mb-1">{t('admin-privileges:add-user')}</label>
            <input id="priv-add-user" className="form-control form-control-sm" inputMode="numeric" pattern="[0-9]+" value={uid} onChange={(e) => setUid(e.target.value)} placeholder={t('admin-privileges:user-id')} />
          </div>
          <button type="submit" className="btn btn-sm btn-outline-secondary" disabled={!uid.trim()}>{t('admin-privileges:add')}</button>
        </form>
      </div>
      <p className="small text-body-secondary">{t(cid ? 'admin-privileges:category-help' : 'admin-privileges:global-help')}</p>
      <div className="table-responsive border rounded mb-3" data-testid="privilege-matrix">
        <table className="table table-sm table-hover align-middle mb-0 text-nowrap">
          <thead>
            <tr>
              <th scope="col" className="bg-body-tertiary" style={{ position: 'sticky', insetInlineStart: 0, zIndex: 2 }}>{t('admin-privileges:group')}</th>
              {matrix.labelData.map((l) => (
                <th key={l.name} scope="col" className={`small text-center ${TYPE_CLASS[l.type] ?? ''}`} title={l.name}>{label(l.name)}</th>
              ))}
              <th scope="col" className="small">{t('admin-privileges:preset')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row" className="bg-body text-wrap" style={{ position: 'sticky', insetInlineStart: 0, zIndex: 1, minWidth: '8rem', maxWidth: '11rem' }}>
                  <span className="me-1">{r.name}</span>
                  {r.system && <span className="badge text-bg-secondary">{t('admin-privileges:system')}</span>}
                  {r.user && <span className="badge text-bg-info">{t('admin-privileges:user')}</span>}
                </th>
                {matrix.labelData.map((l) => (
                  <td key={l.name} className="text-center">
                    <input
                      type="checkbox"
                      className="form-check-input"
                      checked={!!r.privileges[l.name]}
                      disabled={busy === `${r.member}|${l.name}`}
                      aria-label={t('admin-privileges:toggle', r.name, label(l.name))}
                      data-privilege={l.name}
                      data-member={r.member}
                      onChange={(e) => void toggle(r.member, l.name, e.target.checked)}
                    />
                  </td>
                ))}
                <td>
                  <select className="form-select form-select-sm" value="" aria-label={t('admin-privileges:preset-for', r.name)} onChange={(e) => preset(r.member, e.target.value)} disabled={busy === `${r.member}|preset`}>
                    <option value="">{t('admin-privileges:choose-preset')}</option>
                    {data.presets.map((p) => (
                      <option key={p} value={p}>{t(`admin-privileges:preset.${p}`)}</option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {cid > 0 && (
        <div className="d-flex flex-wrap gap-3 align-items-end">
          <button type="button" className="btn btn-outline-primary btn-sm" onClick={copyAll} disabled={busy === 'copy'}>{t('admin-privileges:copy-to-all')}</button>
          <form className="d-flex gap-2 align-items-end" onSubmit={copyFrom}>
            <div>
              <label htmlFor="priv-copy-from" className="form-label small mb-1">{t('admin-privileges:copy-from')}</label>
              <select id="priv-copy-from" className="form-select form-select-sm" value={fromCid} onChange={(e) => setFromCid(e.target.value)}>
                <option value="">{t('admin-privileges:choose-category')}</option>
                {data.categories.filter((c) => c.cid !== cid).map((c) => (
                  <option key={c.cid} value={c.cid} dir="auto">{c.name}</option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn btn-outline-secondary btn-sm" disabled={!fromCid || busy === 'copy'}>{t('admin-privileges:copy')}</button>
          </form>
        </div>
      )}
    </>
  );
}
