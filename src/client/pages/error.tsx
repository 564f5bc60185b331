import type { ErrorPage, PageBase } from '../../shared/types';
import { useT } from '../app/hooks';
import { Icon } from '../components/Icon';

/** Error pages 400, 403, 404, 500 and 503 (maintenance), and unknown templates. */
export default function ErrorView({ page }: { page: PageBase }) {
  const { t, tx } = useT();
  const data = page as ErrorPage;
  const known = ['400', '403', '404', '500', '503'];
  const status = known.includes(page.template?.name) ? page.template.name : data.status && known.includes(String(data.status)) ? String(data.status) : '404';
  const detail = data.error ? tx(data.error.startsWith('[[') || !data.error.includes(':') ? data.error : `[[${data.error}]]`) : '';
  return (
    <div className="error-page text-center py-5 mx-auto" style={{ maxWidth: 560 }}>
      <div className="display-1 fw-bold text-body-tertiary">{status}</div>
      <h1 className="h3 d-flex justify-content-center align-items-center gap-2">
        <Icon name="alert" size={24} />
        {t(`pages:${status}.title`)}
      </h1>
      {/* The admin's own maintenance message replaces the standard texts (NodeBB's 503 page). */}
      {data.message ? (
        <p className="maintenance-message text-start" style={{ whiteSpace: 'pre-wrap' }}>{data.message}</p>
      ) : (
        <>
          <p className="text-body-secondary">{t(`pages:${status}.message`)}</p>
          {detail && <p className="alert alert-light border">{detail}</p>}
        </>
      )}
      {(status === '403' || status === '503') && !page.loggedIn && (
        <a className="btn btn-primary me-2" href={`${page.relative_path}/login`}>{t('global:login')}</a>
      )}
      <a className="btn btn-outline-primary" href={`${page.relative_path}/`}>{t('global:go-home')}</a>
    </div>
  );
}
