import { useEffect, useState, type FormEvent } from 'react';
import { useT, useUser } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { Timeago } from '../../components/Timeago';
import { errorText, translate } from '../../i18n';
import { addUsers, pinnedMessages, removeUser, roomUsers, searchMessages, setOwner } from './actions';
import { teaserText } from './messages';
import type { ChatMessage, ChatUser } from './types';
import { UserPicker } from './UserPicker';

function useFail() {
  const rt = useRuntime();
  return (err: unknown) => rt.alert({ type: 'danger', title: translate(rt.i18n, 'global:alert.error'), message: errorText(rt.i18n, err) });
}

/** Members of the room; owners add, remove and promote; everyone may leave. */
export function MembersPanel({ roomId, users, isOwner, onUsers }: { roomId: number; users: ChatUser[]; isOwner: boolean; onUsers: (u: ChatUser[]) => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const uid = useUser()?.uid ?? 0;
  const fail = useFail();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    roomUsers(rt.config, roomId).then((list) => list.length && onUsers(list), fail);
  }, [roomId]);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  const reload = async () => onUsers(await roomUsers(rt.config, roomId));
  const leave = () => {
    if (!window.confirm(t('modules:chat.leave-prompt'))) return;
    void run(async () => {
      await removeUser(rt.config, roomId, uid);
      rt.navigate(`${rt.config.relative_path}/chats`);
    });
  };
  return (
    <div data-testid="chat-members">
      {isOwner && (
        <div className="mb-3">
          <div className="fw-semibold small mb-1">{t('modules:chat.add-user')}</div>
          <UserPicker label={t('modules:chat.add-user')} exclude={users.map((u) => u.uid)} onPick={(u) => void run(async () => onUsers(await addUsers(rt.config, roomId, [u.uid]).then((l) => (l.length ? l : roomUsers(rt.config, roomId)))))} />
        </div>
      )}
      <ul className="list-unstyled mb-3">
        {users.map((u) => {
          const self = u.uid === uid;
          return (
            <li key={u.uid} className="d-flex align-items-center gap-2 py-1" data-testid="chat-member">
              <Avatar user={u} size="sm" />
              <a className="text-truncate flex-grow-1 text-reset" href={`${rt.config.relative_path}/user/${encodeURIComponent(u.userslug ?? u.username)}`}>{u.displayname || u.username}</a>
              {u.isOwner && <span className="badge text-bg-warning" title={t('modules:chat.owner')}>{t('modules:chat.owner')}</span>}
              {isOwner && !self && (u.canToggleOwner ?? true) && (
                <button type="button" className="btn btn-sm btn-link p-0" disabled={busy} onClick={() => void run(async () => { await setOwner(rt.config, roomId, u.uid, !u.isOwner); await reload(); })} title={t('modules:chat.grant-rescind-ownership')} aria-label={t('modules:chat.grant-rescind-ownership')}>
                  <Icon name="award" />
                </button>
              )}
              {isOwner && !self && (u.canKick ?? true) && (
                <button type="button" className="btn btn-sm btn-link text-danger p-0" disabled={busy} onClick={() => void run(async () => { await removeUser(rt.config, roomId, u.uid); await reload(); })} title={t('modules:chat.kick')} aria-label={`${t('modules:chat.kick')} ${u.username}`} data-testid="chat-kick">
                  <Icon name="x" />
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <button type="button" className="btn btn-sm btn-outline-danger" onClick={leave} disabled={busy} data-testid="chat-leave">
        <Icon name="logout" /> {t('modules:chat.leave-room')}
      </button>
      <p className="small text-body-secondary mt-2">{t('modules:chat.leave-help')}</p>
    </div>
  );
}

/** A found or pinned message as a small card; a click shows it in the room. */
function MessageCard({ m, onJump }: { m: ChatMessage; onJump: (mid: number, index?: number) => void }) {
  return (
    <button type="button" className="list-group-item list-group-item-action text-start" onClick={() => onJump(m.mid, m.index)} data-testid="chat-found">
      <div className="d-flex align-items-center gap-2 small">
        <Avatar user={m.fromUser} size="xs" />
        <span className="fw-semibold" dir="auto">{m.fromUser?.displayname || m.fromUser?.username}</span>
        <span className="text-body-secondary ms-auto"><Timeago ts={m.timestamp} /></span>
      </div>
      <div className="small text-break mt-1" dir="auto">{teaserText(m.content, 300)}</div>
    </button>
  );
}

/** Jumps to a message in the room, or opens the room at its index when it is not loaded. */
function useJump(roomId: number, onJump: (mid: number) => void) {
  const rt = useRuntime();
  return (mid: number, index?: number) => {
    if (document.querySelector(`.chat-messages [data-mid="${mid}"]`) || index === undefined) onJump(mid);
    // The path's index is 1-based (NodeBB), the message's 0-based.
    else rt.navigate(`${rt.config.relative_path}/chats/${roomId}/${index + 1}`);
  };
}

/** The room's pinned messages. */
export function PinnedPanel({ roomId, onJump }: { roomId: number; onJump: (mid: number) => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const fail = useFail();
  const jump = useJump(roomId, onJump);
  const [list, setList] = useState<ChatMessage[] | null>(null);
  useEffect(() => {
    pinnedMessages(rt.config, roomId).then(setList, (err: unknown) => {
      setList([]);
      fail(err);
    });
  }, [roomId]);
  if (list === null) return <div className="small text-body-secondary">{t('global:loading')}</div>;
  if (!list.length) return <div className="small text-body-secondary" data-testid="chat-pinned-empty">{t('modules:chat.no-pinned-messages')}</div>;
  return <div className="list-group" data-testid="chat-pinned">{list.map((m) => <MessageCard key={m.mid} m={m} onJump={jump} />)}</div>;
}

/** Search of the room's messages. */
export function SearchPanel({ roomId, onJump }: { roomId: number; onJump: (mid: number) => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const fail = useFail();
  const jump = useJump(roomId, onJump);
  const [query, setQuery] = useState('');
  const [list, setList] = useState<ChatMessage[] | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!query.trim()) return;
    setBusy(true);
    try {
      setList(await searchMessages(rt.config, roomId, query.trim()));
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <form className="d-flex gap-2 mb-3" role="search" onSubmit={(e) => void submit(e)}>
        <input type="search" className="form-control" value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t('modules:chat.search-placeholder')} aria-label={t('modules:chat.message-search')} autoFocus data-testid="chat-search-input" />
        <button type="submit" className="btn btn-primary" disabled={busy} aria-label={t('modules:chat.message-search')}><Icon name="search" /></button>
      </form>
      {list && !list.length && <div className="small text-body-secondary">{t('modules:chat.no-results')}</div>}
      {list && list.length > 0 && <div className="list-group" data-testid="chat-search-results">{list.map((m) => <MessageCard key={m.mid} m={m} onJump={jump} />)}</div>}
    </div>
  );
}
