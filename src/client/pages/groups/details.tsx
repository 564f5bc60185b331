import { useState } from 'react';
import type { GroupDetailsPage, GroupMember } from '../../../shared/schemas/group';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT, useUser } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { Avatar } from '../../components/Avatar';
import { GroupBadge } from '../../components/GroupBadge';
import { PageHeader } from '../../components/PageHeader';
import { PostContent } from '../../components/PostContent';
import { Timeago } from '../../components/Timeago';
import { RecentPosts } from '../../components/RecentPosts';
import { GroupCover } from './cover';
import { GroupEditForm, InviteForm } from './owner-tools';
import { badgeOf, GroupKind } from './shared';

/** A member's avatar and name, linking to their profile. */
export function MemberLink({ m, owner }: { m: GroupMember; owner?: boolean }) {
  const { t } = useT();
  const rp = useRuntime().config.relative_path;
  return (
    <a href={`${rp}/user/${encodeURIComponent(m.userslug)}`} className="d-inline-flex align-items-center gap-2 text-reset text-decoration-none min-w-0">
      <Avatar user={{ ...m, picture: m.picture ?? '' }} size="sm" />
      <span className="text-truncate">{m.displayname}</span>
      {owner && <span className="badge text-bg-info" title={t('groups:owner')}>{t('groups:owner')}</span>}
    </a>
  );
}

