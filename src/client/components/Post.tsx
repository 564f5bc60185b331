import { lazy, Suspense, useState } from 'react';
import type { PostView, TopicPage } from '../../shared/types';
import { humanReadableNumber } from '../../shared/numbers';
import { useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { serverCachedOf } from '../app/fragments';
import { api } from '../app/api';
import { errorText } from '../i18n';
import { topicPath, userPath } from '../util/urls';
import { Avatar } from './Avatar';
import { GroupBadges } from './GroupBadge';
import { BlockedPost } from './BlockedPost';
import { Icon } from './Icon';
import { PostContent } from './PostContent';
import { ShareMenu } from './ShareMenu';
import { Timeago } from './Timeago';

// The topic's diffs tool, loaded the first time a reader opens a post's history.
const DiffsDialog = lazy(() => import('./diffs/DiffsDialog'));
// The topic's votes tool (who voted), loaded the first time a reader opens it.
const VotersDialog = lazy(() => import('./topic-tools/VotersDialog'));
// The report dialog, loaded the first time a member flags a post.
const FlagDialog = lazy(() => import('./flags/FlagDialog'));

export interface PostProps {
  post: PostView;
  topic: TopicPage;
  onChange: (post: PostView) => void;
}

function ActionButton({ icon, label, onClick, active, filled, disabled }: { icon: string; label: string; onClick: () => void; active?: boolean; filled?: boolean; disabled?: boolean }) {
  return (
    <button type="button" className={`btn btn-sm btn-link post-action${active ? ' active' : ''}`} onClick={onClick} aria-pressed={active} disabled={disabled} title={label}>
      <Icon name={icon} size={16} filled={filled} />
      <span className="d-none d-sm-inline ms-1">{label}</span>
    </button>
  );
}

/** The attributes of a post's <article>, the same whether its inside is rendered or cached. */
function articleProps(post: PostView) {
  return {
    className: `post card mb-3${post.deleted ? ' deleted' : ''}`,
    'data-index': post.index,
    'data-pid': post.pid,
    id: `post-${post.pid}`,
    'aria-labelledby': `post-${post.pid}-author`,
  };
}

/** The part of a post card's key that comes from its topic, made once per topic object. */
const topicKeys = new WeakMap<TopicPage, string>();
function topicKey(topic: TopicPage): string {
  let key = topicKeys.get(topic);
  if (key === undefined) {
    key = JSON.stringify(['post', topic.tid, topic.slug, topic.locked, topic.mainPid, topic.privileges ?? null]);
    topicKeys.set(topic, key);
  }
  return key;
}

/**
 * One post: author, time, content and the actions the viewer's privileges allow. The server
 * render writes it from the fragment cache (app/fragments.ts) when it can: the key is the post
 * and what the card reads from its topic. A folded post (its author is blocked) is not cached.
 */
export function Post(props: PostProps) {
  const rt = useRuntime();
  const { post, topic } = props;
  if (post.blocked) return <PostCard {...props} />;
  return serverCachedOf(rt, 'article', articleProps(post), topicKey(topic), post, <PostCard {...props} />);
}

/** A post as the browser renders it (and the server, when its card is not cached). */
export function PostCard({ post, topic, onChange }: PostProps) {
  const rt = useRuntime();
  const { t } = useT();
  const user = useUser();
  const rp = rt.config.relative_path;
  const priv = topic.privileges;
  const canReply = !!priv?.['topics:reply'] && (!topic.locked || priv.isAdminOrMod);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [votersOpen, setVotersOpen] = useState(false);
  const [flagOpen, setFlagOpen] = useState(false);
  // A blocked author's post starts folded (the reader may unfold it).
  const [unfolded, setUnfolded] = useState(false);
  const fail = (err: unknown) => rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });

  const vote = async (delta: 1 | -1) => {
    const undo = delta === 1 ? post.upvoted : post.downvoted;
    try {
      if (undo) await api(rt.config, 'DELETE', `/posts/${post.pid}/vote`, { delta });
      else await api(rt.config, 'PUT', `/posts/${post.pid}/vote`, { delta });
      const up = post.upvotes + (delta === 1 ? (undo ? -1 : 1) : post.upvoted ? -1 : 0);
      const down = post.downvotes + (delta === -1 ? (undo ? -1 : 1) : post.downvoted ? -1 : 0);
      onChange({ ...post, upvotes: up, downvotes: down, votes: up - down, upvoted: delta === 1 && !undo, downvoted: delta === -1 && !undo });
    } catch (err) {
      fail(err);
    }
  };
  const bookmark = async () => {
    try {
      await api(rt.config, post.bookmarked ? 'DELETE' : 'PUT', `/posts/${post.pid}/bookmark`);
      onChange({ ...post, bookmarked: !post.bookmarked, bookmarks: post.bookmarks + (post.bookmarked ? -1 : 1) });
    } catch (err) {
      fail(err);
    }
  };
  const toggleDeleted = async () => {
    if (!post.deleted && !window.confirm(t('topic:post-delete-confirm'))) return;
    try {
      await api(rt.config, post.deleted ? 'PUT' : 'DELETE', `/posts/${post.pid}/state`);
      onChange({ ...post, deleted: post.deleted ? 0 : 1 });
      rt.alert({ type: 'success', message: t(post.deleted ? 'topic:post-restored' : 'topic:post-deleted') });
    } catch (err) {
      fail(err);
    }
  };
  const reply = () => rt.openComposer({ action: 'posts.reply', tid: topic.tid, toPid: post.pid, title: topic.titleRaw });
  const quote = () => rt.openComposer({ action: 'posts.reply', tid: topic.tid, toPid: post.pid, title: topic.titleRaw, selectedPid: post.pid, username: post.user.username });
  const edit = () => rt.openComposer({ action: 'posts.edit', pid: post.pid, tid: topic.tid, isMain: post.index === 0 || post.pid === topic.mainPid });
  const permalink = `${rp}${topicPath(topic.tid, topic.slug, post.index + 1)}`;
  const canVote = !!user && !post.selfPost;

  if (post.blocked && !unfolded) return <BlockedPost post={post} onShow={() => setUnfolded(true)} />;
  return (
    <article {...articleProps(post)}>
      <div className="card-body d-flex gap-3">
        <a href={`${rp}${userPath(post.user.userslug)}`} className="flex-shrink-0 d-none d-sm-block" tabIndex={-1} aria-hidden="true">
          <Avatar user={post.user} size="md" />
        </a>
        <div className="flex-grow-1 min-w-0">
          <header className="post-header d-flex flex-wrap align-items-center gap-2 small mb-2">
            <Avatar user={post.user} size="xs" className="d-sm-none" />
            <a id={`post-${post.pid}-author`} href={`${rp}${userPath(post.user.userslug)}`} className="fw-semibold text-reset" dir="auto">{post.user.displayname}</a>
            <GroupBadges groups={post.user.selectedGroups} />
            <a href={permalink} className="text-body-secondary text-decoration-none" title={t('topic:permalink')}>
              <Timeago iso={post.timestampISO} ts={post.timestamp} />
            </a>
            {post.edited > 0 && (
              <span className="text-body-secondary fst-italic post-edited">
                {post.editor ? t('topic:edited-by', post.editor.displayname) : t('topic:edited')} <Timeago iso={post.editedISO} ts={post.edited} />
              </span>
            )}
            {!!post.deleted && <span className="badge text-bg-danger">{t('topic:deleted')}</span>}
            <span className="ms-auto text-body-secondary">#{post.index + 1}</span>
          </header>
          <PostContent html={post.content} />
          <footer className="post-footer d-flex flex-wrap align-items-center gap-1 mt-3">
            {canReply && !post.deleted && <ActionButton icon="reply" label={t('topic:reply')} onClick={reply} />}
            {canReply && !post.deleted && <ActionButton icon="quote" label={t('topic:quote')} onClick={quote} />}
            {post.display_edit_tools && <ActionButton icon="edit" label={t('topic:edit')} onClick={edit} />}
            {post.display_delete_tools && (
              <ActionButton icon={post.deleted ? 'restore' : 'trash'} label={t(post.deleted ? 'topic:restore' : 'topic:delete')} onClick={() => void toggleDeleted()} />
            )}
            {post.edited > 0 && priv?.['posts:history'] && <ActionButton icon="clock" label={t('topic:history')} onClick={() => setHistoryOpen(true)} />}
            {user && <ActionButton icon="bookmark" filled={post.bookmarked} active={post.bookmarked} label={t(post.bookmarked ? 'topic:bookmarked' : 'topic:bookmark')} onClick={() => void bookmark()} />}
            {user && !post.selfPost && !post.deleted && <ActionButton icon="alert" label={t('flags:flag')} onClick={() => setFlagOpen(true)} />}
            {!post.deleted && <ShareMenu pid={post.pid} title={topic.titleRaw} />}
            <div className="ms-auto d-flex align-items-center gap-1 votes" aria-label={t('topic:votes')}>
              {priv?.['posts:upvote'] && (
                <button type="button" className={`btn btn-sm btn-link post-action${post.upvoted ? ' active text-primary' : ''}`} onClick={() => void vote(1)} disabled={!canVote} aria-pressed={post.upvoted} aria-label={t('topic:upvote')}>
                  <Icon name="chevron-up" />
                </button>
              )}
              <button type="button" className="btn btn-sm btn-link p-0 fw-semibold vote-count text-reset text-decoration-none" aria-live="polite" onClick={() => setVotersOpen(true)} title={t('topic:tools.voters')}>
                {humanReadableNumber(post.votes)}
              </button>
              {priv?.['posts:downvote'] && (
                <button type="button" className={`btn btn-sm btn-link post-action${post.downvoted ? ' active text-danger' : ''}`} onClick={() => void vote(-1)} disabled={!canVote} aria-pressed={post.downvoted} aria-label={t('topic:downvote')}>
                  <Icon name="chevron-down" />
                </button>
              )}
            </div>
          </footer>
        </div>
      </div>
      {votersOpen && (
        <Suspense fallback={null}>
          <VotersDialog pid={post.pid} onClose={() => setVotersOpen(false)} />
        </Suspense>
      )}
      {historyOpen && (
        <Suspense fallback={null}>
          <DiffsDialog pid={post.pid} onClose={() => setHistoryOpen(false)} />
        </Suspense>
      )}
      {flagOpen && (
        <Suspense fallback={null}>
          <FlagDialog subject={{ type: 'post', id: post.pid }} onClose={() => setFlagOpen(false)} />
        </Suspense>
      )}
    </article>
  );
}
