import { useState } from 'react';
import Dropdown, { toggleId } from '../Dropdown';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { notificationsOf } from '../../state/notifications';
import { useStore } from '../../state/store';
import { Icon } from '../Icon';
import { NavBadge } from '../NavBadge';
import { loadLatest, markAllRead, markOneRead } from './actions';
import { NotificationRow } from './NotificationItem';

const FIXED = { strategy: 'fixed' as const };

/**
 * The bell (sidebar and bottom bar): the unread count badge, and a dropdown with the latest
 * notifications, "mark all read" and a link to the notifications page.
 */
export function NotificationsDropdown({ drop = 'end', showLabel = false, onToggle }: { drop?: 'end' | 'up'; showLabel?: boolean; onToggle?: (open: boolean) => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const store = notificationsOf(rt);
  const { unread, latest } = useStore(store);
  const [show, setShow] = useState(false);
  const rp = rt.config.relative_path;
  const toggle = (open: boolean) => {
    setShow(open);
    onToggle?.(open);
    if (open) void loadLatest(rt);
  };
  const label = t('global:header.notifications');
  // The bell sits low in the sidebar: the menu grows upwards from it (align end).
  return (
    <Dropdown drop={drop} align={drop === 'end' ? 'end' : undefined} className="nav-dropdown" show={show} onToggle={toggle}>
      <Dropdown.Toggle as="button" type="button" id={toggleId('notifications', drop)} className="btn nav-btn no-caret position-relative notifications-toggle" title={label}>
        {/* A text label, not aria-label: the visible count must be part of the button's name. */}
        {!showLabel && <span className="visually-hidden">{label}</span>}
        <Icon name="bell" />
        <NavBadge count={unread} testId="notifications-count" variant="danger" />
        {showLabel && <span className="nav-label">{label}</span>}
      </Dropdown.Toggle>
      {/* Fixed in the sidebar, which clips what overflows it (overflow-x: hidden). */}
      <Dropdown.Menu className="shadow notifications-menu p-0" data-testid="notifications-menu" popperConfig={drop === 'end' ? FIXED : undefined}>
        <div className="d-flex align-items-center justify-content-between px-3 py-2 border-bottom">
          <span className="fw-semibold">{label}</span>
          <button type="button" className="btn btn-sm btn-link p-0" onClick={() => void markAllRead(rt)} disabled={!unread && !latest?.some((n) => !n.read)}>
            {t('notifications:mark-all-read')}
          </button>
        </div>
        {/* Capture: a notification's own handler stops the click (it opens the notification itself), the menu still closes. */}
        <div className="notifications-menu-list" onClickCapture={(e) => (e.target as HTMLElement).closest('a') && toggle(false)}>
          {latest === null && <div className="px-3 py-3 text-body-secondary small">{t('global:loading')}</div>}
          {latest?.length === 0 && <div className="px-3 py-3 text-body-secondary small">{t('notifications:no-notifications')}</div>}
          {latest?.map((n) => <NotificationRow key={n.nid} item={n} compact onRead={(item) => void markOneRead(rt, item)} />)}
        </div>
        <a href={`${rp}/notifications`} className="d-block text-center border-top px-3 py-2 small" onClick={() => toggle(false)}>
          {t('notifications:see-all')}
        </a>
      </Dropdown.Menu>
    </Dropdown>
  );
}
