import { useState, type MouseEvent } from 'react';
import Dropdown, { toggleId } from '../Dropdown';
import { useT, useUser } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { useStore } from '../../state/store';
import { Icon } from '../Icon';
import { NavBadge } from '../NavBadge';
import { ChatRoomRow } from './ChatRoomRow';
import { dockAvailable, openDocked } from './dock';
import { chatsOf, loadRecentRooms } from './store';

const FIXED = { strategy: 'fixed' as const };
const SHOWN = 8;

/**
 * The chat button of the sidebar and the bottom bar: the unread room count, and a dropdown
 * with the recent rooms (last message, unread dot) and a link to all chats.
 */
export function ChatsDropdown({ drop = 'end', showLabel = false, onToggle }: { drop?: 'end' | 'up'; showLabel?: boolean; onToggle?: (open: boolean) => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const user = useUser();
  const { unread, rooms } = useStore(chatsOf(rt));
  const [show, setShow] = useState(false);
  const rp = rt.config.relative_path;
  const toggle = (open: boolean) => {
    setShow(open);
    onToggle?.(open);
    if (open) void loadRecentRooms(rt);
  };
  const label = t('global:header.chats');
  // A room picked here opens in a floating window on desktop widths (not from the chats page,
  // which shows rooms beside its list; not when opened in a new tab); on phones, its page.
  const openRoom = (e: MouseEvent<HTMLDivElement>) => {
    const link = (e.target as HTMLElement).closest<HTMLElement>('a[data-roomid]');
    if (!link) return;
    toggle(false);
    const onChatsPage = rt.page.get().page.template?.name === 'chats';
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || onChatsPage || !dockAvailable()) return;
    e.preventDefault();
    openDocked(rt, Number(link.dataset.roomid));
  };
  return (
    <Dropdown drop={drop} align={drop === 'end' ? 'end' : undefined} className="nav-dropdown" show={show} onToggle={toggle}>
      <Dropdown.Toggle as="button" type="button" id={toggleId('chats', drop)} className="btn nav-btn no-caret position-relative chats-toggle" title={label}>
        {/* A text label, not aria-label: the visible count must be part of the button's name. */}
        {!showLabel && <span className="visually-hidden">{label}</span>}
        <Icon name="chat" />
        <NavBadge count={unread} testId="chats-count" variant="danger" />
        {showLabel && <span className="nav-label">{label}</span>}
      </Dropdown.Toggle>
      <Dropdown.Menu className="shadow chats-menu p-0" data-testid="chats-menu" popperConfig={drop === 'end' ? FIXED : undefined}>
        <div className="px-3 py-2 border-bottom fw-semibold">{t('modules:chat.recent-chats')}</div>
        <div className="chats-menu-list" onClick={openRoom}>
          {rooms === null && <div className="px-3 py-3 text-body-secondary small">{t('global:loading')}</div>}
          {rooms?.length === 0 && <div className="px-3 py-3 text-body-secondary small">{t('modules:chat.no_active')}</div>}
          {rooms?.slice(0, SHOWN).map((r) => <ChatRoomRow key={r.roomId} room={r} uid={user?.uid ?? 0} compact />)}
        </div>
        <a href={`${rp}/chats`} className="d-block text-center border-top px-3 py-2 small" onClick={() => toggle(false)} data-testid="chats-see-all">
          {t('modules:chat.see_all')}
        </a>
      </Dropdown.Menu>
    </Dropdown>
  );
}
