import { useState, type FormEvent } from 'react';
import type { AdminEventsPage } from '../../../../shared/schemas/event';
import type { PageBase } from '../../../../shared/types';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { PageHeader } from '../../../components/PageHeader';
import { Pagination } from '../../../components/Pagination';
import { Timeago } from '../../../components/Timeago';

/** admin/advanced/events: the audit log, filtered by type, member and date range (all in the URL). */
export default function AdminEvents({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminEventsPage;
  const q = data.query ?? {};
  const [type, setType] = useState(q.type ?? '');
  const [username, setUsername] = useState(q.username ?? '');
  const [start, setStart] = useState(q.start ?? '');
  const [end, setEnd] = useState(q.end ?? '');
  const [open, setOpen] = useState<number | null>(null);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const params = new URLSearchParams();
    if (type) params.set('type', type);
    if (username.trim()) params.set('username', username.trim());
    if (start) params.set('start', start);
    if (end) params.set('end', end);
    const qs = params.toString();
    rt.navigate(`${page.relative_path}/admin/advanced/events${qs ? `?${qs}` : ''}`);
  };
  return (
    <>
      <PageHeader title={t('admin-advanced:events.title')} />
      <form className="row g-2 align-items-end mb-3" onSubmit={apply} role="search" aria-label={t('admin-advanced:events.filters')}>
        <div className="col-sm-6 col-lg-3">
          <label className="form-label small" htmlFor="ev-type">{t('admin-advanced:events.type')}</label>
          <select id="ev-type" name="type" className="form-select form-select-sm" value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">{t('admin-advanced:events.all-types')}</option>
            {data.types.map((ty) => (
              <option key={ty.value} value={ty.value}>{`${ty.name} (${ty.count})`}</option>
            ))}
          </select>
        </div>
        <div className="col-sm-6 col-lg-3">
          <label className="form-label small" htmlFor="ev-user">{t('admin-advanced:events.user')}</label>
          <input id="ev-user" name="username" className="form-control form-control-sm" maxLength={200} value={username} onChange={(e) => setUsername(e.target.value)} />
        </div>
        <div className="col-6 col-lg-2">
          <label className="form-label small" htmlFor="ev-start">{t('admin-advanced:events.start')}</label>
          <input id="ev-start" name="start" type="date" className="form-control form-control-sm" value={start} onChange={(e) => setStart(e.target.value)} />
        </div>
        <div className="col-6 col-lg-2">
          <label className="form-label small" htmlFor="ev-end">{t('admin-advanced:events.end')}</label>
          <input id="ev-end" name="end" type="date" className="form-control form-control-sm" value={end} onChange={(e) => setEnd(e.target.value)} />
        </div>
        <div className="col-lg-2">
          <button type="submit" className="btn btn-sm btn-primary w-100">{t('admin-advanced:events.apply')}</button>
        </div>
      </form>
      {data.events.length === 0 ? (
        <p className="text-body-secondary">{t('admin-advanced:events.none')}</p>
      ) : (
        <ul className="list-group mb-3 admin-events">
          {data.events.map((ev) => (
            <li key={ev.eid} className="list-group-item" data-eid={ev.eid}>
              <div className="d-flex flex-wrap gap-2 align-items-center">
                <span className="badge text-bg-secondary">{ev.type}</span>
                {ev.uid > 0 ? <a href={`${page.relative_path}/user/${ev.user.userslug}`}>{ev.user.username}</a> : <span className="text-body-secondary">{t('admin-advanced:events.system')}</span>}
                {ev.target && <span className="small font-monospace">{ev.target}</span>}
                <span className="small text-body-secondary ms-auto"><Timeago iso={ev.timestampISO} /></span>
                <button type="button" className="btn btn-sm btn-link p-0" aria-expanded={open === ev.eid} onClick={() => setOpen(open === ev.eid ? null : ev.eid)}>
                  {t('admin-advanced:events.details')}
                </button>
              </div>
              {open === ev.eid && <pre className="small bg-body-tertiary p-2 mt-2 mb-0 text-break" style={{ whiteSpace: 'pre-wrap' }}>{ev.jsonString}{ev.ip ? `\nip: ${ev.ip}` : ''}</pre>}
            </li>
          ))}
        </ul>
      )}
      <Pagination pagination={data.pagination} />
    </>
  );
}
