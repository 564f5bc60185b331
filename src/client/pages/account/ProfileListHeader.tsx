import type { ProfileListBase } from '../../../shared/profile';
import { useT } from '../../app/hooks';
import { PageHeader } from '../../components/PageHeader';
import { Avatar } from '../../components/Avatar';
import { AccountNav } from './AccountNav';

/** The head of a profile list: the account tabs, the list's title with the member's avatar. */
export function ProfileListHeader({ data, active }: { data: Pick<ProfileListBase, 'userslug' | 'isSelf' | 'isAdmin' | 'title' | 'picture' | 'username' | 'icon:text' | 'icon:bgColor' | 'uid' | 'displayname'>; active: string }) {
  const { tx } = useT();
  return (
    <>
      <AccountNav userslug={data.userslug} active={active} own={data.isSelf || data.isAdmin} />
      <PageHeader title={tx(data.title ?? '')} icon={<Avatar user={data} size="md" />} />
    </>
  );
}

/** The empty state of a profile list, in the page's own words (NodeBB's noItemsFoundKey, or the key a page without one names). */
export function EmptyList({ textKey }: { textKey: string }) {
  const { tx } = useT();
  return <div className="card card-body text-center text-body-secondary py-5" data-testid="profile-list-empty">{tx(textKey)}</div>;
}
