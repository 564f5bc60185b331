import { useState, type FormEvent } from 'react';
import type { GroupMembersPage } from '../../../shared/schemas/group';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Pagination } from '../../components/Pagination';
import { MemberLink } from './details';

/** A group's member list with search and pages; owners get ownership and kick buttons. */
export default function GroupMembers({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const rp = rt.config.relative_path;
  const data = page as GroupMembersPage;
  const g = data.group;
  const [query, setQuery] = useState(data.query ?? '');
  const [busy, setBusy] = useState(false);
  const base = `/groups/${encodeURIComponent(g.slug)}`;
  const search = (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    rt.navigate(`${rp}${base}/members${q ? `?query=${encodeURIComponent(q)}` : ''}`);
  };
  const act = async (method: 'PUT' | 'DELETE', path: string, confirm?: string) => {
    if (confirm && !window.confirm(t(confirm))) return;
    setBusy(true);
    try {
      await api(rt.config, method, path);
      rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <PageHeader title={<a href={`${rp}${base}`} className="text-reset text-decoration-none">{g.displayName}</a>} subtitle={t('groups:members-count', g.memberCount)} />
      <form className="d-flex gap-2 mb-3" role="search" onSubmit={search}>
        <input type="search" className="form-control" placeholder={t('groups:search-members')} aria-label={t('groups:search-members')} value={query} onChange={(e) => setQuery(e.target.value)} maxLength={100} />
        <button type="submit" className="btn btn-outline-secondary" aria-label={t('groups:search-members')}><Icon name="search" size={16} /></button>
      </form>
      {data.users.length ? (
        <ul className="list-group mb-3" data-testid="group-member-list">
          {data.users.map((m) => (
            <li key={m.uid} className="list-group-item d-flex flex-wrap align-items-center gap-2">
              <span className="flex-grow-1 min-w-0"><MemberLink m={m} owner={m.isOwner} /></span>
              {data.isOwner && (
                <>
                  <button type="button" className="btn btn-sm btn-outline-secondary" disabled={busy} onClick={() => void act(m.isOwner ? 'DELETE' : 'PUT', `${base}/ownership/${m.uid}`)}>{t('groups:details.grant')}</button>
                  <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy} onClick={() => void act('DELETE', `${base}/membership/${m.uid}`, 'groups:details.kick-confirm')}>{t('groups:details.kick')}</button>
                </>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <div className="card card-body text-center text-body-secondary py-4">{t('groups:no-members-found')}</div>
      )}
      <Pagination pagination={data.pagination} />
    </>
  );
}
