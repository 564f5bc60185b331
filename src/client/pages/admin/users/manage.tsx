import { useEffect, useState, type FormEvent } from 'react';
import { ADMIN_USER_FILTERS, ADMIN_USER_PAGE_SIZES, ADMIN_USER_SEARCH_BY, ADMIN_USER_SORTS, type AdminUserRow, type AdminUsersPage } from '../../../../shared/schemas/admin-people';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { errorText } from '../../../i18n';
import { Avatar } from '../../../components/Avatar';
import { PageHeader } from '../../../components/PageHeader';
import { Pagination } from '../../../components/Pagination';
import { Timeago } from '../../../components/Timeago';

type Action = 'ban' | 'unban' | 'verify' | 'reset' | 'group-add' | 'group-remove' | 'delete-account' | 'delete-all';
const ADMIN_ACTIONS: Action[] = ['ban', 'unban', 'verify', 'reset', 'group-add', 'group-remove', 'delete-account', 'delete-all'];
const MOD_ACTIONS: Action[] = ['ban', 'unban'];
const BAN_LENGTHS = [0, 1, 7, 30, 365] as const;

/** The request one action makes for one member. */
function requestFor(action: Action, u: AdminUserRow, o: { reason: string; days: number; group: string }): [method: 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown] {
  switch (action) {
    case 'ban':
      return ['PUT', `/users/${u.uid}/ban`, { reason: o.reason, until: o.days ? Date.now() + o.days * 86_400_000 : 0 }];
    case 'unban':
      return ['DELETE', `/users/${u.uid}/ban`];
    case 'verify':
      return ['POST', `/users/${u.uid}/emails/${encodeURIComponent(u.email)}/confirm`, {}];
    case 'reset':
      return ['POST', `/users/${u.uid}/password/reset`, {}];
    case 'group-add':
      return ['PUT', `/groups/${encodeURIComponent(o.group)}/membership/${u.uid}`, {}];
    case 'group-remove':
      return ['DELETE', `/groups/${encodeURIComponent(o.group)}/membership/${u.uid}`];
    case 'delete-account':
      return ['DELETE', `/users/${u.uid}/account`];
    case 'delete-all':
      return ['DELETE', `/users/${u.uid}`];
  }
}

