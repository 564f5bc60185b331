import type { ProfileListBase } from '../../../shared/profile';
import { useT } from '../../app/hooks';
import { PageHeader } from '../../components/PageHeader';
import { Avatar } from '../../components/Avatar';
import { AccountNav } from './AccountNav';

/** The head of a profile list: the account tabs, the list's title with the member's avatar. */
export function ProfileListHeader({ data, active }: { data: ProfileListBase; active: string }) {
  const { tx } = useT();
  return (
    <>
      <AccountNav userslug={data.userslug} active={active} own={data.isSelfOrAdmin} />
      <PageHeader title={tx(data.title ?? '')} icon={<Avatar user={data} size="md" />} />
    </>
  );
}

/** The empty state of a profile list, in the page's own words (NodeBB's noItemsFoundKey). */
export function EmptyList({ data }: { data: ProfileListBase }) {
  const { tx } = useT();
  return <div className="card card-body text-center text-body-secondary py-5" data-testid="profile-list-empty">{tx(data.noItemsFoundKey)}</div>;
}
