import type { AccountWatchedPage } from '../../../shared/account';
import type { PageBase } from '../../../shared/types';
import { useState } from 'react';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { errorText } from '../../i18n';
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
  const rt = useRuntime();
  const rp = rt.config.relative_path;
  // Topics the member stopped watching here, gone from the list at once.
  const [dropped, setDropped] = useState<number[]>([]);
  const unwatch = async (tid: number) => {
    try {
      await api(rt.config, 'DELETE', `/topics/${tid}/follow`, {});
      setDropped((list) => [...list, tid]);
      rt.alert({ type: 'success', message: t('user:watched.unwatched'), timeout: 3000 });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    }
  };
  const topics = data.topics.filter((topic) => !dropped.includes(topic.tid));
  return (
    <>
      <AccountNav userslug={data.userslug} active="watched" own />
      <PageHeader title={t('user:watched.title')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="eye" size={28} />} />
      {topics.length === 0 ? (
        <div className="card card-body text-center text-body-secondary py-5">{t('user:watched.none')}</div>
      ) : (
        <ul className="list-group mb-3" data-testid="watched-topics">
          {topics.map((topic) => (
            <li key={topic.tid} className="list-group-item d-flex gap-3 align-items-center">
              <a className="flex-grow-1 text-break fw-semibold text-decoration-none" dir="auto" href={`${rp}${topicPath(topic.tid, topic.slug)}`}>
                {topicTitleText(topic)}
              </a>
              <span className="badge text-bg-secondary" title={t('global:posts')}>{topic.postcount}</span>
              {data.isSelf && (
                <button type="button" className="btn btn-sm btn-outline-secondary flex-shrink-0" onClick={() => void unwatch(topic.tid)} aria-label={t('user:watched.unwatch-topic', topicTitleText(topic))} data-testid="unwatch">
                  {t('user:watched.unwatch')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pagination pagination={data.pagination} />
    </>
  );
}
