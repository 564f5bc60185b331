import { useRef, useState, type ReactNode } from 'react';
import type { PageBase, UserProfilePage } from '../../../shared/types';
import { humanReadableNumber } from '../../../shared/numbers';
import { useT, useUser } from '../../app/hooks';
import { postSite } from '../../app/api';
import { errorText } from '../../i18n';
import { useRuntime } from '../../app/runtime';
import { GroupBadges } from '../../components/GroupBadge';
import { Avatar } from '../../components/Avatar';
import { PostContent } from '../../components/PostContent';
import { Timeago } from '../../components/Timeago';
import { RecentPosts } from '../../components/RecentPosts';
import { topicPath } from '../../util/urls';
import { topicTitleText } from '../../navigation/title';
import { FollowButton } from '../watch-controls';
import { AccountNav } from './AccountNav';
import { ChatButton } from '../../components/chats/ChatButton';
import { uploadFiles } from '../../components/composer/uploads';
import { Icon } from '../../components/Icon';
import { FlagButton } from '../../components/flags/FlagButton';
import { ModerationButtons } from '../../components/moderation/ModerationButtons';

function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="text-center px-3">
      <div className="fs-5 fw-semibold">{value}</div>
      <div className="small text-body-secondary">{label}</div>
    </div>
  );
}

