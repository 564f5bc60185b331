import { useEffect, useRef } from 'react';
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
];

/** The account pages' navigation (tabs that scroll sideways on a phone). */
export function AccountNav({ userslug, active, own }: { userslug: string; active: string; own: boolean }) {
  const { t } = useT();
  const rp = useRuntime().config.relative_path;
  // Lists only the member sees (ignored, read) show when the viewer is that member.
  const self = useUser()?.userslug === userslug;
  const base = `${rp}/user/${encodeURIComponent(userslug)}`;
  const list = useRef<HTMLUListElement>(null);
  // On a phone the tabs scroll sideways: the current one is brought into view.
  useEffect(() => {
    const ul = list.current;
    const current = ul?.querySelector<HTMLElement>('.active');
    if (ul && current && (current.offsetLeft + current.offsetWidth > ul.scrollLeft + ul.clientWidth || current.offsetLeft < ul.scrollLeft)) {
      ul.scrollLeft = current.offsetLeft - (ul.clientWidth - current.offsetWidth) / 2;
    }
  }, [active]);
  return (
    <nav className="account-nav mb-3" aria-label={t('user:account.nav')}>
      <ul ref={list} className="nav nav-underline flex-nowrap overflow-x-auto text-nowrap">
        {ACCOUNT_NAV_ITEMS.filter((i) => (own || !i.own) && (self || !i.selfOnly)).map((i) => (
          <li className="nav-item" key={i.id}>
            <a className={`nav-link${i.id === active ? ' active' : ''}`} href={`${base}${i.path}`} aria-current={i.id === active ? 'page' : undefined}>
              {t(i.label)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
