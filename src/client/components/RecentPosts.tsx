import type { UserProfilePage } from '../../shared/types';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { topicTitleText } from '../navigation/title';
import { topicPath } from '../util/urls';
import { Avatar } from './Avatar';
import { PostContent } from './PostContent';
import { Timeago } from './Timeago';

/** A short list of recent posts, each with its topic and time (a profile's, a group's members'); `authors` shows who wrote each. */
export function RecentPosts({ posts, empty, authors = false }: { posts: UserProfilePage['posts']; empty: string; authors?: boolean }) {
  const { t } = useT();
  const rp = useRuntime().config.relative_path;
  if (!posts.length) return <div className="card card-body text-center text-body-secondary">{t(empty)}</div>;
  return (
    <div className="d-flex flex-column gap-3" data-testid="recent-posts">
      {posts.map((p) => (
        <article key={p.pid} className="card">
          <div className="card-body">
            <div className="small mb-2 d-flex flex-wrap align-items-center gap-2">
              {authors && (
                <a href={`${rp}/user/${encodeURIComponent(p.user.userslug)}`} className="d-inline-flex align-items-center gap-1 text-reset text-decoration-none">
                  <Avatar user={p.user} size="sm" />
                  <span className="fw-semibold" dir="auto">{p.user.displayname}</span>
                </a>
              )}
              <a href={`${rp}${topicPath(p.topic.tid, p.topic.slug, p.index + 1)}`} className="fw-semibold" dir="auto">{topicTitleText(p.topic)}</a>
              <span className="text-body-secondary"><Timeago iso={p.timestampISO} ts={p.timestamp} /></span>
            </div>
            <PostContent html={p.content} className="small" />
          </div>
        </article>
      ))}
    </div>
  );
}
