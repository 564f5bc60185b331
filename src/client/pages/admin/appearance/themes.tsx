import type { AdminThemesPage } from '../../../../shared/schemas/admin-appearance';
import type { PageBase } from '../../../../shared/types';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { PageHeader } from '../../../components/PageHeader';

/** The admin's themes page: the one built-in theme, active, with a link to its options. */
export default function AdminThemes({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminThemesPage;
  return (
    <>
      <PageHeader title={t('admin-appearance:themes.title')} subtitle={t('admin-appearance:themes.intro')} />
      <div className="row g-3">
        {data.themes.map((th) => (
          <div key={th.id} className="col-12 col-md-6 col-xl-4">
            <div className="card h-100 border-primary">
              <div className="card-body d-flex flex-column gap-2">
                <div className="d-flex align-items-center gap-2">
                  <h2 className="h5 mb-0 me-auto">{th.name}</h2>
                  {th.active && <span className="badge text-bg-success">{t('admin-appearance:themes.active')}</span>}
                </div>
                <p className="mb-0">{t(th.description)}</p>
                <p className="small text-body-secondary mb-0">{t('admin-appearance:themes.only-one')}</p>
                <div className="d-flex flex-wrap gap-2 mt-auto">
                  <a className="btn btn-primary btn-sm" href={`${rt.config.relative_path}${th.settingsUrl}`}>{t('admin-appearance:themes.options')}</a>
                  <a className="btn btn-outline-secondary btn-sm" href={`${rt.config.relative_path}/admin/appearance/skins`}>{t('admin-appearance:themes.skins')}</a>
                </div>
              </div>
            </div>
          </div>
        ))}
      </div>
    </>
  );
}
