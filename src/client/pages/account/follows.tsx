import type { ProfileUsersPage } from '../../../shared/profile';
import type { PageBase } from '../../../shared/types';
import { humanReadableNumber } from '../../../shared/numbers';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Avatar } from '../../components/Avatar';
import { Pagination } from '../../components/Pagination';
import { EmptyList, ProfileListHeader } from './ProfileListHeader';

/** A member's followers, or the members they follow: a grid of member cards. */
export default function ProfileFollows({ page }: { page: PageBase }) {
  const data = page as ProfileUsersPage;
  const { t } = useT();
  const rp = useRuntime().config.relative_path;
  return (
    <>
      <ProfileListHeader data={data} active={page.template.name.replace(/^account\//, '')} />
      {data.users.length === 0 ? (
        <EmptyList textKey={page.template.name === 'account/followers' ? '[[user:has-no-follower]]' : '[[user:follows-no-one]]'} />
      ) : (
        <ul className="row row-cols-1 row-cols-sm-2 row-cols-lg-4 g-3 list-unstyled mb-3" data-testid="profile-users">
          {data.users.map((u) => (
            <li key={u.uid} className="col">
              <a href={`${rp}/user/${encodeURIComponent(u.userslug)}`} className="card h-100 text-decoration-none text-body">
                <div className="card-body d-flex align-items-center gap-3">
                  <Avatar user={u} size="lg" />
                  <div className="min-w-0">
                    <div className="fw-semibold text-truncate">{u.displayname}</div>
                    <div className="small text-body-secondary">
                      {t('global:reputation')} {humanReadableNumber(u.reputation)} · {t('global:posts')} {humanReadableNumber(u.postcount)}
                    </div>
                  </div>
                </div>
              </a>
            </li>
          ))}
        </ul>
      )}
      <Pagination pagination={data.pagination} />
    </>
  );
}
