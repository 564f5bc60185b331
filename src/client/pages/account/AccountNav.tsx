import { useState } from 'react';
import Dropdown from '../../components/Dropdown';
import { useT, useUser } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';

/** One entry of the account nav: its path below /user/:userslug ('' for the profile) and its label key. */
export interface AccountNavItem {
  id: string;
  path: string;
  label: string;
  /** Only the member themself and admins see it (their private pages). */
  own?: boolean;
  /** Only the member themself sees it (an admin is refused these lists too). */
  selfOnly?: boolean;
  /** Only admins and global moderators see it (the account's moderation record). */
  moderator?: boolean;
}

/**
 * The account pages, in order. Other pages (uploads, chats…) add an entry here; the entry's
 * `id` is what a page passes as `active`.
 */
export const ACCOUNT_NAV_ITEMS: AccountNavItem[] = [
  { id: 'profile', path: '', label: 'user:account.profile' },
  { id: 'edit', path: '/edit', label: 'user:account.edit', own: true },
  { id: 'posts', path: '/posts', label: 'user:account.posts' },
  { id: 'topics', path: '/topics', label: 'user:account.topics' },
  { id: 'best', path: '/best', label: 'user:account.best' },
  { id: 'controversial', path: '/controversial', label: 'user:account.controversial' },
  { id: 'followers', path: '/followers', label: 'user:account.followers' },
  { id: 'following', path: '/following', label: 'user:account.following' },
  { id: 'groups', path: '/groups', label: 'user:account.groups' },
  { id: 'upvoted', path: '/upvoted', label: 'user:account.upvoted', own: true },
  { id: 'downvoted', path: '/downvoted', label: 'user:account.downvoted', own: true },
  { id: 'bookmarks', path: '/bookmarks', label: 'user:account.bookmarks', own: true },
  { id: 'ignored', path: '/ignored', label: 'user:account.ignored', own: true, selfOnly: true },
  { id: 'read', path: '/read', label: 'user:account.read', own: true, selfOnly: true },
  { id: 'settings', path: '/settings', label: 'user:account.settings', own: true },
  { id: 'theme', path: '/theme', label: 'user:account.theme', own: true },
  { id: 'security', path: '/edit/password', label: 'user:account.security', own: true },
  { id: 'watched', path: '/watched', label: 'user:account.watched', own: true },
  { id: 'categories', path: '/categories', label: 'user:account.categories', own: true },
  { id: 'tags', path: '/tags', label: 'user:account.tags', own: true },
  { id: 'web-push', path: '/web-push', label: 'user:account.web-push', own: true },
  { id: 'uploads', path: '/uploads', label: 'user:account.uploads', own: true },
  { id: 'chats', path: '/chats', label: 'user:account.chats', own: true },
  { id: 'consent', path: '/consent', label: 'user:account.consent', own: true },
  { id: 'blocks', path: '/blocks', label: 'user:account.blocks', own: true },
  { id: 'data', path: '/data', label: 'user:account.data', own: true },
  { id: 'info', path: '/info', label: 'pages:account/info', moderator: true },
];

/**
 * The menus the account pages are grouped in (as NodeBB's account menu groups them): the profile
 * stands alone, then what the member did, the people around them, their settings, and for
 * moderators the account's moderation record. Every entry of ACCOUNT_NAV_ITEMS is in one group.
 */
export const ACCOUNT_NAV_GROUPS: { id: string; label: string; items: string[] }[] = [
  { id: 'activity', label: 'user:account.menu.activity', items: ['posts', 'topics', 'best', 'controversial', 'upvoted', 'downvoted', 'bookmarks', 'watched', 'read', 'ignored', 'uploads'] },
  { id: 'people', label: 'user:account.menu.people', items: ['followers', 'following', 'groups', 'chats', 'blocks'] },
  { id: 'settings', label: 'user:account.menu.settings', items: ['edit', 'settings', 'theme', 'security', 'categories', 'tags', 'web-push', 'consent', 'data'] },
  { id: 'moderation', label: 'user:account.menu.moderation', items: ['info'] },
];

/**
 * The account pages' navigation: the profile, then one menu per group. The menu holding the
 * current page is marked and names that page, so a phone shows where the member is in one short
 * row (the 26 pages as tabs ran off the screen).
 */
export function AccountNav({ userslug, active, own }: { userslug: string; active: string; own: boolean }) {
  const { t } = useT();
  const rp = useRuntime().config.relative_path;
  const me = useUser();
  // Lists only the member sees (ignored, read) show when the viewer is that member.
  const self = me?.userslug === userslug;
  const moderator = !!(me?.isAdmin || me?.isGlobalMod);
  const base = `${rp}/user/${encodeURIComponent(userslug)}`;
  const byId = new Map(ACCOUNT_NAV_ITEMS.filter((i) => (own || !i.own) && (self || !i.selfOnly) && (moderator || !i.moderator)).map((i) => [i.id, i]));
  const profile = byId.get('profile');
  // The open menu (one at a time); following one of its links closes it, also when the next page
  // uses the same view (posts → best) and this navigation stays mounted.
  const [open, setOpen] = useState<string | null>(null);
  return (
    <nav className="account-nav mb-3" aria-label={t('user:account.nav')}>
      <ul className="nav nav-underline flex-wrap column-gap-3 row-gap-1">
        {profile && (
          <li className="nav-item">
            <a className={`nav-link${active === 'profile' ? ' active' : ''}`} href={`${base}${profile.path}`} aria-current={active === 'profile' ? 'page' : undefined}>
              {t(profile.label)}
            </a>
          </li>
        )}
        {ACCOUNT_NAV_GROUPS.map((g) => {
          const items = g.items.map((id) => byId.get(id)).filter((i): i is AccountNavItem => !!i);
          if (!items.length) return null;
          const current = items.find((i) => i.id === active);
          return (
            <Dropdown as="li" className="nav-item" key={g.id} data-group={g.id} show={open === g.id} onToggle={(next: boolean) => setOpen(next ? g.id : null)}>
              <Dropdown.Toggle as="button" type="button" className={`nav-link${current ? ' active' : ''}`} data-current={current?.id} aria-current={current ? 'page' : undefined}>
                {current ? (
                  <>
                    <span className="visually-hidden">{t(g.label)}: </span>
                    {t(current.label)}
                  </>
                ) : (
                  t(g.label)
                )}
              </Dropdown.Toggle>
              <Dropdown.Menu className="shadow">
                {current && <Dropdown.Header>{t(g.label)}</Dropdown.Header>}
                {/* Plain links: react-bootstrap's items add aria-selected, which a link may not carry. */}
                {items.map((i) => (
                  <a key={i.id} className={`dropdown-item${i.id === active ? ' active' : ''}`} href={`${base}${i.path}`} aria-current={i.id === active ? 'page' : undefined} onClick={() => setOpen(null)}>
                    {t(i.label)}
                  </a>
                ))}
              </Dropdown.Menu>
            </Dropdown>
          );
        })}
      </ul>
    </nav>
  );
}
