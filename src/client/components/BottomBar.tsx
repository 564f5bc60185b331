import { useEffect, useRef, useState } from 'react';
import { BOTTOM_BAR_REENABLE_MS, BOTTOM_BAR_THROTTLE_MS } from '../../shared/constants';
import { useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { nextBarState, type BarState } from '../state/bottom-bar';
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
  const state = useRef<BarState>({ lastY: 0, hidden: false });
  const suspendedUntil = useRef(0);
  const open = useRef(openDropdowns);
  open.current = openDropdowns;

  // Resumes 250 ms after posts finished loading (not on mount: nothing loaded then).
  const wasLoading = useRef(postsLoading);
  useEffect(() => {
    if (wasLoading.current && !postsLoading) suspendedUntil.current = Date.now() + BOTTOM_BAR_REENABLE_MS;
    wasLoading.current = postsLoading;
  }, [postsLoading]);

  useEffect(() => {
    state.current = { lastY: window.scrollY, hidden: false };
    let last = 0;
    let trailing: ReturnType<typeof setTimeout> | undefined;
    const evaluate = () => {
      last = Date.now();
      // The theme option (admin/plugins/harmony) may keep the bar in view: never hidden.
      const suspended = rt.config.autohideBottombar === false || rt.ui.get().postsLoading || Date.now() < suspendedUntil.current;
      state.current = nextBarState(state.current, { y: window.scrollY, dropdownOpen: open.current > 0, suspended });
      setHidden(state.current.hidden);
    };
    const onScroll = () => {
      const wait = BOTTOM_BAR_THROTTLE_MS - (Date.now() - last);
      clearTimeout(trailing);
      if (wait <= 0) evaluate();
      else trailing = setTimeout(evaluate, wait);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      clearTimeout(trailing);
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
