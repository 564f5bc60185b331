import { useState } from 'react';
import type { PageBase, UsersPage } from '../../shared/types';
import { humanReadableNumber } from '../../shared/numbers';
import { useT } from '../app/hooks';
import { Avatar } from '../components/Avatar';
import { InviteForm } from '../components/InviteForm';
import { PageHeader } from '../components/PageHeader';
import { Pagination } from '../components/Pagination';
import { Timeago } from '../components/Timeago';
import { userPath } from '../util/urls';

// The server's sections; joindate is its default.
const SECTIONS = [
  { id: 'joindate', to: '/users', label: 'users:latest-users' },
  { id: 'sort-posts', to: '/users?section=sort-posts', label: 'users:top-posters' },
  { id: 'sort-reputation', to: '/users?section=sort-reputation', label: 'users:most-reputation' },
  { id: 'online', to: '/users?section=online', label: 'users:online' },
];

/** The member directory. */
export default function Users({ page }: { page: PageBase }) {
  const { t } = useT();
  const data = page as UsersPage;
  const [inviting, setInviting] = useState(false);
  return (
    <>
      <PageHeader title={t('pages:users')} subtitle={data.userCount ? t('users:count', humanReadableNumber(data.userCount)) : undefined}>
        {data.showInviteButton && (
          <button type="button" className="btn btn-outline-primary" aria-expanded={inviting} aria-controls="users-invite" onClick={() => setInviting((v) => !v)}>
            {t('users:invite')}
          </button>
        )}
      </PageHeader>
      {data.showInviteButton && inviting && (
        <div id="users-invite" className="mb-3">
          <InviteForm />
        </div>
      )}
      <ul className="nav nav-pills mb-3 gap-1">
        {SECTIONS.map((s) => (
          <li className="nav-item" key={s.id}>
            <a href={`${page.relative_path}${s.to}`} className={`nav-link py-1 px-3${(data.section || 'joindate') === s.id ? ' active' : ''}`} aria-current={(data.section || 'joindate') === s.id ? 'page' : undefined}>
              {t(s.label)}
            </a>
          </li>
        ))}
      </ul>
      {data.users?.length ? (
        <ul className="row row-cols-2 row-cols-sm-3 row-cols-md-4 row-cols-xl-6 g-3 list-unstyled">
          {data.users.map((u) => (
            <li className="col" key={u.uid}>
              <a href={`${page.relative_path}${userPath(u.userslug)}`} className="card h-100 text-center text-decoration-none user-card">
                <div className="card-body d-flex flex-column align-items-center gap-2">
                  <Avatar user={u} size="lg" />
                  <div className="fw-semibold text-truncate w-100 text-body" dir="auto">{u.displayname}</div>
                  <div className="small text-body-secondary d-flex gap-3">
                    <span title={t('global:reputation')}>{humanReadableNumber(u.reputation)} {t('global:rep-short')}</span>
                    <span title={t('global:posts')}>{humanReadableNumber(u.postcount)} {t('global:posts-short')}</span>
                  </div>
                  {u.joindateISO && <div className="small text-body-secondary">{t('users:joined')} <Timeago iso={u.joindateISO} /></div>}
                </div>
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <div className="card card-body text-center text-body-secondary py-5">{t('users:none')}</div>
      )}
      <Pagination pagination={data.pagination} />
    </>
  );
}
