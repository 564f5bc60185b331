import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useT, useUser } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { markRoomRead, isVisible } from '../../components/chats/store';
import { errorText, translate } from '../../i18n';
import { CHATS_RECONNECTED, chatLink, receivedMessage } from '../../realtime/chats';
import { editMessage, deleteMessage, olderMessages, pinMessage, rawMessage, restoreMessage, sendMessage } from './actions';
import { Message, type MessageHandlers, type MessagePowers } from './Message';
import { ChatComposer } from './ChatComposer';
import { RoomHeader } from './RoomHeader';
import { chatRows, lastOwnMessage, mergeMessages, patchMessage, typingText } from './messages';
import type { ChatMessage, ChatsPage, ChatUser } from './types';

/** Who is typing in the room: uid → name, each entry dropped after a while without news. */
const TYPING_TTL_MS = 6000;
/** Messages arriving in the open room are marked read together, this long after the first. */
const READ_MARK_DELAY_MS = 500;
/** Scrolling this close to the top loads older messages. */
const LOAD_OLDER_PX = 80;

/**
 * The open room: header, messages (live), composer. The chats page shows it with its header;
 * the floating window (`variant="window"`) brings its own header, focuses the composer, and is
 * closed (`onLeft`) when the member leaves or is removed from the room.
 */
