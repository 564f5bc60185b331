import { useState, type KeyboardEvent } from 'react';
import Dropdown from '../../components/Dropdown';
import { useT } from '../../app/hooks';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { PostContent } from '../../components/PostContent';
import { Timeago } from '../../components/Timeago';
import { isDeleted, isEdited, isPinned, isSystem, systemMessage, teaserText } from './messages';
import type { ChatMessage } from './types';
import { LazyFlagDialog } from '../../components/flags/FlagButton';

/** What the reader may do with messages of this room. */
export interface MessagePowers {
  uid: number;
  /** Admins and global moderators: delete, restore and pin any message. */
  moderator: boolean;
  /** Room owners may pin. */
  owner: boolean;
  canReply: boolean;
}

export interface MessageHandlers {
  onReply(m: ChatMessage): void;
  onEdit(m: ChatMessage): void;
  onSaveEdit(m: ChatMessage, text: string): Promise<boolean>;
  onCancelEdit(): void;
  onDelete(m: ChatMessage): void;
  onRestore(m: ChatMessage): void;
  onPin(m: ChatMessage, pin: boolean): void;
  onCopy(m: ChatMessage): void;
  onJump(mid: number): void;
}

/** A system line: "alice has joined the room". */
function SystemLine({ m }: { m: ChatMessage }) {
  const { t, tx } = useT();
  const sys = systemMessage(m.content);
  const name = m.fromUser?.displayname || m.fromUser?.username || '';
  // The server sends "[[modules:chat.system.user-join, alice]]"; NodeBB's older form is "user-join".
  const text = m.content.includes('[[') ? teaserText(tx(m.content), 500) : sys ? (sys.arg !== undefined ? t(sys.key, sys.arg, name) : t(sys.key, name)) : teaserText(m.content, 500);
  return (
    <div className="chat-system text-center small text-body-secondary my-2" data-mid={m.mid} data-testid="chat-system">
      <span>{text}</span> · <Timeago ts={m.timestamp} />
    </div>
  );
}

/** The message a reply quotes, as one line; a click scrolls to it. */
function Quote({ m, onJump }: { m: ChatMessage; onJump: (mid: number) => void }) {
  const { t } = useT();
  const p = m.parent;
  if (!p) return null;
  const name = p.fromUser?.displayname || p.fromUser?.username || '';
  return (
    <button type="button" className="chat-quote btn btn-link text-start text-reset text-decoration-none p-0 d-block small mb-1" onClick={() => onJump(p.mid)} data-testid="chat-quote">
      <Icon name="reply" className="me-1" />
      <span className="fw-semibold">{t('modules:chat.replying-to', name)}</span>{' '}
      <span className="text-body-secondary">{isDeleted(p) ? t('modules:chat.message-deleted') : teaserText(p.content, 100)}</span>
    </button>
  );
}

/** The in-place editor of one's own message: Enter saves, Escape cancels. */
function EditBox({ m, raw, h }: { m: ChatMessage; raw: string; h: MessageHandlers }) {
  const { t } = useT();
  const [text, setText] = useState(raw);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (!text.trim() || busy) return;
    setBusy(true);
    const ok = await h.onSaveEdit(m, text);
    setBusy(false);
    if (!ok) return;
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void save();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      h.onCancelEdit();
    }
  };
  return (
    <div className="chat-edit">
      <textarea className="form-control form-control-sm" dir="auto" value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onKey} disabled={busy} rows={Math.min(6, text.split('\n').length + 1)} autoFocus aria-label={t('modules:chat.edit-message')} data-testid="chat-edit-input" />
      <div className="d-flex gap-2 mt-1 small">
        <button type="button" className="btn btn-sm btn-primary" onClick={() => void save()} disabled={busy || !text.trim()}>{t('modules:chat.save')}</button>
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={h.onCancelEdit} disabled={busy}>{t('modules:bootbox.cancel')}</button>
        <span className="text-body-secondary align-self-center">{t('modules:chat.edit-help')}</span>
      </div>
    </div>
  );
}

