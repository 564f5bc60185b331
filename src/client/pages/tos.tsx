import type { PageBase } from '../../shared/types';
import type { TosPage } from '../../shared/schemas/registration';
import { useT } from '../app/hooks';

/** The forum's terms of use (NodeBB's /tos), as the server rendered them from the setting. */
export default function Tos({ page }: { page: PageBase }) {
  const { t } = useT();
  const data = page as TosPage;
  return (
    <div className="card mx-auto my-4" style={{ maxWidth: '48rem' }}>
      <div className="card-body p-4">
        <h1 className="h4 mb-3">{t('register:terms_of_use')}</h1>
        <div className="tos text-break" dangerouslySetInnerHTML={{ __html: data.termsOfUse }} />
      </div>
    </div>
  );
}
