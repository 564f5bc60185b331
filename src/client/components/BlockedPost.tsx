import type { PostView } from '../../shared/types';
import { useT } from '../app/hooks';

/** A post by a member the reader blocked, folded away: one line and a button that shows it. */
export function BlockedPost({ post, onShow }: { post: PostView; onShow: () => void }) {
  const { t } = useT();
  return (
    <article className="post post-blocked card mb-3 bg-body-tertiary" data-index={post.index} data-pid={post.pid} id={`post-${post.pid}`} data-blocked="1">
      <div className="card-body py-2 d-flex align-items-center gap-2 small text-body-secondary">
        <span className="flex-grow-1">{t('user:blocks.post-hidden')}</span>
        <button type="button" className="btn btn-sm btn-link" onClick={onShow} aria-controls={`post-${post.pid}`}>
          {t('user:blocks.show-post')}
        </button>
      </div>
    </article>
  );
}