/** One chat message: avatar and name at the start of a group, content, markers and tools. */
export function Message({ m, first, powers, h, editing, raw, highlighted }: {
  m: ChatMessage;
  first: boolean;
  powers: MessagePowers;
  h: MessageHandlers;
  editing: boolean;
  raw: string;
  highlighted: boolean;
}) {
  const { t } = useT();
  const [flagOpen, setFlagOpen] = useState(false);
  if (isSystem(m)) return <SystemLine m={m} />;
  const own = m.fromuid === powers.uid;
  const deleted = isDeleted(m);
  const pinned = isPinned(m);
  const name = m.fromUser?.displayname || m.fromUser?.username || '';
  const canDelete = own || powers.moderator;
  const canPin = powers.owner || powers.moderator;
  return (
    <div
      className={`chat-message d-flex gap-2${first ? ' chat-first' : ''}${own ? ' own' : ''}${deleted ? ' deleted' : ''}${pinned ? ' pinned' : ''}${highlighted ? ' highlight' : ''}`}
      data-mid={m.mid}
      data-index={m.index}
      data-testid="chat-message"
    >
      <div className="chat-avatar flex-shrink-0">{first ? <Avatar user={m.fromUser} size="md" /> : <span className="chat-time-gutter small text-body-secondary"><Timeago ts={m.timestamp} /></span>}</div>
      <div className="flex-grow-1 min-w-0">
        {first && (
          <div className="d-flex align-items-baseline gap-2">
            <span className="fw-semibold chat-author" dir="auto">{name}</span>
            <span className="small text-body-secondary"><Timeago ts={m.timestamp} /></span>
          </div>
        )}
        <Quote m={m} onJump={h.onJump} />
        {editing ? (
          <EditBox m={m} raw={raw} h={h} />
        ) : deleted ? (
          <div className="chat-deleted fst-italic text-body-secondary" data-testid="chat-deleted">{t('modules:chat.message-deleted')}</div>
        ) : (
          <PostContent html={m.content} className="chat-content text-break" />
        )}
        <div className="chat-markers small text-body-secondary">
          {isEdited(m) && !deleted && (
            <span className="chat-edited me-2" data-testid="chat-edited" title={m.editedISO}>
              <Icon name="edit" /> {t('modules:chat.edited')}
            </span>
          )}
          {pinned && (
            <span className="chat-pinned me-2">
              <Icon name="pin" /> {t('modules:chat.pinned')}
            </span>
          )}
        </div>
      </div>
      {!editing && (
        <div className="chat-tools flex-shrink-0">
          <Dropdown align="end">
            <Dropdown.Toggle as="button" type="button" className="btn btn-sm btn-link no-caret text-body-secondary" aria-label={t('modules:chat.message-tools')} data-testid="chat-tools">
              <Icon name="more" />
            </Dropdown.Toggle>
            <Dropdown.Menu className="shadow">
              {!deleted && powers.canReply && <Dropdown.Item as="button" onClick={() => h.onReply(m)}><Icon name="reply" /> {t('modules:chat.reply')}</Dropdown.Item>}
              {!deleted && own && <Dropdown.Item as="button" onClick={() => h.onEdit(m)} data-testid="chat-edit"><Icon name="edit" /> {t('modules:chat.edit')}</Dropdown.Item>}
              {!deleted && <Dropdown.Item as="button" onClick={() => h.onCopy(m)}><Icon name="code" /> {t('modules:chat.copy-text')}</Dropdown.Item>}
              {!deleted && canPin && (
                <Dropdown.Item as="button" onClick={() => h.onPin(m, !pinned)} data-testid="chat-pin"><Icon name="pin" /> {t(pinned ? 'modules:chat.unpin' : 'modules:chat.pin')}</Dropdown.Item>
              )}
              {!deleted && canDelete && <Dropdown.Item as="button" className="text-danger" onClick={() => h.onDelete(m)} data-testid="chat-delete"><Icon name="trash" /> {t('modules:chat.delete')}</Dropdown.Item>}
              {deleted && canDelete && <Dropdown.Item as="button" onClick={() => h.onRestore(m)} data-testid="chat-restore"><Icon name="restore" /> {t('modules:chat.restore')}</Dropdown.Item>}
              {!deleted && !own && <Dropdown.Item as="button" onClick={() => setFlagOpen(true)} data-testid="chat-flag"><Icon name="alert" /> {t('flags:flag-message')}</Dropdown.Item>}
            </Dropdown.Menu>
          </Dropdown>
        </div>
      )}
      {flagOpen && <LazyFlagDialog subject={{ type: 'message', id: m.mid, roomId: Number(m.roomId) }} onClose={() => setFlagOpen(false)} />}
    </div>
  );
}
