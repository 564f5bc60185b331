/** The main navigation, shared by the sidebar and the mobile bottom bar. */
export interface NavItem {
  to: string;
  icon: string;
  label: string;
  /** Only for logged-in members. */
  member?: boolean;
  /** Also shown in the mobile bottom bar. */
  mobile?: boolean;
}

export const NAV_ITEMS: NavItem[] = [
  { to: '/', icon: 'grid', label: 'global:header.categories', mobile: true },
  { to: '/recent', icon: 'clock', label: 'global:header.recent', mobile: true },
  { to: '/unread', icon: 'inbox', label: 'global:header.unread', member: true, mobile: true },
  { to: '/popular', icon: 'trending', label: 'global:header.popular' },
  { to: '/top', icon: 'award', label: 'global:header.top' },
  { to: '/tags', icon: 'tag', label: 'global:header.tags' },
  { to: '/users', icon: 'users', label: 'global:header.users' },
  { to: '/groups', icon: 'user-plus', label: 'global:header.groups' },
];
