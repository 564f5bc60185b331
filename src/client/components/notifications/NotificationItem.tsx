import type { MouseEvent } from 'react';
import type { ClientConfig } from '../../../shared/types';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { decodeEntities } from '../../navigation/title';
import { textRuns, type NotificationItem } from '../../state/notifications';
import { Avatar } from '../Avatar';
import { Icon } from '../Icon';
import { Timeago } from '../Timeago';
import { notificationHref, openNotification } from './actions';

/** A notification's text: translated, names in bold, never raw HTML. */
export function NotificationText({ text }: { text: string }) {
  const { tx } = useT();
  return (
    <>
      {textRuns(tx(text), decodeEntities).map((r, i) => (r.bold ? <strong key={i}>{r.text}</strong> : <span key={i}>{r.text}</span>))}
    </>
  );
}

/**
 * The sender of a notification no member sent (a system notice: a post queued, an export ready):
 * the forum itself, with its touch icon or favicon (the built-in icon when none is uploaded), not
 * an empty avatar.
 */
function forumAvatar(config: ClientConfig, image: string | null | undefined) {
  const picture = image || config.brand?.touchIcon || config.brand?.favicon || `${config.relative_path}/favicon.svg`;
  return { username: config.siteTitle, picture, 'icon:text': '', 'icon:bgColor': '' };
}

/**
 * One notification: a link to its path (a plain left click opens it in-page and marks it
 * read), with a button to mark it read without opening it.
 */
export function NotificationRow({ item, onRead, compact = false }: { item: NotificationItem; onRead: (item: NotificationItem) => void; compact?: boolean }) {
  const { t } = useT();
  const rt = useRuntime();
  const href = notificationHref(rt.config.relative_path, item.path || '/notifications');
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    e.stopPropagation();
    openNotification(rt, item);
  };
  return (
    <div className={`notification-row d-flex gap-2 align-items-start${item.read ? '' : ' unread'}${compact ? ' px-3 py-2' : ' p-3'}`} data-nid={item.nid} data-testid="notification">
      <Avatar user={item.user ? { ...item.user, picture: item.image ?? item.user.picture } : forumAvatar(rt.config, item.image)} size={compact ? 'sm' : 'md'} />
      <a href={href} onClick={onClick} className="flex-grow-1 min-w-0 text-reset text-decoration-none notification-link">
        <div className="text-break" dir="auto"><NotificationText text={item.bodyShort} /></div>
        <div className="small text-body-secondary"><Timeago ts={item.datetime} /></div>
      </a>
      {!item.read && (
        <button type="button" className="btn btn-sm btn-link p-0 notification-mark" title={t('notifications:mark-read')} aria-label={t('notifications:mark-read')} onClick={() => onRead(item)}>
          <Icon name="check" />
        </button>
      )}
    </div>
  );
}
