import { useEffect, useRef, useState } from 'react';
import { useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { createScrollTracker, type ScrollTracker } from '../state/bottom-bar';
import { useStore } from '../state/store';
import { ChatsDropdown } from './chats/ChatsDropdown';
import { DraftsDropdown } from './DraftsDropdown';
import { Icon } from './Icon';
import { NotificationsDropdown } from './notifications/NotificationsDropdown';
import { NavEntryLink, useNavItems } from './nav-items';
import { SearchDropdown } from './SearchDropdown';
import { shellBar } from './shell-key';
import { UserMenu } from './UserMenu';

/** Tracks scrolling, throttled to 250 ms, paused while posts load (resumes 250 ms after). */
function useHiddenOnScroll(openDropdowns: number): boolean {
  const rt = useRuntime();
  const { postsLoading } = useStore(rt.ui);
  const [hidden, setHidden] = useState(false);
  const tracker = useRef<ScrollTracker | null>(null);
  const open = useRef(openDropdowns);
  open.current = openDropdowns;

  // Resumes 250 ms after posts finished loading (not on mount: nothing loaded then).
  const wasLoading = useRef(postsLoading);
  useEffect(() => {
    if (wasLoading.current && !postsLoading) tracker.current?.postsLoaded();
    wasLoading.current = postsLoading;
  }, [postsLoading]);

  useEffect(() => {
    const read = () => ({
      y: window.scrollY,
      dropdownOpen: open.current > 0,
      // The theme option (admin/plugins/harmony) may keep the bar in view: never hidden.
      paused: rt.config.autohideBottombar === false || rt.ui.get().postsLoading,
    });
    const t = createScrollTracker(read, setHidden, window.scrollY);
    tracker.current = t;
    const onScroll = () => t.onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      t.dispose();
      tracker.current = null;
    };
  }, [rt]);
  return hidden && openDropdowns === 0;
}

/** The mobile bottom bar ("sticky tools"). */
export function BottomBar() {
  const { t } = useT();
  const rt = useRuntime();
  const user = useUser();
  const [openCount, setOpenCount] = useState(0);
  const onToggle = (open: boolean) => setOpenCount((n) => Math.max(0, n + (open ? 1 : -1)));
  const hidden = useHiddenOnScroll(openCount);
  const navItems = useNavItems(true);
  const attrs = { className: `bottombar d-lg-none${hidden ? ' bottombar-hidden' : ''}`, 'aria-label': t('global:mobile-navigation') };
  // The server writes it from its fragment cache when a page before looked the same (shell-key.ts).
  return shellBar(
    rt,
    'bottombar',
    attrs,
    <nav {...attrs}>
      <div className="d-flex justify-content-around align-items-center">
        {navItems.map((item) => (
          <NavEntryLink key={item.route} entry={item}>
            {(label) => (
              <>
                <Icon name={item.icon} />
                <span className="visually-hidden">{label}</span>
              </>
            )}
          </NavEntryLink>
        ))}
        <SearchDropdown drop="up" onToggle={onToggle} />
        <DraftsDropdown drop="up" onToggle={onToggle} />
        {user && <NotificationsDropdown drop="up" onToggle={onToggle} />}
        {user && <ChatsDropdown drop="up" onToggle={onToggle} />}
        <UserMenu drop="up" onToggle={onToggle} />
      </div>
    </nav>,
  );
}
