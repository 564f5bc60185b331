import type { OutgoingPage, PageBase } from '../../shared/types';
import { useT } from '../app/hooks';
import { Icon } from '../components/Icon';

/** The interstitial before an external address: go on, or back to the forum. */
export default function Outgoing({ page }: { page: PageBase }) {
  const { t } = useT();
  const data = page as OutgoingPage;
  return (
    <div className="card mx-auto my-4 outgoing-card" style={{ maxWidth: '40rem' }}>
      <div className="card-body d-flex flex-column gap-3 text-center p-4">
        <Icon name="link" size={32} className="mx-auto text-body-secondary" />
        <h1 className="h4 mb-0">{t('notifications:outgoing-link-message', data.siteTitle)}</h1>
        <p className="mb-0 text-break font-monospace small">{data.outgoing}</p>
        <div className="d-flex flex-column flex-sm-row justify-content-center gap-2">
          {/* rel: the site opened learns nothing of the forum page, and gets no ranking from it. */}
          <a href={data.outgoing} rel="nofollow noopener noreferrer external" className="btn btn-primary" data-ajaxify="false">
            {t('notifications:continue-to', new URL(data.outgoing).host)}
          </a>
          <a href={`${page.relative_path}/`} className="btn btn-outline-secondary">
            {t('notifications:return-to', data.siteTitle)}
          </a>
        </div>
      </div>
    </div>
  );
}
