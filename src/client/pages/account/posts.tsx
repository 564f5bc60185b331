import type { ProfilePostsPage } from '../../../shared/profile';
import type { PageBase } from '../../../shared/types';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Avatar } from '../../components/Avatar';
import { CategoryIcon } from '../../components/CategoryIcon';
import { Icon } from '../../components/Icon';
import { Pagination } from '../../components/Pagination';
import { PostContent } from '../../components/PostContent';
import { Timeago } from '../../components/Timeago';
import { topicTitleText } from '../../navigation/title';
import { topicPath } from '../../util/urls';
import { EmptyList, ProfileListHeader } from './ProfileListHeader';

/** A profile's post lists: posts, best, upvoted, downvoted and bookmarks (one view, the template names the list). */
export default function ProfilePosts({ page }: { page: PageBase }) {
  const data = page as ProfilePostsPage;
  const { t } = useT();
  const rp = useRuntime().config.relative_path;
  const active = page.template.name.replace(/^account\//, '');
  return (
    <>
      <ProfileListHeader data={data} active={active} />
      {data.posts.length === 0 ? (
        <EmptyList textKey={data.noItemsFoundKey} />
      ) : (
        <ul className="list-unstyled d-flex flex-column gap-3 mb-3" data-testid="profile-posts">
          {data.posts.map((p) => (
            <li key={p.pid} className="card">
              <article className="card-body">
                <div className="d-flex flex-wrap align-items-center gap-2 small mb-2">
                  <Avatar user={p.user} size="sm" />
                  <a href={`${rp}/user/${encodeURIComponent(p.user.userslug)}`} className="fw-semibold text-decoration-none">{p.user.displayname}</a>
                  <span className="text-body-secondary"><Timeago iso={p.timestampISO} ts={p.timestamp} /></span>
                  <span className="ms-auto d-inline-flex align-items-center gap-1 text-body-secondary" title={t('global:votes')}>
                    <Icon name="chevron-up" /> {p.votes}
                  </span>
                </div>
                <h2 className="h6 mb-2">
                  <a href={`${rp}${topicPath(p.topic.tid, p.topic.slug, p.index + 1)}`} className="text-break" dir="auto">{topicTitleText(p.topic)}</a>
                </h2>
                {/* An excerpt of the post's own words (the whole post is one click away). */}
                {p.excerpt !== undefined ? (
                  <p className="small mb-0 text-break post-excerpt" dir="auto" data-testid="post-excerpt">{p.excerpt}</p>
                ) : (
                  <PostContent html={p.content} className="small" />
                )}
                {p.category && (
                  <a href={`${rp}/category/${p.category.slug}`} className="badge text-bg-light border text-decoration-none mt-2 d-inline-flex align-items-center gap-1">
                    <CategoryIcon category={p.category} size={14} /> <bdi dir="auto">{p.category.name}</bdi>
                  </a>
                )}
              </article>
            </li>
          ))}
        </ul>
      )}
      <Pagination pagination={data.pagination} />
    </>
  );
}