/** A group's page: cover, description, members, the join/leave/request button and the owners' tools. */
export default function GroupDetails({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const me = useUser();
  const rp = rt.config.relative_path;
  const { group: g } = page as GroupDetailsPage;
  const [busy, setBusy] = useState(false);
  const base = `/groups/${encodeURIComponent(g.slug)}`;
  const reload = () => rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });

  const act = async (method: 'PUT' | 'DELETE' | 'POST', path: string, done?: string) => {
    setBusy(true);
    try {
      await api(rt.config, method, path);
      if (done) rt.alert({ type: 'success', message: t(done) });
      reload();
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const uid = me?.uid ?? 0;

  const membershipButton = () => {
    if (!uid) return null;
    if (g.isInvited && !g.isMember)
      return (
        <>
          <button type="button" className="btn btn-success" disabled={busy} onClick={() => void act('PUT', `${base}/invites/${uid}`, 'groups:membership.joined')}>{t('groups:membership.accept-invitation')}</button>
          <button type="button" className="btn btn-danger" disabled={busy} onClick={() => void act('DELETE', `${base}/invites/${uid}`)}>{t('groups:membership.reject')}</button>
        </>
      );
    if (g.isMember)
      return g.system || (g.disableLeave && !g.isOwner) ? null : (
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => void act('DELETE', `${base}/membership/${uid}`, 'groups:membership.left')} data-testid="group-leave">{t('groups:membership.leave-group')}</button>
      );
    if (g.isPending) return <button type="button" className="btn btn-secondary" disabled>{t('groups:membership.invitation-pending')}</button>;
    if (g.system || g.hidden || (g.private && g.disableJoinRequests)) return null;
    return (
      <button type="button" className="btn btn-primary" disabled={busy} data-testid="group-join" onClick={() => void act('PUT', `${base}/membership/${uid}`, g.private ? 'groups:membership.request-sent' : 'groups:membership.joined')}>
        {t('groups:membership.join-group')}
      </button>
    );
  };

  return (
    <>
      <GroupCover key={`${g.slug} ${g['cover:url']}`} group={g} />
      <PageHeader title={g.displayName} subtitle={<GroupKind group={g} />}>
        {membershipButton()}
      </PageHeader>
      <div className="row g-3">
        <div className="col-12 col-lg-8 d-flex flex-column gap-3">
          <section className="card" aria-labelledby="group-about">
            <div className="card-body">
              <h2 id="group-about" className="h6 text-uppercase text-body-secondary">{t('groups:details.title')}</h2>
              {g.descriptionParsed ? <PostContent html={g.descriptionParsed} /> : null}
              <dl className="row small mb-0 mt-2">
                <dt className="col-6 col-sm-4">{t('groups:details.member-count')}</dt>
                <dd className="col-6 col-sm-8" data-testid="group-member-count">{g.memberCount}</dd>
                <dt className="col-6 col-sm-4">{t('groups:details.creation-date')}</dt>
                <dd className="col-6 col-sm-8"><Timeago iso={g.createtimeISO} ts={g.createtime} /></dd>
                {g.userTitleEnabled ? (
                  <>
                    <dt className="col-6 col-sm-4">{t('groups:details.badge-preview')}</dt>
                    <dd className="col-6 col-sm-8"><GroupBadge group={badgeOf(g)} /></dd>
                  </>
                ) : null}
              </dl>
            </div>
          </section>
          {g.isOwner && <GroupEditForm group={g} onSaved={(slug) => rt.navigate(`${rp}/groups/${encodeURIComponent(slug)}`, { replace: true, force: true })} />}
          <section aria-labelledby="group-posts">
            <h2 id="group-posts" className="h5">{t('groups:details.latest-posts')}</h2>
            <RecentPosts posts={(page as GroupDetailsPage).posts} empty="groups:details.no-posts" authors />
          </section>
        </div>
        <div className="col-12 col-lg-4 d-flex flex-column gap-3">
          <section className="card" aria-labelledby="group-members">
            <div className="card-header d-flex align-items-center">
              <h2 id="group-members" className="h6 mb-0 flex-grow-1">{t('groups:members')}</h2>
              <a href={`${rp}${base}/members`} className="small">{t('groups:details.members')}</a>
            </div>
            <ul className="list-group list-group-flush" data-testid="group-members">
              {g.members.map((m) => (
                <li key={m.uid} className="list-group-item"><MemberLink m={m} owner={m.isOwner} /></li>
              ))}
            </ul>
          </section>
          {g.isOwner && (
            <section className="card" aria-labelledby="group-pending">
              <div className="card-header"><h2 id="group-pending" className="h6 mb-0">{t('groups:details.pending')}</h2></div>
              {g.pending.length ? (
                <ul className="list-group list-group-flush" data-testid="group-pending">
                  {g.pending.map((m) => (
                    <li key={m.uid} className="list-group-item d-flex flex-wrap align-items-center gap-2">
                      <span className="flex-grow-1 min-w-0"><MemberLink m={m} /></span>
                      <button type="button" className="btn btn-sm btn-success" disabled={busy} onClick={() => void act('PUT', `${base}/pending/${m.uid}`)}>{t('groups:pending.accept')}</button>
                      <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy} onClick={() => void act('DELETE', `${base}/pending/${m.uid}`)}>{t('groups:pending.reject')}</button>
                    </li>
                  ))}
                </ul>
              ) : (
                <div className="card-body small text-body-secondary">{t('groups:pending.none')}</div>
              )}
            </section>
          )}
          {g.isOwner && !g.system && (
            <section className="card" aria-labelledby="group-invited">
              <div className="card-header"><h2 id="group-invited" className="h6 mb-0">{t('groups:details.invited')}</h2></div>
              {g.invited.length ? (
                <ul className="list-group list-group-flush">
                  {g.invited.map((m) => (
                    <li key={m.uid} className="list-group-item d-flex flex-wrap align-items-center gap-2">
                      <span className="flex-grow-1 min-w-0"><MemberLink m={m} /></span>
                      <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy} onClick={() => void act('DELETE', `${base}/invites/${m.uid}`)}>{t('groups:invited.uninvite')}</button>
                    </li>
                  ))}
                </ul>
              ) : (
                <div className="card-body small text-body-secondary">{t('groups:invited.none')}</div>
              )}
              <div className="card-body border-top"><InviteForm slug={g.slug} onInvited={reload} /></div>
            </section>
          )}
        </div>
      </div>
    </>
  );
}
