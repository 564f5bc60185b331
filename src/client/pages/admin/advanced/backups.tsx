import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { AdminBackupsPage, BackupEntry, BackupStatus } from '../../../../shared/schemas/admin-backups';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { errorText } from '../../../i18n';
import { PageHeader } from '../../../components/PageHeader';
import { Timeago } from '../../../components/Timeago';

const busy = (s: BackupStatus) => s.state === 'queued' || s.state === 'running';

/** admin/advanced/backups: make, list, download, upload, delete and restore backups, with live progress; the schedule. */
export default function AdminBackups({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminBackupsPage;
  const [backups, setBackups] = useState<BackupEntry[]>(data.backups);
  const [status, setStatus] = useState<BackupStatus>(data.status);
  const [working, setWorking] = useState(false);
  const [restoring, setRestoring] = useState<string | null>(null);
  const [confirm, setConfirm] = useState('');
  const [schedule, setSchedule] = useState(data.schedule);
  const finished = useRef<BackupStatus | null>(null);
  const fail = (err: unknown) => rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });

  const refresh = async () => {
    const res = await api<{ backups: BackupEntry[]; status: BackupStatus }>(rt.config, 'GET', '/admin/backups');
    setBackups(res.backups);
    setStatus(res.status);
    return res.status;
  };

  // While a backup or restore runs, its progress is read every second (from any process: it lives in the file store).
  useEffect(() => {
    if (!busy(status)) return;
    const timer = setInterval(() => {
      refresh().catch(() => {
        // A restore replaced the sessions: this one may be gone. The page says so once it ends.
        setStatus((s) => (s.op === 'restore' ? { ...s, state: 'done', phase: 'done' } : s));
      });
    }, 1000);
    return () => clearInterval(timer);
  }, [status.state]);

  useEffect(() => {
    if (busy(status) || finished.current === status || !status.finished || Date.now() - status.finished > 60_000) return;
    finished.current = status;
    if (status.state === 'failed') rt.alert({ type: 'danger', message: t('admin-advanced:backups.failed', errorText(rt.i18n, status.error ?? {})) });
    else if (status.op === 'backup') rt.alert({ type: 'success', message: t('admin-advanced:backups.done-backup', status.name), timeout: 5000 });
  }, [status]);

  const run = async (work: () => Promise<unknown>) => {
    setWorking(true);
    try {
      await work();
    } catch (err) {
      fail(err);
    } finally {
      setWorking(false);
    }
  };
  const create = () => run(async () => setStatus(await api<BackupStatus>(rt.config, 'POST', '/admin/backups', {})));
  const remove = (b: BackupEntry) =>
    run(async () => {
      if (!window.confirm(t('admin-advanced:backups.confirm-delete', b.name))) return;
      await api(rt.config, 'DELETE', `/admin/backups/${encodeURIComponent(b.name)}`);
      rt.alert({ type: 'success', message: t('admin-advanced:backups.deleted'), timeout: 3000 });
      await refresh();
    });
  const restore = (e: FormEvent) => {
    e.preventDefault();
    const name = restoring!;
    return run(async () => {
      setStatus(await api<BackupStatus>(rt.config, 'POST', `/admin/backups/${encodeURIComponent(name)}/restore`, { confirm }));
      setRestoring(null);
      setConfirm('');
    });
  };
  const upload = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const body = new FormData(form);
    return run(async () => {
      const res = await fetch(`${page.relative_path}/api/v3/admin/backups/upload`, {
        method: 'POST',
        body,
        headers: { 'x-csrf-token': rt.config.csrf_token },
        credentials: 'same-origin',
      });
      const json = (await res.json().catch(() => ({}))) as { status?: { message?: string; key?: string; params?: (string | number)[] } };
      if (!res.ok) throw Object.assign(new Error(json.status?.message ?? String(res.status)), { key: json.status?.key, params: json.status?.params });
      form.reset();
      rt.alert({ type: 'success', message: t('admin-advanced:backups.uploaded'), timeout: 3000 });
      await refresh();
    });
  };
  const saveSchedule = (e: FormEvent) => {
    e.preventDefault();
    return run(async () => {
      await api(rt.config, 'PUT', '/admin/settings', { values: schedule });
      rt.alert({ type: 'success', message: t('admin-advanced:backups.schedule-saved'), timeout: 3000 });
    });
  };

  const pct = status.total ? Math.min(100, Math.round((status.done / status.total) * 100)) : status.phase === 'done' ? 100 : 0;
  const phase = t(`admin-advanced:backups.phase.${status.phase || 'verify'}`);
  const running = busy(status);

  return (
    <>
      <PageHeader title={t('admin-advanced:backups.title')} subtitle={t('admin-advanced:backups.intro')} />
      <p className="small text-body-secondary" data-storage={data.storage.kind}>
        {t(
          'admin-advanced:backups.storage',
          t(`admin-advanced:backups.storage-${data.storage.kind}`),
          data.storage.where,
          data.storage.database === 'postgres' ? 'PostgreSQL' : 'SQLite',
        )}
      </p>

      {(running || (status.op === 'restore' && status.state === 'done')) && (
        <section className="card mb-3" aria-live="polite" data-status={status.state}>
          <div className="card-body">
            {status.state === 'done' ? (
              <p className="mb-0 text-success">
                {t('admin-advanced:backups.done-restore', status.name)} <a href={`${page.relative_path}/login`}>{t('global:login')}</a>
              </p>
            ) : (
              <>
                <p className="mb-2">
                  {status.state === 'queued'
                    ? t('admin-advanced:backups.status.queued')
                    : status.op === 'restore'
                      ? t('admin-advanced:backups.status.restore', status.name, phase)
                      : t('admin-advanced:backups.status.backup', phase)}
                  {status.table && <span className="text-body-secondary"> · {status.table}</span>}
                </p>
                <div
                  className="progress"
                  role="progressbar"
                  aria-label={t('admin-advanced:backups.title')}
                  aria-valuenow={pct}
                  aria-valuemin={0}
                  aria-valuemax={100}
                >
                  <div className="progress-bar progress-bar-striped progress-bar-animated" style={{ width: `${pct}%` }}>
                    {pct}%
                  </div>
                </div>
                {status.total > 0 && (
                  <p className="small text-body-secondary mt-1 mb-0">
                    {t('admin-advanced:backups.rows', status.done.toLocaleString(), status.total.toLocaleString())}
                  </p>
                )}
              </>
            )}
          </div>
        </section>
      )}

      <div className="d-flex flex-wrap gap-2 align-items-end mb-3">
        <button type="button" className="btn btn-primary" disabled={working || running} onClick={() => void create()}>
          {t('admin-advanced:backups.create')}
        </button>
        <form className="input-group input-group-sm ms-md-auto" style={{ maxWidth: '26rem' }} onSubmit={(e) => void upload(e)}>
          <label htmlFor="backup-upload" className="visually-hidden">
            {t('admin-advanced:backups.upload-file')}
          </label>
          <input id="backup-upload" type="file" name="file" accept=".gz,.tgz,application/gzip" className="form-control" required />
          <button type="submit" className="btn btn-outline-primary text-nowrap" disabled={working || running}>
            {t('admin-advanced:backups.upload')}
          </button>
        </form>
      </div>

      {restoring && (
        <form className="card border-danger mb-3" onSubmit={(e) => void restore(e)} data-restore={restoring}>
          <div className="card-body">
            <h2 className="h6 text-danger">{t('admin-advanced:backups.restore-title', restoring)}</h2>
            <p className="small">{t('admin-advanced:backups.restore-warning')}</p>
            <label htmlFor="restore-confirm" className="form-label">
              {t('admin-advanced:backups.restore-confirm', data.siteTitle)}
            </label>
            <input id="restore-confirm" className="form-control mb-2" value={confirm} onChange={(e) => setConfirm(e.target.value)} autoComplete="off" />
            <div className="d-flex flex-wrap gap-2">
              <button type="submit" className="btn btn-danger" disabled={working || confirm.trim() !== data.siteTitle.trim()}>
                {t('admin-advanced:backups.restore-start')}
              </button>
              <button type="button" className="btn btn-outline-secondary" onClick={() => setRestoring(null)}>
                {t('admin-advanced:backups.cancel')}
              </button>
            </div>
          </div>
        </form>
      )}

      {backups.length === 0 ? (
        <div className="alert alert-info" role="status">
          {t('admin-advanced:backups.none')}
        </div>
      ) : (
        <div className="table-responsive mb-4">
          <table className="table align-middle admin-backups">
            <thead>
              <tr>
                <th scope="col">{t('admin-advanced:backups.col.name')}</th>
                <th scope="col" className="d-none d-sm-table-cell text-end">
                  {t('admin-advanced:backups.col.size')}
                </th>
                <th scope="col" className="d-none d-md-table-cell">
                  {t('admin-advanced:backups.col.date')}
                </th>
                <th scope="col">
                  <span className="visually-hidden">{t('admin-advanced:backups.col.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {backups.map((b) => (
                <tr key={b.name} data-name={b.name}>
                  <td className="text-break small">
                    <span className="font-monospace">{b.name}</span>
                    <div className="text-body-secondary">
                      <span className="badge text-bg-light border me-1">{t(`admin-advanced:backups.kind.${b.kind}`)}</span>
                      <span className="d-sm-none">{b.sizeHumanReadable} · </span>
                      <span className="d-md-none">
                        <Timeago ts={b.mtime} />
                      </span>
                    </div>
                  </td>
                  <td className="d-none d-sm-table-cell text-end text-nowrap">{b.sizeHumanReadable}</td>
                  <td className="d-none d-md-table-cell text-nowrap">
                    <Timeago ts={b.mtime} />
                  </td>
                  <td className="text-end">
                    <div className="d-inline-flex flex-wrap justify-content-end gap-1">
                      <a
                        className="btn btn-sm btn-outline-secondary"
                        href={`${page.relative_path}/api/v3/admin/backups/${encodeURIComponent(b.name)}`}
                        download
                      >
                        {t('admin-advanced:backups.download')}
                        <span className="visually-hidden"> {b.name}</span>
                      </a>
                      <button
                        type="button"
                        className="btn btn-sm btn-outline-warning"
                        disabled={working || running}
                        onClick={() => {
                          setRestoring(b.name);
                          setConfirm('');
                        }}
                      >
                        {t('admin-advanced:backups.restore')}
                        <span className="visually-hidden"> {b.name}</span>
                      </button>
                      <button type="button" className="btn btn-sm btn-outline-danger" disabled={working || running} onClick={() => void remove(b)}>
                        {t('admin-advanced:backups.delete')}
                        <span className="visually-hidden"> {b.name}</span>
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <form className="card" onSubmit={(e) => void saveSchedule(e)} aria-labelledby="backup-schedule">
        <div className="card-body">
          <h2 className="h6" id="backup-schedule">
            {t('admin-advanced:backups.schedule')}
          </h2>
          <p className="small text-body-secondary">{t('admin-advanced:backups.schedule-help')}</p>
          <div className="row g-2 align-items-end">
            <div className="col-sm-5">
              <label htmlFor="backup-schedule-select" className="form-label">
                {t('admin-advanced:backups.frequency')}
              </label>
              <select
                id="backup-schedule-select"
                className="form-select"
                value={schedule.backupSchedule}
                onChange={(e) => setSchedule({ ...schedule, backupSchedule: e.target.value as typeof schedule.backupSchedule })}
              >
                {(['off', 'daily', 'weekly'] as const).map((v) => (
                  <option key={v} value={v}>
                    {t(`admin-advanced:backups.schedule.${v}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="col-sm-3">
              <label htmlFor="backup-keep" className="form-label">
                {t('admin-advanced:backups.keep')}
              </label>
              <input
                id="backup-keep"
                type="number"
                min={1}
                max={100}
                className="form-control"
                value={schedule.backupKeep}
                onChange={(e) => setSchedule({ ...schedule, backupKeep: Number(e.target.value) })}
              />
            </div>
            <div className="col-sm-4">
              <button type="submit" className="btn btn-outline-primary w-100" disabled={working}>
                {t('admin-advanced:backups.save-schedule')}
              </button>
            </div>
          </div>
        </div>
      </form>
    </>
  );
}
