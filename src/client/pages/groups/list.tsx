import { useState, type FormEvent } from 'react';
import type { GroupData, GroupsListPage } from '../../../shared/schemas/group';
import type { PageBase, Pagination as PaginationData } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { Avatar } from '../../components/Avatar';
import { GroupBadge } from '../../components/GroupBadge';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Pagination } from '../../components/Pagination';
import { badgeOf, GroupKind } from './shared';

const SORTS = ['alpha', 'count', 'date'] as const;

// A list shows the description as plain text: markdown's marks dropped, cut at 160 characters.
const summary = (text: string) => {
  const plain = text.replace(/[*_`#>~]+/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\s+/g, ' ').trim();
  return plain.length > 160 ? `${plain.slice(0, 160)}…` : plain;
};

/** The groups page: the groups a viewer may see, sorted and searched, and "create group" for the privileged. */
export default function GroupsList({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const rp = rt.config.relative_path;
  const data = page as GroupsListPage;
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  // The search words come from the address (NodeBB's page data has no field for them).
  const current = new URLSearchParams(page.url.split('?')[1] ?? '').get('query') ?? '';
  const [query, setQuery] = useState(current);

  const href = (sort: string, q: string) => {
    const p = new URLSearchParams();
    if (sort !== 'alpha') p.set('sort', sort);
    if (q) p.set('query', q);
    const s = p.toString();
    return `${rp}/groups${s ? `?${s}` : ''}`;
  };
  const search = (e: FormEvent) => {
    e.preventDefault();
    rt.navigate(href(data.sort, query.trim()));
  };
  const create = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const g = await api<GroupData>(rt.config, 'POST', '/groups/', { name: name.trim() });
      rt.navigate(`${rp}/groups/${encodeURIComponent(g.slug)}`);
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title={t('groups:groups')} icon={<Icon name="users" size={28} />}>
        {data.allowGroupCreation && (
          <button type="button" className="btn btn-primary" onClick={() => setCreating((c) => !c)} aria-expanded={creating} data-testid="group-create-toggle">
            <Icon name="plus" size={16} /> {t('groups:new-group')}
          </button>
        )}
      </PageHeader>
      {creating && (
        <form className="card card-body mb-3 d-flex flex-row flex-wrap gap-2 align-items-end" onSubmit={(e) => void create(e)} data-testid="group-create-form">
          <div className="flex-grow-1">
            <label htmlFor="new-group-name" className="form-label">{t('groups:new-group.group-name')}</label>
            <input id="new-group-name" className="form-control" value={name} onChange={(e) => setName(e.target.value)} maxLength={255} required autoFocus />
          </div>
          <button type="submit" className="btn btn-primary" disabled={busy || !name.trim()}>{t('groups:new-group.create')}</button>
        </form>
      )}
      <div className="d-flex flex-wrap gap-2 mb-3 align-items-center">
        <ul className="nav nav-pills gap-1" aria-label={t('groups:groups')}>
          {SORTS.map((s) => (
            <li className="nav-item" key={s}>
              <a href={href(s, current)} className={`nav-link py-1 px-3${data.sort === s ? ' active' : ''}`} aria-current={data.sort === s ? 'page' : undefined}>{t(`groups:sort.${s}`)}</a>
            </li>
          ))}
        </ul>
        <form className="ms-auto d-flex gap-2" role="search" onSubmit={search}>
          <input type="search" className="form-control form-control-sm" placeholder={t('groups:search')} aria-label={t('groups:search')} value={query} onChange={(e) => setQuery(e.target.value)} maxLength={100} />
          <button type="submit" className="btn btn-sm btn-outline-secondary" aria-label={t('groups:search')}><Icon name="search" size={16} /></button>
        </form>
      </div>
      {data.groups.length ? (
        <ul className="row row-cols-1 row-cols-md-2 row-cols-xl-3 g-3 list-unstyled" data-testid="groups-list">
          {data.groups.map((g) => (
            <li className="col" key={g.slug} data-group={g.slug}>
              <div className="card h-100 group-card">
                {g['cover:thumb:url'] && <div className="card-img-top bg-body-tertiary" style={{ height: 72, backgroundImage: `url(${g['cover:thumb:url']})`, backgroundSize: 'cover', backgroundPosition: g['cover:position'] }} />}
                <div className="card-body d-flex flex-column gap-2">
                  <a href={`${rp}/groups/${encodeURIComponent(g.slug)}`} className="h5 mb-0 text-decoration-none">{g.displayName}</a>
                  <div className="d-flex flex-wrap gap-1 align-items-center">
                    {g.userTitleEnabled ? <GroupBadge group={badgeOf(g)} /> : null}
                    <GroupKind group={g} />
                  </div>
                  {g.description && <p className="small text-body-secondary mb-0 text-break">{summary(g.description)}</p>}
                  <div className="mt-auto d-flex align-items-center gap-2">
                    <span className="d-inline-flex">
                      {g.members.map((m) => (
                        <a key={m.uid} href={`${rp}/user/${encodeURIComponent(m.userslug)}`} title={m.username} className="me-n1">
                          <Avatar user={{ ...m, displayname: m.username, picture: m.picture ?? '' }} size="xs" />
                        </a>
                      ))}
                    </span>
                    <span className="small text-body-secondary ms-2">{t('groups:members-count', g.memberCount)}</span>
                  </div>
                </div>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <div className="card card-body text-center text-body-secondary py-5">{t('groups:no-groups-found')}</div>
      )}
      {/* The links are built from the page numbers; the query strings NodeBB leaves out here are not read. */}
      <Pagination pagination={data.pagination as PaginationData} />
    </>
  );
}
