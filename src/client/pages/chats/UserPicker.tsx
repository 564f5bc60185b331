import { useEffect, useState } from 'react';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Avatar } from '../../components/Avatar';
import { searchUsers } from './actions';
import type { ChatUser } from './types';

/** A member search box with results to pick from (new chat, add member). */
export function UserPicker({ onPick, exclude, label }: { onPick: (u: ChatUser) => void; exclude: number[]; label: string }) {
  const { t } = useT();
  const rt = useRuntime();
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<ChatUser[] | null>(null);
  const excludeKey = exclude.join(',');
  useEffect(() => {
    if (!query.trim()) {
      setResults(null);
      return;
    }
    let live = true;
    // Debounced: one search after the typing pauses.
    const timer = setTimeout(() => {
      searchUsers(rt, query, exclude)
        .then((users) => live && setResults(users))
        .catch(() => live && setResults([]));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, excludeKey]);
  return (
    <div className="chat-user-picker">
      <input type="search" className="form-control" value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t('modules:chat.search-users')} aria-label={label} autoFocus data-testid="chat-user-search" />
      {results && (
        <div className="list-group mt-2" role="listbox" aria-label={label}>
          {results.length === 0 && <div className="list-group-item small text-body-secondary">{t('modules:chat.no-users-found')}</div>}
          {results.map((u) => (
            <button
              type="button"
              role="option"
              aria-selected={false}
              key={u.uid}
              className="list-group-item list-group-item-action d-flex align-items-center gap-2"
              onClick={() => {
                onPick(u);
                setQuery('');
              }}
              data-testid="chat-user-result"
            >
              <Avatar user={u} size="sm" />
              <span className="text-truncate">{u.displayname || u.username}</span>
              {u.displayname && u.displayname !== u.username && <span className="small text-body-secondary">@{u.username}</span>}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