/** admin/manage/users: search, sort, filter and page members; bulk actions on the selected ones; CSV export. */
export default function AdminUsers({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminUsersPage;
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [query, setQuery] = useState(data.query);
  const [searchBy, setSearchBy] = useState(data.searchBy);
  const [action, setAction] = useState<Action>('ban');
  const [reason, setReason] = useState(data.banReasons[0] ?? '');
  const [days, setDays] = useState(0);
  const [group, setGroup] = useState(data.groups[0]?.slug ?? '');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setSelected(new Set());
    setQuery(data.query);
    setSearchBy(data.searchBy);
  }, [data]);

  const base = `${page.relative_path}/admin/manage/users`;
  const go = (over: Record<string, string | undefined>) => {
    const q: Record<string, string> = { query: data.query, searchBy: data.searchBy, sortBy: data.sortBy, reverse: String(data.reverse), filters: data.filters.join(','), resultsPerPage: String(data.resultsPerPage) };
    for (const [k, v] of Object.entries(over)) {
      if (v === undefined) delete q[k];
      else q[k] = v;
    }
    const qs = new URLSearchParams(Object.entries(q).filter(([, v]) => v !== '' && v !== 'false')).toString();
    rt.navigate(`${base}${qs ? `?${qs}` : ''}`);
  };
  const search = (e: FormEvent) => {
    e.preventDefault();
    go({ query: query.trim(), searchBy });
  };
  const toggleFilter = (f: string) => go({ filters: (data.filters.includes(f) ? data.filters.filter((x) => x !== f) : [...data.filters, f]).join(',') });

  const actions = data.isAdmin ? ADMIN_ACTIONS : MOD_ACTIONS;
  const chosen = data.users.filter((u) => selected.has(u.uid));
  const allChecked = data.users.length > 0 && chosen.length === data.users.length;
  const toggle = (uid: number) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(uid)) n.delete(uid);
      else n.add(uid);
      return n;
    });

  const apply = async () => {
    if (!chosen.length) return;
    if ((action === 'delete-account' || action === 'delete-all') && !window.confirm(t(`admin-people:users.confirm-${action}`, chosen.length))) return;
    setBusy(true);
    let done = 0;
    const errors: string[] = [];
    for (const u of chosen) {
      const [method, path, body] = requestFor(action, u, { reason, days, group });
      try {
        await api(rt.config, method, path, body);
        done += 1;
      } catch (err) {
        errors.push(`${u.username}: ${errorText(rt.i18n, err)}`);
      }
    }
    setBusy(false);
    if (done) rt.alert({ type: 'success', message: t('admin-people:users.done', t(`admin-people:users.action.${action}`), done), timeout: 4000 });
    if (errors.length) rt.alert({ type: 'danger', message: errors.join('\n') });
    rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });
  };

  return (
    <>
      <PageHeader title={t('admin-people:users.title')} subtitle={t('admin-people:users.count', data.userCount)}>
        {data.isAdmin && (
          <a className="btn btn-sm btn-outline-dark" href={`${base}/custom-reasons`}>{t('admin-people:users.edit-reasons')}</a>
        )}
        {data.isAdmin && (
          <a className="btn btn-sm btn-outline-dark" href={`${page.relative_path}/api/admin/users/csv`} download="users.csv">
            {t('admin-people:users.export-csv')}
          </a>
        )}
      </PageHeader>

      <form role="search" className="row g-2 align-items-end mb-2" onSubmit={search}>
        <div className="col-12 col-md-5">
          <label htmlFor="admin-users-query" className="form-label small mb-1">{t('admin-people:users.search')}</label>
          <input id="admin-users-query" type="search" className="form-control" value={query} onChange={(e) => setQuery(e.target.value)} />
        </div>
        <div className="col-7 col-md-3">
          <label htmlFor="admin-users-by" className="form-label small mb-1">{t('admin-people:users.search-by')}</label>
          <select id="admin-users-by" className="form-select" value={searchBy} onChange={(e) => setSearchBy(e.target.value)}>
            {ADMIN_USER_SEARCH_BY.map((b) => <option key={b} value={b}>{t(`admin-people:users.by.${b}`)}</option>)}
          </select>
        </div>
        <div className="col-5 col-md-2">
          <button type="submit" className="btn btn-primary w-100">{t('admin-people:users.search-button')}</button>
        </div>
      </form>

      <div className="d-flex flex-wrap gap-2 align-items-center mb-3">
        <span className="small text-body-secondary">{t('admin-people:users.filters')}</span>
        {ADMIN_USER_FILTERS.map((f) => (
          <button key={f} type="button" className={`btn btn-sm ${data.filters.includes(f) ? 'btn-secondary' : 'btn-outline-dark'}`} aria-pressed={data.filters.includes(f)} onClick={() => toggleFilter(f)}>
            {t(`admin-people:users.filter.${f}`)}
          </button>
        ))}
        <div className="d-flex flex-wrap gap-2 ms-md-auto">
          <label htmlFor="admin-users-sort" className="visually-hidden">{t('admin-people:users.sort-by')}</label>
          <select id="admin-users-sort" className="form-select form-select-sm w-auto" value={data.sortBy} onChange={(e) => go({ sortBy: e.target.value, page: undefined })}>
            {ADMIN_USER_SORTS.map((s) => <option key={s} value={s}>{t('admin-people:users.sort-by')}: {t(`admin-people:users.sort.${s}`)}</option>)}
          </select>
          <button type="button" className="btn btn-sm btn-outline-dark" aria-pressed={data.reverse} onClick={() => go({ reverse: String(!data.reverse) })} title={t('admin-people:users.reverse')}>
            {data.reverse ? '↑' : '↓'}<span className="visually-hidden">{t('admin-people:users.reverse')}</span>
          </button>
          <label htmlFor="admin-users-per-page" className="visually-hidden">{t('admin-people:users.per-page')}</label>
          <select id="admin-users-per-page" className="form-select form-select-sm w-auto" value={data.resultsPerPage} onChange={(e) => go({ resultsPerPage: e.target.value, page: undefined })}>
            {ADMIN_USER_PAGE_SIZES.map((n) => <option key={n} value={n}>{t('admin-people:users.per-page-n', n)}</option>)}
          </select>
        </div>
      </div>

      <section className="card mb-3" aria-labelledby="admin-users-bulk">
        <div className="card-body py-2 d-flex flex-wrap gap-2 align-items-end">
          <h2 id="admin-users-bulk" className="h6 w-100 mb-0">{t('admin-people:users.bulk', chosen.length)}</h2>
          <div>
            <label htmlFor="admin-users-action" className="form-label small mb-1">{t('admin-people:users.action-label')}</label>
            <select id="admin-users-action" className="form-select form-select-sm" value={action} onChange={(e) => setAction(e.target.value as Action)}>
              {actions.map((a) => <option key={a} value={a}>{t(`admin-people:users.action.${a}`)}</option>)}
            </select>
          </div>
          {action === 'ban' && (
            <>
              <div>
                <label htmlFor="admin-users-reason" className="form-label small mb-1">{t('admin-people:users.ban-reason')}</label>
                <input id="admin-users-reason" className="form-control form-control-sm" list="admin-users-reasons" value={reason} onChange={(e) => setReason(e.target.value)} />
                <datalist id="admin-users-reasons">{data.banReasons.map((r) => <option key={r} value={r} />)}</datalist>
              </div>
              <div>
                <label htmlFor="admin-users-days" className="form-label small mb-1">{t('admin-people:users.ban-length')}</label>
                <select id="admin-users-days" className="form-select form-select-sm" value={days} onChange={(e) => setDays(Number(e.target.value))}>
                  {BAN_LENGTHS.map((d) => <option key={d} value={d}>{d ? t('admin-people:users.days', d) : t('admin-people:users.forever')}</option>)}
                </select>
              </div>
            </>
          )}
          {(action === 'group-add' || action === 'group-remove') && (
            <div>
              <label htmlFor="admin-users-group" className="form-label small mb-1">{t('admin-people:users.group')}</label>
              <select id="admin-users-group" className="form-select form-select-sm" value={group} onChange={(e) => setGroup(e.target.value)}>
                {data.groups.map((g) => <option key={g.slug} value={g.slug}>{g.name}</option>)}
              </select>
            </div>
          )}
          <button type="button" className={`btn btn-sm ${action.startsWith('delete') ? 'btn-danger' : 'btn-primary'}`} disabled={busy || !chosen.length || ((action === 'group-add' || action === 'group-remove') && !group)} onClick={() => void apply()}>
            {t('admin-people:users.apply', chosen.length)}
          </button>
        </div>
      </section>

      {data.users.length === 0 ? (
        <div className="alert alert-info" role="status">{t('admin-people:users.none')}</div>
      ) : (
        <div className="table-responsive mb-3">
          <table className="table align-middle admin-users">
            <thead>
              <tr>
                <th scope="col" style={{ width: '2rem' }}>
                  <input type="checkbox" className="form-check-input" aria-label={t('admin-people:users.select-all')} checked={allChecked} onChange={() => setSelected(allChecked ? new Set() : new Set(data.users.map((u) => u.uid)))} />
                </th>
                <th scope="col">{t('admin-people:users.col.user')}</th>
                <th scope="col" className="d-none d-md-table-cell">{t('admin-people:users.col.email')}</th>
                <th scope="col" className="d-none d-lg-table-cell text-end">{t('admin-people:users.col.posts')}</th>
                <th scope="col" className="d-none d-lg-table-cell text-end">{t('admin-people:users.col.reputation')}</th>
                <th scope="col" className="d-none d-sm-table-cell">{t('admin-people:users.col.joined')}</th>
                <th scope="col" className="d-none d-xl-table-cell">{t('admin-people:users.col.online')}</th>
              </tr>
            </thead>
            <tbody>
              {data.users.map((u) => (
                <tr key={u.uid} data-uid={u.uid} className={selected.has(u.uid) ? 'table-active' : undefined}>
                  <td>
                    <input type="checkbox" className="form-check-input" aria-label={t('admin-people:users.select', u.username)} checked={selected.has(u.uid)} onChange={() => toggle(u.uid)} />
                  </td>
                  <td className="text-break">
                    <div className="d-flex align-items-center gap-2">
                      <Avatar user={u} size="sm" />
                      <div className="min-w-0">
                        <a href={`${page.relative_path}/user/${u.userslug}`} className="fw-semibold">{u.username}</a>
                        <span className="text-body-secondary small ms-1">#{u.uid}</span>
                        <div className="d-flex flex-wrap gap-1">
                          {u.isAdmin && <span className="badge text-bg-primary">{t('admin-people:users.admin')}</span>}
                          {u.banned && <span className="badge text-bg-danger" title={u.banReason}>{t('admin-people:users.banned')}</span>}
                          {u.email && !u["email:confirmed"] && <span className="badge text-bg-warning">{t('admin-people:users.unverified')}</span>}
                        </div>
                        {/* On a phone the address sits under the name (its own column is hidden). */}
                        <div className="small text-body-secondary d-md-none">{u.email}</div>
                      </div>
                    </div>
                  </td>
                  <td className="text-break d-none d-md-table-cell">{u.email}</td>
                  <td className="d-none d-lg-table-cell text-end">{u.postcount}</td>
                  <td className="d-none d-lg-table-cell text-end">{u.reputation}</td>
                  <td className="d-none d-sm-table-cell small"><Timeago iso={u.joindateISO} /></td>
                  <td className="d-none d-xl-table-cell small"><Timeago iso={u.lastonlineISO} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination pagination={data.pagination} />
    </>
  );
}
