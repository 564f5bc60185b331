import { useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { saveSetting } from '../app/settings';
import { useStore } from '../state/store';
import { ChatsDropdown } from './chats/ChatsDropdown';
import { DraftsDropdown } from './DraftsDropdown';
import { Icon } from './Icon';
import { NotificationsDropdown } from './notifications/NotificationsDropdown';
import { NavEntryLink, useNavItems } from './nav-items';
import { SearchDropdown } from './SearchDropdown';
import { shellBar } from './shell-key';
import { SkinSwitcher } from './SkinSwitcher';
import { UserMenu } from './UserMenu';

/** The collapsible left sidebar (large screens): navigation and tools. */
export function Sidebar() {
  const { t } = useT();
  const rt = useRuntime();
  const user = useUser();
  const navItems = useNavItems();
  const { sidebarOpen } = useStore(rt.ui);
  const rp = rt.config.relative_path;
  const toggle = () => {
    const next = !sidebarOpen;
    rt.ui.set((s) => ({ ...s, sidebarOpen: next }));
    void saveSetting(rt, 'openSidebars', next ? 'on' : 'off');
  };
  const attrs = { className: `sidebar d-none d-lg-flex flex-column${sidebarOpen ? ' open' : ''}`, 'aria-label': t('global:main-navigation') };
  // The server writes it from its fragment cache when a page before looked the same (shell-key.ts).
  return shellBar(
    rt,
    'sidebar',
    attrs,
    <nav {...attrs}>
      <a href={`${rp}/`} className="sidebar-brand" title={rt.config.siteTitle}>
        {rt.config.brand?.logo ? (
          <img className="brand-logo" src={rt.config.brand.logo} alt="" width={32} height={32} />
        ) : (
          <span className="brand-mark" aria-hidden="true">
            {(rt.config.siteTitle || 'P').charAt(0).toUpperCase()}
          </span>
        )}
        <span className="nav-label fw-semibold text-truncate">{rt.config.siteTitle}</span>
      </a>
      <ul className="nav flex-column gap-1 mt-2">
        {navItems.map((item) => (
          <li className="nav-item" key={item.route}>
            <NavEntryLink entry={item}>
              {(label) => (
                <>
                  <Icon name={item.icon} />
                  <span className="nav-label">{label}</span>
                </>
              )}
            </NavEntryLink>
          </li>
        ))}
      </ul>
      <div className="mt-auto d-flex flex-column gap-1 pb-2">
        <SearchDropdown showLabel={sidebarOpen} />
        <DraftsDropdown showLabel={sidebarOpen} />
        {user && (
          <>
            <NotificationsDropdown showLabel={sidebarOpen} />
            <ChatsDropdown showLabel={sidebarOpen} />
          </>
        )}
        <SkinSwitcher showLabel={sidebarOpen} />
        <UserMenu showLabel={sidebarOpen} />
        <button
          type="button"
          className="btn nav-btn sidebar-toggle"
          onClick={toggle}
          aria-expanded={sidebarOpen}
          aria-label={sidebarOpen ? t('global:sidebar.collapse') : t('global:sidebar.expand')}
        >
          <Icon name={sidebarOpen ? 'chevrons-left' : 'chevrons-right'} />
          <span className="nav-label">{t('global:sidebar.collapse')}</span>
        </button>
      </div>
    </nav>,
  );
}
