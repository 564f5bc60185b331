import type { AdminCategoryFederationPage } from '../../../../shared/schemas/admin-categories';
import type { PageBase } from '../../../../shared/types';
import { useT } from '../../../app/hooks';
import { PageHeader } from '../../../components/PageHeader';

/** admin/manage/category-federation: a placeholder until federation ships. */
export default function AdminCategoryFederation({ page }: { page: PageBase }) {
  const { t } = useT();
  const data = page as AdminCategoryFederationPage;
  return (
    <>
      <PageHeader title={t('admin-manage:federation.heading', data.name)} />
      <div className="alert alert-info" role="status">
        <p className="mb-1 fw-semibold">{t('admin-manage:federation.disabled')}</p>
        <p className="mb-0">{t('admin-manage:federation.explain')}</p>
      </div>
      <a className="btn btn-outline-dark btn-sm" href={`${page.relative_path}/admin/manage/categories/${data.cid}`}>{t('admin-manage:analytics.back')}</a>
    </>
  );
}
