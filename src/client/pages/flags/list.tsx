import { useEffect, useId, useState, type FormEvent } from 'react';
import { FLAG_SORTS, FLAG_STATES, FLAG_TYPES, type FlagListItem, type FlagsListPage } from '../../../shared/schemas/flag';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT, useUser } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Avatar } from '../../components/Avatar';
import { FlagsChart } from '../../components/flags/FlagsChart';
import { PageHeader } from '../../components/PageHeader';
import { Pagination } from '../../components/Pagination';
import { Timeago } from '../../components/Timeago';
import { errorText } from '../../i18n';
import { useStore } from '../../state/store';
import { userPath } from '../../util/urls';

/** Bootstrap's badge colour of a flag state. */
export const STATE_BADGE: Record<string, string> = { open: 'text-bg-info', wip: 'text-bg-warning', resolved: 'text-bg-success', rejected: 'text-bg-danger' };

type FilterForm = Record<'state' | 'type' | 'cid' | 'sort' | 'assignee' | 'reporterId' | 'targetUid' | 'quick', string>;

function formOf(data: FlagsListPage): FilterForm {
  const f = data.filters;
  return {
    state: f.state ?? '',
    type: f.type ?? '',
    cid: f.cid ? String(f.cid) : '',
    sort: data.sort === 'newest' ? '' : data.sort,
    assignee: f.assignee ? String(f.assignee) : '',
    reporterId: f.reporterId ? String(f.reporterId) : '',
    targetUid: f.targetUid ? String(f.targetUid) : '',
    quick: f.quick ?? '',
  };
}

/** One flag of the list: what, whose, state, heat, assignee; a box for the bulk actions. */
function FlagRow({ flag, checked, onCheck }: { flag: FlagListItem; checked: boolean; onCheck: (on: boolean) => void }) {
  const rt = useRuntime();
  const { t, tx } = useT();
  const rp = rt.config.relative_path;
  return (
    <li className="list-group-item d-flex gap-3 align-items-start flag-row" data-testid="flag-row" data-flag-id={flag.flagId}>
      <input type="checkbox" className="form-check-input mt-1 flex-shrink-0" checked={checked} onChange={(e) => onCheck(e.target.checked)} aria-label={t('flags:select-flag', flag.flagId)} />
      <div className="flex-grow-1 min-w-0">
        <div className="d-flex flex-wrap align-items-center gap-2">
          <span className={`badge ${STATE_BADGE[flag.state] ?? 'text-bg-secondary'}`}>{tx(`[[flags:state-${flag.state}]]`)}</span>
          <span className="badge text-bg-light border">{t(`flags:type-${flag.type}`)}</span>
          <a href={`${rp}/flags/${flag.flagId}`} className="fw-semibold text-break">
            {flag.targetTitle || flag.target_readable}
          </a>
        </div>
        <div className="small text-body-secondary d-flex flex-wrap align-items-center gap-2 mt-1">
          <span className="d-inline-flex align-items-center gap-1">
            <Avatar user={flag.targetUser} size="xs" />
            <a href={`${rp}${userPath(flag.targetUser.userslug)}`} className="text-reset">{flag.targetUser.displayname}</a>
          </span>
          <span>·</span>
          <Timeago iso={flag.datetimeISO} ts={flag.datetime} />
          <span>·</span>
          <span>{t('flags:assignee')}: {flag.assigneeUser ? flag.assigneeUser.displayname : t('flags:no-assignee')}</span>
        </div>
      </div>
      <span className="badge rounded-pill text-bg-danger flex-shrink-0" title={t('flags:x-reports', flag.heat)} aria-label={t('flags:x-reports', flag.heat)}>
        {flag.heat}
      </span>
    </li>
  );
}

