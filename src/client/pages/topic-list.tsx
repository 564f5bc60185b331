import type { PageBase, TagPage, TopicListPage } from '../../shared/types';
import { useT, useUser } from '../app/hooks';
import { NewTopicButton } from '../components/NewTopicButton';
import { NewTopicsBar } from '../components/NewTopicsBar';
import { PageHeader } from '../components/PageHeader';
import { useTopicPages } from '../components/MoreTopics';
import { TagFilter } from '../components/TagFilter';
import { TopicList } from '../components/TopicList';
import { FollowButton } from './watch-controls';

// The server's terms for popular and top lists; alltime is its default.
const TERMS = ['day', 'week', 'month', 'alltime'];

/** Recent, popular, top and unread: a topic list with its filters. */
export default function TopicListView({ page }: { page: PageBase }) {
  const { t, tx } = useT();
  const data = page as Partial<TagPage> & PageBase & Partial<Pick<TopicListPage, 'selectedTag' | 'selectedTerm'>>;
  const user = useUser();
  const name = page.template.name;
  const hasTerms = name === 'popular' || name === 'top';
  // Lists that announce new topics (their pages enter recent_topics / unread_topics).
  const live = name === 'recent' || name === 'unread';
  const { topics, footer } = useTopicPages(data.topics ?? [], data.pagination);
  return (
    <>
      <PageHeader title={page.title ? tx(page.title) : t(`pages:${name}`)}>
        {name === 'tag' && data.tag && (
          <FollowButton key={data.tag} path={`/tags/${encodeURIComponent(data.tag)}/follow`} following={!!data.isFollowing} labels={['tags:follow', 'tags:unfollow']} />
        )}
        {user && <NewTopicButton />}
      </PageHeader>
      {hasTerms && (
        <ul className="nav nav-pills mb-3 gap-1" aria-label={t('recent:filter')}>
          {TERMS.map((term) => (
            <li className="nav-item" key={term}>
              <a
                href={`${page.relative_path}/${name}?term=${term}`}
                className={`nav-link py-1 px-3${(data.selectedTerm?.term ?? 'alltime') === term ? ' active' : ''}`}
                aria-current={(data.selectedTerm?.term ?? 'alltime') === term ? 'page' : undefined}
              >
                {t(`recent:${term}`)}
              </a>
            </li>
          ))}
        </ul>
      )}
      <TagFilter tag={data.selectedTag} url={page.url} />
      {live && <NewTopicsBar shown={data.topics ?? []} skipOwn={name === 'unread'} />}
      {name === 'unread' && data.topics?.length === 0 ? (
        <div className="card card-body text-center text-body-secondary py-5">{t('unread:no-unread-topics')}</div>
      ) : (
        <TopicList topics={topics} tools={!!user && (user.isAdmin || user.isGlobalMod)} readTools={!!user} />
      )}
      {footer}
    </>
  );
}
