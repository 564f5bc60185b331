import { useState, type FormEvent } from 'react';
import type { AdminUploadFile, AdminUploadsPage } from '../../../shared/schemas/admin-people';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { PageHeader } from '../../components/PageHeader';
import { Pagination } from '../../components/Pagination';
import { Timeago } from '../../components/Timeago';

/** admin/manage/uploads: every uploaded file with its size, uploader and the posts using it; delete orphans; upload a file. */
export default function AdminUploads({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminUploadsPage;
  const [busy, setBusy] = useState(false);
  const base = `${page.relative_path}/admin/manage/uploads`;
  const reload = () => rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });

  const remove = async (f: AdminUploadFile) => {
    if (!f.orphan && !window.confirm(t('admin-people:uploads.confirm-delete-used', f.name))) return;
    setBusy(true);
    try {
      await api(rt.config, 'DELETE', `/uploads/${f.id}`);
      rt.alert({ type: 'success', message: t('admin-people:uploads.deleted', f.name), timeout: 3000 });
      reload();
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const upload = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    try {
      const res = await fetch(`${page.relative_path}/api/admin/upload/file`, { method: 'POST', body: form, headers: { 'x-csrf-token': rt.config.csrf_token }, credentials: 'same-origin' });
      const json = (await res.json()) as { status?: { key?: string; message?: string } };
      if (!res.ok) throw Object.assign(new Error(json.status?.message ?? String(res.status)), { key: json.status?.key });
      rt.alert({ type: 'success', message: t('admin-people:uploads.uploaded'), timeout: 3000 });
      reload();
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title={t('admin-people:uploads.title')} subtitle={t('admin-people:uploads.intro')} />
      <div className="d-flex flex-wrap gap-2 align-items-end mb-3">
        <div className="btn-group" role="group" aria-label={t('admin-people:uploads.show')}>
          <a href={base} className={`btn btn-sm ${data.orphansOnly ? 'btn-outline-dark' : 'btn-secondary'}`} aria-current={!data.orphansOnly ? 'page' : undefined}>{t('admin-people:uploads.all')}</a>
          <a href={`${base}?orphans=1`} className={`btn btn-sm ${data.orphansOnly ? 'btn-secondary' : 'btn-outline-dark'}`} aria-current={data.orphansOnly ? 'page' : undefined}>{t('admin-people:uploads.orphans')}</a>
        </div>
        <form className="d-flex gap-2 ms-md-auto" onSubmit={(e) => void upload(e)}>
          <label htmlFor="admin-upload-file" className="visually-hidden">{t('admin-people:uploads.upload')}</label>
          <input id="admin-upload-file" type="file" name="files[]" className="form-control form-control-sm" required />
          <button type="submit" className="btn btn-sm btn-primary text-nowrap" disabled={busy}>{t('admin-people:uploads.upload')}</button>
        </form>
      </div>
      {data.files.length === 0 ? (
        <div className="alert alert-info" role="status">{t(data.orphansOnly ? 'admin-people:uploads.no-orphans' : 'admin-people:uploads.none')}</div>
      ) : (
        <div className="table-responsive mb-3">
          <table className="table align-middle admin-uploads">
            <thead>
              <tr>
                <th scope="col">{t('admin-people:uploads.col.file')}</th>
                <th scope="col" className="d-none d-md-table-cell">{t('admin-people:uploads.col.uploader')}</th>
                <th scope="col" className="d-none d-sm-table-cell text-end">{t('admin-people:uploads.col.size')}</th>
                <th scope="col" className="d-none d-lg-table-cell">{t('admin-people:uploads.col.used')}</th>
                <th scope="col"><span className="visually-hidden">{t('admin-people:uploads.col.actions')}</span></th>
              </tr>
            </thead>
            <tbody>
              {data.files.map((f) => (
                <tr key={f.id} data-name={f.name}>
                  <td className="text-break">
                    <a href={f.url} target="_blank" rel="noopener">{f.name}</a>
                    <div className="small text-body-secondary"><Timeago ts={f.mtime} /></div>
                    <div className="small text-body-secondary d-sm-none">{f.sizeHumanReadable}{f.uploader ? ` · ${f.uploader.username}` : ''}</div>
                    {f.orphan && <span className="badge text-bg-warning">{t('admin-people:uploads.orphan')}</span>}
                  </td>
                  <td className="d-none d-md-table-cell text-break">{f.uploader ? <a href={`${page.relative_path}/user/${f.uploader.userslug}`}>{f.uploader.username}</a> : '—'}</td>
                  <td className="d-none d-sm-table-cell text-end text-nowrap">{f.sizeHumanReadable}</td>
                  <td className="d-none d-lg-table-cell small">
                    {f.pids.map((pid) => <a key={pid} href={`${page.relative_path}/post/${pid}`} className="me-1">#{pid}</a>)}
                    {!f.pids.length && !f.orphan && t('admin-people:uploads.used-elsewhere')}
                  </td>
                  <td className="text-end">
                    <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy} onClick={() => void remove(f)}>
                      {t('admin-people:uploads.delete')}<span className="visually-hidden"> {f.name}</span>
                    </button>
                  </td>
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
