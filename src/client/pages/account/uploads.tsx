import { useEffect, useState } from 'react';
import type { Upload, UploadsPage } from '../../../shared/schemas/upload';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Pagination } from '../../components/Pagination';
import { Timeago } from '../../components/Timeago';
import { AccountNav } from './AccountNav';

/** The account page `uploads`: the member's files, newest first, paginated, each with a delete button. */
export default function Uploads({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as UploadsPage;
  const [uploads, setUploads] = useState<Upload[]>(data.uploads ?? []);
  const [busy, setBusy] = useState<number | null>(null);
  useEffect(() => setUploads(data.uploads ?? []), [data.uploads]);

  const remove = async (u: Upload) => {
    if (!window.confirm(t('user:uploads.delete-confirm', u.name))) return;
    setBusy(u.id);
    try {
      await api(rt.config, 'DELETE', `/uploads/${u.id}`);
      setUploads((list) => list.filter((x) => x.id !== u.id));
      rt.alert({ type: 'success', message: t('user:uploads.deleted') });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <AccountNav userslug={data.userslug} active="uploads" own />
      <PageHeader title={t('user:uploads.title')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="upload" size={28} />} />
      {uploads.length ? (
        <ul className="list-group mb-3" data-testid="uploads-list">
          {uploads.map((u) => (
            <li key={u.id} className="list-group-item d-flex gap-3 align-items-center" data-upload={u.id}>
              <a href={u.url} className="upload-thumb flex-shrink-0 d-flex align-items-center justify-content-center bg-body-tertiary rounded overflow-hidden" style={{ width: 64, height: 64 }} tabIndex={-1} aria-hidden="true" target="_blank" rel="noopener noreferrer">
                {u.isImage && u.thumb ? <img src={u.thumb} alt="" width={64} height={64} loading="lazy" style={{ objectFit: 'cover' }} /> : <Icon name="drafts" size={24} />}
              </a>
              <div className="flex-grow-1 min-w-0">
                <a href={u.url} className="fw-semibold text-truncate d-block" target="_blank" rel="noopener noreferrer">{u.name}</a>
                <div className="small text-body-secondary text-truncate">
                  {t('user:uploads.size', Math.max(1, Math.round(u.size / 1024)))}
                  {u.width > 0 && ` · ${u.width}×${u.height}`} · <Timeago iso={u.timestampISO} />
                </div>
              </div>
              <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void remove(u)} disabled={busy === u.id} aria-label={`${t('user:uploads.delete')}: ${u.name}`}>
                <Icon name="trash" size={16} />
                <span className="d-none d-sm-inline ms-1">{t('user:uploads.delete')}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <div className="alert alert-secondary" data-testid="uploads-none">{t('user:uploads.none')}</div>
      )}
      <Pagination pagination={data.pagination} />
    </>
  );
}