export function Room({ data, variant = 'page', onLeft }: { data: ChatsPage; variant?: 'page' | 'window'; onLeft?: () => void }) {
  const { t, lang } = useT();
  const rt = useRuntime();
  const user = useUser();
  const uid = user?.uid ?? 0;
  const roomId = data.roomId!;
  const [messages, setMessages] = useState<ChatMessage[]>(() => mergeMessages([], data.messages ?? []));
  const [users, setUsers] = useState<ChatUser[]>(data.users ?? []);
  const [roomName, setRoomName] = useState(data.roomName ?? '');
  const [typing, setTypingMap] = useState<Record<number, { name: string; until: number }>>({});
  const [editing, setEditing] = useState<{ mid: number; raw: string } | null>(null);
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  // Known indexes tell whether older messages exist; without them, try once.
  const [hasOlder, setHasOlder] = useState(() => {
    const oldest = data.messages?.[0];
    return oldest ? (oldest.index === undefined ? true : oldest.index > 0) : false;
  });
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [highlight, setHighlight] = useState<number | null>(null);
  // Day separators in UTC for the server render and hydration, then in the reader's zone.
  const [timeZone, setTimeZone] = useState<string | undefined>('UTC');
  useEffect(() => setTimeZone(undefined), []);
  const list = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const keepFromBottom = useRef<number | null>(null);

  const fail = useCallback((err: unknown) => rt.alert({ type: 'danger', title: translate(rt.i18n, 'global:alert.error'), message: errorText(rt.i18n, err) }), [rt]);
  const isOwner = data.isOwner === true || users.some((u) => u.uid === uid && u.isOwner);
  const powers: MessagePowers = { uid, moderator: data.isAdminOrGlobalMod === true, owner: isOwner, canReply: data.canReply !== false };

  // Live: join the room while it is open; read what arrives while the tab is in front.
  useEffect(() => {
    chatLink(rt).enter(roomId);
    if (isVisible()) void markRoomRead(rt, roomId);
    const onVisible = () => isVisible() && void markRoomRead(rt, roomId);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      chatLink(rt).leave(roomId);
    };
  }, [rt, roomId]);

  // One read mark for a burst of messages.
  const readTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const markReadSoon = useCallback(() => {
    if (readTimer.current) return;
    readTimer.current = setTimeout(() => {
      readTimer.current = undefined;
      void markRoomRead(rt, roomId);
    }, READ_MARK_DELAY_MS);
  }, [rt, roomId]);
  useEffect(() => () => clearTimeout(readTimer.current), []);

  useEffect(() => {
    const mine = (d: unknown) => Number((d as { roomId?: unknown } | null)?.roomId) === roomId;
    const offs = [
      rt.live.on(CHATS_RECONNECTED, () => {
        olderMessages(rt.config, roomId, uid, 0).then((fresh) => setMessages((l) => mergeMessages(l, fresh)), () => undefined);
      }),
      rt.live.on('event:chats.receive', (d) => {
        const m = receivedMessage(d);
        if (!m || Number(m.roomId) !== roomId) return;
        setMessages((l) => mergeMessages(l, [m]));
        setTypingMap((s) => {
          if (!s[m.fromuid]) return s;
          const next = { ...s };
          delete next[m.fromuid];
          return next;
        });
        if (m.fromuid !== uid && isVisible()) markReadSoon();
      }),
      rt.live.on('event:chats.edit', (d) => {
        const list = (d as { messages?: ChatMessage[] } | null)?.messages ?? [receivedMessage(d)].filter((m): m is ChatMessage => m !== null);
        for (const m of list) if (Number(m.roomId) === roomId || m.roomId === undefined) setMessages((l) => patchMessage(l, m.mid, m));
      }),
      rt.live.on('event:chats.delete', (d) => {
        const mid = typeof d === 'number' ? d : Number((d as { messageId?: unknown; mid?: unknown } | null)?.messageId ?? (d as { mid?: unknown } | null)?.mid);
        if (mid) setMessages((l) => patchMessage(l, mid, { deleted: 1 }));
      }),
      rt.live.on('event:chats.restore', (d) => {
        const m = receivedMessage(d);
        if (m) setMessages((l) => patchMessage(l, m.mid, { ...m, deleted: 0 }));
      }),
      rt.live.on('event:chats.pin', (d) => {
        const e = d as { mid?: unknown; pinned?: unknown; message?: ChatMessage } | null;
        const mid = Number(e?.mid ?? e?.message?.mid);
        if (mid && mine(d)) setMessages((l) => patchMessage(l, mid, { pinned: e?.pinned === true || e?.pinned === 1 ? 1 : 0 }));
      }),
      // Removed from the room (or left it in another tab): back to the list.
      rt.live.on('event:chats.left', (d) => {
        if (!mine(d)) return;
        if (onLeft) onLeft();
        else rt.navigate(`${rt.config.relative_path}/chats`, { replace: true });
      }),
      rt.live.on('event:chats.roomRename', (d) => {
        if (mine(d)) setRoomName(String((d as { newName?: unknown }).newName ?? ''));
      }),
      rt.live.on('event:chats.typing', (d) => {
        const e = d as { roomId?: unknown; uid?: unknown; username?: unknown; typing?: unknown } | null;
        if (!e || !mine(e) || Number(e.uid) === uid) return;
        const who = Number(e.uid);
        setTypingMap((s) => {
          const next = { ...s };
          if (e.typing === false) delete next[who];
          else next[who] = { name: String(e.username ?? users.find((u) => u.uid === who)?.username ?? ''), until: Date.now() + TYPING_TTL_MS };
          return next;
        });
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [rt, roomId, uid, users, markReadSoon, onLeft]);

  // Typing entries expire (a lost "stopped" event must not leave the line forever).
  useEffect(() => {
    if (!Object.keys(typing).length) return;
    const timer = setInterval(() => {
      const now = Date.now();
      setTypingMap((s) => {
        const next = Object.fromEntries(Object.entries(s).filter(([, v]) => v.until > now));
        return Object.keys(next).length === Object.keys(s).length ? s : next;
      });
    }, 1000);
    return () => clearInterval(timer);
  }, [typing]);

  // Scrolling: follow new messages when at the bottom; keep the view still when older ones load.
  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    if (keepFromBottom.current !== null) {
      el.scrollTop = el.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    } else if (stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages]);

  const jump = useCallback((mid: number) => {
    const el = list.current?.querySelector<HTMLElement>(`[data-mid="${mid}"]`);
    if (!el) return;
    el.scrollIntoView({ block: 'center' });
    setHighlight(mid);
    setTimeout(() => setHighlight((h) => (h === mid ? null : h)), 2500);
  }, []);

  // /chats/:roomid/:index opens at that message.
  useEffect(() => {
    const index = data.scrollToIndex;
    if (index === undefined || index === null) return;
    const m = messages.find((x) => x.index === index);
    if (m) {
      stickToBottom.current = false;
      jump(m.mid);
    }
    // Once, on open.
  }, []);

  const loadOlder = async () => {
    if (loadingOlder || !hasOlder) return;
    setLoadingOlder(true);
    try {
      // NodeBB counts `start` back from the newest message: skip those newer than the oldest shown.
      const oldest = messages[0]?.index;
      const count = Math.max(data.messageCount ?? 0, ...messages.map((m) => (m.index ?? -1) + 1));
      const start = oldest === undefined ? messages.length : Math.max(0, count - oldest);
      const older = await olderMessages(rt.config, roomId, uid, start);
      const fresh = older.filter((m) => !messages.some((x) => x.mid === m.mid));
      if (!fresh.length) setHasOlder(false);
      else {
        const el = list.current;
        if (el) keepFromBottom.current = el.scrollHeight - el.scrollTop;
        setMessages((l) => mergeMessages(l, fresh));
        if (fresh[0]?.index === 0) setHasOlder(false);
      }
    } catch (err) {
      fail(err);
    } finally {
      setLoadingOlder(false);
    }
  };
  const onScroll = () => {
    const el = list.current;
    if (!el) return;
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    if (el.scrollTop < LOAD_OLDER_PX) void loadOlder();
  };

  const send = async (text: string, toMid?: number) => {
    const m = await sendMessage(rt.config, roomId, text, toMid);
    stickToBottom.current = true;
    // Writing in a public room makes the reader a member: follow it live from now on.
    if (data.public) chatLink(rt).enter(roomId);
    // The live echo of the same message merges into it (same mid).
    if (m && typeof m.mid === 'number') setMessages((l) => mergeMessages(l, [{ ...m, roomId }]));
    setReplyTo(null);
  };

  const startEdit = async (m: ChatMessage) => {
    try {
      const raw = await rawMessage(rt.config, roomId, m.mid);
      setEditing({ mid: m.mid, raw });
    } catch (err) {
      fail(err);
    }
  };
  const handlers: MessageHandlers = {
    onReply: (m) => setReplyTo(m),
    onEdit: (m) => void startEdit(m),
    async onSaveEdit(m, text) {
      try {
        const next = await editMessage(rt.config, roomId, m.mid, text);
        setMessages((l) => patchMessage(l, m.mid, next && typeof next === 'object' ? next : { edited: Date.now() }));
        setEditing(null);
        return true;
      } catch (err) {
        fail(err);
        return false;
      }
    },
    onCancelEdit: () => setEditing(null),
    onDelete(m) {
      if (!window.confirm(t('modules:chat.delete_message_confirm'))) return;
      deleteMessage(rt.config, roomId, m.mid).then(() => setMessages((l) => patchMessage(l, m.mid, { deleted: 1 })), fail);
    },
    onRestore(m) {
      restoreMessage(rt.config, roomId, m.mid).then(() => setMessages((l) => patchMessage(l, m.mid, { deleted: 0 })), fail);
    },
    onPin(m, pin) {
      pinMessage(rt.config, roomId, m.mid, pin).then(() => setMessages((l) => patchMessage(l, m.mid, { pinned: pin ? 1 : 0 })), fail);
    },
    onCopy(m) {
      rawMessage(rt.config, roomId, m.mid)
        .then((raw) => navigator.clipboard.writeText(raw))
        .then(() => rt.alert({ type: 'success', message: t('modules:chat.copied'), timeout: 2000 }), fail);
    },
    onJump: jump,
  };

  const rows = useMemo(() => chatRows(messages, timeZone), [messages, timeZone]);
  const dayFormat = useMemo(() => new Intl.DateTimeFormat(lang, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone }), [lang, timeZone]);
  const typingNames = Object.values(typing).map((v) => v.name).filter(Boolean);

  return (
    <div className="chat-room d-flex flex-column h-100" data-roomid={roomId} data-testid={variant === 'window' ? 'chat-window-room' : 'chat-room-view'}>
      {variant === 'page' && <RoomHeader data={data} roomId={roomId} roomName={roomName} users={users} isOwner={isOwner} onRenamed={setRoomName} onUsers={setUsers} onJump={jump} />}
      <div className="chat-messages flex-grow-1 px-2 px-md-3" ref={list} onScroll={onScroll} data-testid="chat-messages" aria-live="polite">
        {hasOlder && messages.length > 0 && (
          <div className="text-center my-2">
            <button type="button" className="btn btn-sm btn-link" onClick={() => void loadOlder()} disabled={loadingOlder} data-testid="chat-load-older">
              {loadingOlder ? t('global:loading') : t('modules:chat.load-older')}
            </button>
          </div>
        )}
        {!messages.length && <div className="text-center text-body-secondary my-5 small">{t('modules:chat.no-messages-yet')}</div>}
        {rows.map((r) =>
          r.kind === 'day' ? (
            <div key={r.key} className="chat-day text-center small text-body-secondary my-3" role="separator" data-testid="chat-day">
              <span>{dayFormat.format(new Date(r.timestamp))}</span>
            </div>
          ) : (
            <Message
              key={r.key}
              m={r.message}
              first={r.first}
              powers={powers}
              h={handlers}
              editing={editing?.mid === r.message.mid}
              raw={editing?.mid === r.message.mid ? editing.raw : ''}
              highlighted={highlight === r.message.mid}
            />
          ),
        )}
      </div>
      <div className="chat-typing small text-body-secondary px-3" data-testid="chat-typing" aria-live="polite">
        {typingText(typingNames, t)}
      </div>
      {data.canReply === false ? (
        <div className="border-top p-3 small text-body-secondary text-center">{t('modules:chat.cannot-reply')}</div>
      ) : (
        <ChatComposer
          roomId={roomId}
          autoFocus={variant === 'window'}
          maxLength={data.maximumChatMessageLength}
          replyTo={replyTo}
          onCancelReply={() => setReplyTo(null)}
          onSend={send}
          onEditLast={() => {
            const m = lastOwnMessage(messages, uid);
            if (m) void startEdit(m);
            return m !== null;
          }}
        />
      )}
    </div>
  );
}
