import { useEffect, useState, type FormEvent } from 'react';
import type { AdminGroupsPage } from '../../../../shared/schemas/admin-privileges';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { errorText } from '../../../i18n';
import { PageHeader } from '../../../components/PageHeader';

/** admin/manage/groups: every group with its member count; search, create, delete (not system groups). */
export default function AdminGroups({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminGroupsPage;
  const [query, setQuery] = useState(data.query);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setQuery(data.query), [data]);
  const base = `${page.relative_path}/admin/manage/groups`;
  const reload = () => rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });
  const run = async (fn: () => Promise<unknown>, message: string, then?: () => void) => {
    setBusy(true);
    try {
      await fn();
      rt.alert({ type: 'success', message, timeout: 3000 });
      (then ?? reload)();
    } catch (err) {
      rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const search = (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    rt.navigate(`${base}${q ? `?query=${encodeURIComponent(q)}` : ''}`);
  };
  const create = (e: FormEvent) => {
    e.preventDefault();
    let slug = '';
    void run(
      () => api<{ slug: string }>(rt.config, 'POST', '/groups', { name }).then((g) => { slug = g.slug; }),
      t('admin-privileges:groups.created'),
      () => rt.navigate(`${base}/${encodeURIComponent(slug)}`),
    );
  };
  const del = (slug: string, groupName: string) => {
    if (!window.confirm(t('admin-privileges:groups.confirm-delete', groupName))) return;
    void run(() => api(rt.config, 'DELETE', `/groups/${encodeURIComponent(slug)}`), t('admin-privileges:groups.deleted'));
  };
  return (
    <>
      <PageHeader title={t('admin-privileges:groups.title')} />
      <div className="d-flex flex-wrap gap-3 mb-3">
        <form className="d-flex gap-2" role="search" onSubmit={search}>
          <input type="search" className="form-control form-control-sm" value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t('admin-privileges:groups.search')} aria-label={t('admin-privileges:groups.search')} maxLength={100} />
          <button type="submit" className="btn btn-sm btn-outline-secondary">{t('admin-privileges:groups.search-go')}</button>
        </form>
        <form className="d-flex gap-2" onSubmit={create}>
          <input className="form-control form-control-sm" value={name} onChange={(e) => setName(e.target.value)} placeholder={t('admin-privileges:groups.new-name')} aria-label={t('admin-privileges:groups.new-name')} maxLength={255} required />
          <button type="submit" className="btn btn-sm btn-primary text-nowrap" disabled={busy || !name.trim()}>{t('admin-privileges:groups.create')}</button>
        </form>
      </div>
      <div className="table-responsive">
        <table className="table table-sm align-middle">
          <thead>
            <tr>
              <th scope="col">{t('admin-privileges:groups.name')}</th>
              <th scope="col" className="d-none d-md-table-cell">{t('admin-privileges:groups.description')}</th>
              <th scope="col" className="text-end">{t('admin-privileges:groups.members')}</th>
              <th scope="col"><span className="visually-hidden">{t('admin-privileges:groups.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {data.groups.map((g) => (
              <tr key={g.name}>
                <td>
                  <a href={`${base}/${encodeURIComponent(g.slug)}`} className="fw-semibold me-1">{g.name}</a>
                  {g.system && <span className="badge text-bg-secondary me-1">{t('admin-privileges:groups.system')}</span>}
                  {g.hidden && <span className="badge text-bg-dark me-1">{t('admin-privileges:groups.hidden')}</span>}
                  {g.private && <span className="badge text-bg-warning">{t('admin-privileges:groups.private')}</span>}
                </td>
                <td className="d-none d-md-table-cell small text-body-secondary text-truncate" style={{ maxWidth: '20rem' }}>{g.description}</td>
                <td className="text-end">{g.memberCount}</td>
                <td className="text-end text-nowrap">
                  <a className="btn btn-sm btn-outline-primary me-1" href={`${base}/${encodeURIComponent(g.slug)}`}>{t('admin-privileges:groups.edit')}</a>
                  {!g.system && (
                    <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => del(g.slug, g.name)} disabled={busy}>{t('admin-privileges:groups.delete')}</button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!data.groups.length && <p className="text-body-secondary">{t('admin-privileges:groups.none')}</p>}
    </>
  );
}
