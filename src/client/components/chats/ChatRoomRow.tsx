import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { roomTitle, teaserText } from '../../pages/chats/messages';
import type { ChatRoomSummary } from '../../pages/chats/types';
import { Avatar } from '../Avatar';
import { Icon } from '../Icon';
import { Timeago } from '../Timeago';

/** One room in a list: picture of the other member (or a group icon), title, last message, unread dot. */
export function ChatRoomRow({ room, uid, active = false, compact = false }: { room: ChatRoomSummary; uid: number; active?: boolean; compact?: boolean }) {
  const { t, tx } = useT();
  const rp = useRuntime().config.relative_path;
  const others = (room.users ?? []).filter((u) => u.uid !== uid);
  const title = roomTitle(room, uid) || t('modules:chat.no-users-in-room');
  const teaser = room.teaser;
  const who = teaser?.user ?? room.lastUser;
  const group = room.groupChat || others.length > 1 || room.public;
  return (
    <a
      href={`${rp}/chats/${room.roomId}`}
      className={`chat-room-row d-flex gap-2 align-items-center text-reset text-decoration-none${compact ? ' px-3 py-2' : ' px-3 py-2'}${active ? ' active' : ''}${room.unread ? ' unread' : ''}`}
      data-roomid={room.roomId}
      data-testid="chat-room"
      aria-current={active ? 'page' : undefined}
    >
      {group || !others[0] ? (
        <span className="avatar avatar-md chat-group-icon d-inline-flex align-items-center justify-content-center" aria-hidden="true">
          <Icon name={room.public ? 'comments' : 'users'} />
        </span>
      ) : (
        <Avatar user={others[0]} size="md" />
      )}
      <span className="flex-grow-1 min-w-0">
        <span className="d-flex align-items-baseline gap-2">
          <span className="chat-room-title text-truncate flex-grow-1" dir="auto">{title}</span>
          {teaser?.timestamp ? <span className="small text-body-secondary flex-shrink-0"><Timeago ts={teaser.timestamp} /></span> : null}
        </span>
        <span className="d-flex align-items-center gap-2">
          <span className="small text-body-secondary text-truncate flex-grow-1 chat-room-teaser" dir="auto">
            {teaser ? `${who && who.uid !== uid && group ? `${who.displayname || who.username}: ` : who?.uid === uid ? `${t('modules:chat.you')}: ` : ''}${teaserText(tx(teaser.content))}` : '\u00a0'}
          </span>
          {room.unread && (
            <span className="chat-unread-dot flex-shrink-0" data-testid="chat-unread" title={t('modules:chat.unread')}>
              <span className="visually-hidden">{t('modules:chat.unread')}</span>
            </span>
          )}
        </span>
      </span>
    </a>
  );
}