/** /flags: the moderators' list (first, on a phone) with filters in the URL, sorting and bulk actions. */
export default function FlagsList({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const user = useUser();
  const id = useId();
  const data = page as FlagsListPage;
  const { seq } = useStore(rt.page);
  const [form, setForm] = useState<FilterForm>(() => formOf(data));
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setForm(formOf(data));
    setChecked(new Set());
  }, [seq, data]);

  const go = (values: FilterForm) => {
    const qs = new URLSearchParams(Object.entries(values).filter(([, v]) => v !== ''));
    rt.navigate(`${rt.config.relative_path}/flags${qs.size ? `?${qs}` : ''}`);
  };
  const apply = (e: FormEvent) => {
    e.preventDefault();
    go(form);
  };
  const set = (key: keyof FilterForm) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  // Bulk actions: one PUT per flag, as NodeBB's client does; the list reloads afterwards.
  const bulk = async (change: { state?: string; assignee?: number }) => {
    const ids = [...checked];
    if (!ids.length) return;
    setBusy(true);
    let done = 0;
    for (const flagId of ids) {
      try {
        await api(rt.config, 'PUT', `/flags/${flagId}`, change);
        done += 1;
      } catch (err) {
        rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
      }
    }
    if (done) rt.alert({ type: 'success', message: t('flags:bulk-success', done) });
    setBusy(false);
    rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });
  };
  const all = data.flags.length > 0 && data.flags.every((f) => checked.has(f.flagId));
  const field = (name: string) => `${id}-${name}`;

  return (
    <>
      <PageHeader title={t('pages:flags')} subtitle={t('flags:x-flags-found', data.count)}>
        <a href={`${rt.config.relative_path}/flags?quick=mine`} className={`btn btn-sm ${data.filters.quick === 'mine' ? 'btn-primary' : 'btn-outline-primary'}`} aria-current={data.filters.quick === 'mine' ? 'page' : undefined}>
          {t('flags:filter-quick-mine')}
        </a>
        {data.hasFilter && (
          <a href={`${rt.config.relative_path}/flags`} className="btn btn-sm btn-outline-dark">{t('flags:filter-reset')}</a>
        )}
      </PageHeader>
      <div className="row g-3">
        <div className="col-lg-9">
          <div className="d-flex flex-wrap align-items-center gap-2 mb-2" role="toolbar" aria-label={t('flags:bulk-actions')}>
            <div className="form-check mb-0 me-auto">
              <input id={field('all')} type="checkbox" className="form-check-input" checked={all} disabled={!data.flags.length} onChange={(e) => setChecked(e.target.checked ? new Set(data.flags.map((f) => f.flagId)) : new Set())} />
              <label htmlFor={field('all')} className="form-check-label small">{t('flags:select-all')}</label>
            </div>
            {user && (
              <button type="button" className="btn btn-sm btn-outline-primary" disabled={busy || !checked.size} onClick={() => void bulk({ assignee: user.uid })}>{t('flags:bulk-assign-to-me')}</button>
            )}
            <button type="button" className="btn btn-sm btn-outline-success" disabled={busy || !checked.size} onClick={() => void bulk({ state: 'resolved' })}>{t('flags:bulk-resolve')}</button>
            <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy || !checked.size} onClick={() => void bulk({ state: 'rejected' })}>{t('flags:bulk-reject')}</button>
          </div>
          {data.flags.length ? (
            <ul className="list-group mb-3" data-testid="flag-list">
              {data.flags.map((f) => (
                <FlagRow key={f.flagId} flag={f} checked={checked.has(f.flagId)} onCheck={(on) => setChecked((c) => { const n = new Set(c); if (on) n.add(f.flagId); else n.delete(f.flagId); return n; })} />
              ))}
            </ul>
          ) : (
            <div className="card card-body text-center text-body-secondary py-5" data-testid="flags-empty">{t('flags:no-flags')}</div>
          )}
          <Pagination pagination={data.pagination} />
        </div>
        <div className="col-lg-3">
          {data.analytics?.length > 0 && <FlagsChart counts={data.analytics} />}
          <form className="card card-body d-flex flex-column gap-2" onSubmit={apply} aria-label={t('flags:filters')} data-testid="flag-filters">
            <label htmlFor={field('state')} className="form-label small mb-0">{t('flags:filter-state')}</label>
            <select id={field('state')} className="form-select form-select-sm" value={form.state} onChange={set('state')}>
              <option value="">{t('flags:state-all')}</option>
              {FLAG_STATES.map((s) => <option key={s} value={s}>{t(`flags:state-${s}`)}</option>)}
            </select>
            <label htmlFor={field('type')} className="form-label small mb-0">{t('flags:filter-type')}</label>
            <select id={field('type')} className="form-select form-select-sm" value={form.type} onChange={set('type')}>
              <option value="">{t('flags:filter-type-all')}</option>
              {FLAG_TYPES.map((s) => <option key={s} value={s}>{t(`flags:filter-type-${s}`)}</option>)}
            </select>
            <label htmlFor={field('cid')} className="form-label small mb-0">{t('flags:filter-cid')}</label>
            <select id={field('cid')} className="form-select form-select-sm" value={form.cid} onChange={set('cid')}>
              <option value="">{t('flags:filter-cid-all')}</option>
              {data.categories.map((c) => <option key={c.cid} value={c.cid} dir="auto">{c.name}</option>)}
            </select>
            <label htmlFor={field('sort')} className="form-label small mb-0">{t('flags:sort')}</label>
            <select id={field('sort')} className="form-select form-select-sm" value={form.sort || 'newest'} onChange={set('sort')}>
              {FLAG_SORTS.map((s) => <option key={s} value={s}>{t(`flags:sort-${s}`)}</option>)}
            </select>
            {(['assignee', 'reporterId', 'targetUid'] as const).map((k) => (
              <div key={k}>
                <label htmlFor={field(k)} className="form-label small mb-0">{t(`flags:filter-${k}`)}</label>
                <input id={field(k)} className="form-control form-control-sm" inputMode="numeric" pattern="[0-9]*" value={form[k]} onChange={set(k)} />
              </div>
            ))}
            <button type="submit" className="btn btn-sm btn-primary mt-1">{t('flags:apply-filters')}</button>
          </form>
        </div>
      </div>
    </>
  );
}