/** A member's profile: identity, counts, about text, groups and latest posts. */
export default function Profile({ page }: { page: PageBase }) {
  const { t } = useT();
  const rp = useRuntime().config.relative_path;
  const u = page as UserProfilePage;
  const status = u.status || 'offline';
  const rt = useRuntime();
  const viewer = useUser();
  const reportSpam = async () => {
    try {
      await postSite(rt.config, `/api/user/${encodeURIComponent(u.userslug)}/spam-be-gone/report`, {});
      rt.alert({ type: 'success', message: t('spam-be-gone:user-reported') });
    } catch (err) {
      rt.alert({ type: 'danger', message: (err as Error).message ? errorText(rt.i18n, err) : t('spam-be-gone:something-went-wrong') });
    }
  };
  const pictureInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const changePicture = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    try {
      await uploadFiles(rt.config, [file], undefined, `/api/v3/users/${u.uid}/picture`);
      rt.alert({ type: 'success', message: t('user:picture-changed') });
      rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setUploading(false);
      if (pictureInput.current) pictureInput.current.value = '';
    }
  };
  return (
    <>
      {/* The account pages' tabs: the public lists for everyone, the private ones for the member themself and admins. */}
      <AccountNav userslug={u.userslug} active="profile" own={!!(u.isSelf || viewer?.isAdmin)} />
      <section className="card profile-card mb-4" aria-labelledby="profile-name">
        <div
          className="profile-cover"
          aria-hidden="true"
          data-testid="profile-cover"
          style={
            u['cover:url']
              ? { backgroundImage: `url("${u['cover:url']}")`, backgroundSize: 'cover', backgroundPosition: u['cover:position'] || '50% 50%', height: '12rem' }
              : { background: `linear-gradient(135deg, ${u['icon:bgColor'] || '#6c757d'}, transparent)` }
          }
        />
        <div className="card-body d-flex flex-column flex-md-row gap-3 align-items-center align-items-md-end profile-head">
          <span className="position-relative d-inline-block">
            <Avatar user={u} size="xl" className="profile-avatar border border-4 border-body" />
            <span className={`status-indicator status-${status}`} title={t(`global:status.${status}`)} role="img" aria-label={t(`global:status.${status}`)} />
            {(u.isSelf || viewer?.isAdmin) && (
              <>
                <button type="button" className="btn btn-sm btn-light border position-absolute bottom-0 start-0 rounded-pill profile-picture-change" disabled={uploading} title={t('user:change-picture')} aria-label={t('user:change-picture')} onClick={() => pictureInput.current?.click()}>
                  <Icon name="upload" />
                </button>
                <input ref={pictureInput} type="file" accept="image/png,image/jpeg,image/gif,image/webp" className="d-none" aria-label={t('user:change-picture')} onChange={(e) => void changePicture(e.target.files?.[0])} />
              </>
            )}
          </span>
          <div className="flex-grow-1 text-center text-md-start">
            <h1 id="profile-name" className="h3 mb-0" dir="auto">{u.fullname || u.displayname}</h1>
            <div className="text-body-secondary">@{u.username}</div>
            {u.banned && <span className="badge text-bg-danger mt-1">{t('user:banned')}</span>}
            {u.selectedGroups?.length ? <div className="mt-1"><GroupBadges groups={u.selectedGroups} /></div> : null}
            {u.groups?.length > 0 && (
              <div className="d-flex flex-wrap gap-1 mt-2 justify-content-center justify-content-md-start">
                {u.groups.map((g) => (
                  <a key={g.slug} href={`${rp}/groups/${encodeURIComponent(g.slug)}`} className="badge text-bg-secondary text-decoration-none">{g.name}</a>
                ))}
              </div>
            )}
          </div>
          {u.canEdit && (
            <a href={`${rp}/user/${encodeURIComponent(u.userslug)}/edit`} className="btn btn-sm btn-outline-secondary">
              <Icon name="edit" /> {t('user:edit-profile')}
            </a>
          )}
          {viewer && !u.isSelf && <ChatButton uid={u.uid} />}
          {!u.isSelf && <FollowButton key={u.uid} path={`/users/${u.uid}/follow`} following={u.isFollowing} labels={['user:follow', 'user:unfollow']} />}
          {viewer && !u.isSelf && <FlagButton subject={{ type: 'user', id: u.uid }} label="flags:flag-user" />}
          {(viewer?.isAdmin || viewer?.isGlobalMod) && !u.isSelf && <ModerationButtons uid={u.uid} userslug={u.userslug} username={u.username} banned={u.banned} />}
          {viewer?.isAdmin && !u.isSelf && (
            <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void reportSpam()}>
              {t('spam-be-gone:report-user')}
            </button>
          )}
          <div className="d-flex flex-wrap justify-content-center">
            <Stat label={t('global:reputation')} value={humanReadableNumber(u.reputation)} />
            <Stat label={t('global:posts')} value={humanReadableNumber(u.postcount)} />
            <Stat label={t('global:topics')} value={humanReadableNumber(u.topiccount)} />
            <Stat label={t('user:followers')} value={humanReadableNumber(u.followerCount ?? 0)} />
            <Stat label={t('user:following')} value={humanReadableNumber(u.followingCount ?? 0)} />
          </div>
        </div>
        <div className="card-footer small text-body-secondary d-flex flex-wrap gap-3">
          <span>{t('user:joined')} <Timeago iso={u.joindateISO} ts={u.joindate} /></span>
          {u.lastonline > 0 && <span>{t('user:lastonline')} <Timeago iso={u.lastonlineISO} ts={u.lastonline} /></span>}
          {u.location && <span data-testid="profile-location">{t('user:location')}: {u.location}</span>}
          {u.website && (
            <span>
              {t('user:website')}: <a href={u.website} rel="nofollow noopener ugc" target="_blank" data-testid="profile-website">{u.website.replace(/^https?:\/\//, '')}</a>
            </span>
          )}
          {u.age > 0 && <span data-testid="profile-age">{t('user:age')}: {u.age}</span>}
          {u.email && <span data-testid="profile-email">{t('user:email')}: {u.email}</span>}
        </div>
      </section>
      {u.customUserFields?.length > 0 && (
        <section className="card mb-4" aria-labelledby="profile-fields">
          <div className="card-body">
            <h2 id="profile-fields" className="h6 text-uppercase text-body-secondary">{t('user:custom-fields')}</h2>
            <dl className="row mb-0" data-testid="profile-custom-fields">
              {u.customUserFields.map((f) => (
                <div key={f.key} className="col-12 col-md-6 d-flex gap-2">
                  <dt className="fw-semibold">{f.name}</dt>
                  <dd className="mb-1 text-break">{f.type === 'url' ? <a href={f.value} rel="nofollow noopener ugc" target="_blank">{f.value}</a> : f.value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </section>
      )}
      {(u.aboutHTML || u.about) && (
        <section className="card mb-4" aria-labelledby="profile-about">
          <div className="card-body">
            <h2 id="profile-about" className="h6 text-uppercase text-body-secondary">{t('user:about')}</h2>
            {u.aboutHTML ? <PostContent html={u.aboutHTML} /> : <p className="mb-0">{u.about}</p>}
          </div>
        </section>
      )}
      {u.signatureHTML && (
        <section className="card mb-4" aria-labelledby="profile-signature">
          <div className="card-body">
            <h2 id="profile-signature" className="h6 text-uppercase text-body-secondary">{t('user:signature')}</h2>
            <PostContent html={u.signatureHTML} className="small" />
          </div>
        </section>
      )}
      {u.bestPosts?.length > 0 && (
        <section className="mb-4" aria-labelledby="profile-best">
          <h2 id="profile-best" className="h5">
            <a href={`${rp}/user/${encodeURIComponent(u.userslug)}/best`} className="text-decoration-none">{t('user:best-posts')}</a>
          </h2>
          <div className="d-flex flex-column gap-3" data-testid="profile-best-posts">
            {u.bestPosts.map((p) => (
              <article key={p.pid} className="card">
                <div className="card-body">
                  <div className="small mb-2 d-flex flex-wrap gap-2">
                    <a href={`${rp}${topicPath(p.topic.tid, p.topic.slug, p.index + 1)}`} className="fw-semibold" dir="auto">{topicTitleText(p.topic)}</a>
                    <span className="text-body-secondary">{t('global:votes')}: {p.votes}</span>
                  </div>
                  <PostContent html={p.content} className="small" />
                </div>
              </article>
            ))}
          </div>
        </section>
      )}
      <section aria-labelledby="profile-posts">
        <h2 id="profile-posts" className="h5">
          <a href={`${rp}/user/${encodeURIComponent(u.userslug)}/posts`} className="text-decoration-none">{t('user:recent-posts')}</a>
        </h2>
        <RecentPosts posts={u.posts ?? []} empty="user:has-no-posts" />
      </section>
    </>
  );
}
