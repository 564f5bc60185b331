import type { AccountWatchedPage } from '../../../shared/account';
import type { PageBase } from '../../../shared/types';
import { useT } from '../../app/hooks';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Pagination } from '../../components/Pagination';
import { useRuntime } from '../../app/runtime';
import { topicTitleText } from '../../navigation/title';
import { topicPath } from '../../util/urls';
import { AccountNav } from './AccountNav';

/** The topics a member watches (they hear about each reply), newest activity first. */
export default function AccountWatched({ page }: { page: PageBase }) {
  const data = page as AccountWatchedPage;
  const { t } = useT();
  const rp = useRuntime().config.relative_path;
  return (
    <>
      <AccountNav userslug={data.userslug} active="watched" own />
      <PageHeader title={t('user:watched.title')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="eye" size={28} />} />
      {data.topics.length === 0 ? (
        <div className="card card-body text-center text-body-secondary py-5">{t('user:watched.none')}</div>
      ) : (
        <ul className="list-group mb-3" data-testid="watched-topics">
          {data.topics.map((topic) => (
            <li key={topic.tid} className="list-group-item d-flex gap-3 align-items-center">
              <a className="flex-grow-1 text-break fw-semibold text-decoration-none" dir="auto" href={`${rp}${topicPath(topic.tid, topic.slug)}`}>
                {topicTitleText(topic)}
              </a>
              <span className="badge text-bg-secondary" title={t('global:posts')}>{topic.postcount}</span>
            </li>
          ))}
        </ul>
      )}
      <Pagination pagination={data.pagination} />
    </>
  );
}
