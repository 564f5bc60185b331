import type { ReactNode } from 'react';
import { DEFAULT_NAVIGATION, type NavEntry } from '../../shared/navigation';
import { useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { NavLink } from './NavLink';

/**
 * The main navigation, shared by the sidebar and the phone's bottom bar: the admin's list
 * (client config `navigation`, the navigation editor's setting), the enabled entries the
 * viewer may see. `mobile`: only those also in the bottom bar.
 */
export function useNavItems(mobile = false): NavEntry[] {
  const rt = useRuntime();
  const user = useUser();
  const list = rt.config.navigation ?? DEFAULT_NAVIGATION;
  return list.filter((e) => e.enabled && (!e.members || user) && (!mobile || e.mobile));
}

/** One navigation entry: a forum path through NavLink (active state, in-page), an outside address as a plain link. */
export function NavEntryLink({ entry, children }: { entry: NavEntry; children: (label: string) => ReactNode }) {
  const { tx } = useT();
  const label = tx(entry.text);
  if (entry.route.startsWith('/')) {
    return (
      <NavLink to={entry.route} className="btn nav-btn" title={label}>
        {children(label)}
      </NavLink>
    );
  }
  return (
    <a href={entry.route} className="btn nav-btn" title={label} {...(entry.newTab ? { target: '_blank', rel: 'noopener noreferrer' } : { rel: 'noopener' })} data-ajaxify="false">
      {children(label)}
    </a>
  );
}
