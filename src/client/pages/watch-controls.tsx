import { useState } from 'react';
import { useT, useUser } from '../app/hooks';
import { api } from '../app/api';
import { useRuntime } from '../app/runtime';
import { errorText } from '../i18n';

const STATES = ['watching', 'tracking', 'notwatching', 'ignoring'] as const;
type WatchState = (typeof STATES)[number];

/** The state a category page's four flags describe. */
function stateOf(p: { isWatched: boolean; isTracked: boolean; isNotWatched: boolean; isIgnored: boolean }): WatchState {
  return p.isIgnored ? 'ignoring' : p.isNotWatched ? 'notwatching' : p.isTracked ? 'tracking' : 'watching';
}

/** Runs a write, reporting a refusal as an alert; true when it succeeded. */
function useWrite() {
  const rt = useRuntime();
  return async (method: 'PUT' | 'DELETE', path: string, body?: unknown): Promise<boolean> => {
    try {
      await api(rt.config, method, path, body ?? {});
      return true;
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
      return false;
    }
  };
}

/** The category page's watch menu (members only): watching, tracking, not watching, ignoring. */
export function CategoryWatchMenu({ cid, flags }: { cid: number; flags: Parameters<typeof stateOf>[0] }) {
  const { t } = useT();
  const user = useUser();
  const write = useWrite();
  const [state, setState] = useState<WatchState>(stateOf(flags));
  if (!user) return null;
  const choose = async (next: WatchState) => {
    if (await write('PUT', `/categories/${cid}/watch`, { state: next })) setState(next);
  };
  return (
    <label className="d-inline-flex align-items-center gap-2 small">
      <span className="visually-hidden">{t('category:watch-state')}</span>
      <select className="form-select form-select-sm w-auto" value={state} onChange={(e) => void choose(e.target.value as WatchState)} data-testid="category-watch">
        {STATES.map((s) => (
          <option key={s} value={s}>{t(`category:${s}`)}</option>
        ))}
      </select>
    </label>
  );
}

type TopicWatch = 'watching' | 'notwatching' | 'ignoring';

/**
 * The topic page's watch menu (members only, NodeBB's topic watch dropdown): watching (notified
 * of replies), not watching, ignoring (left out of unread). Each choice is one write.
 */
export function TopicWatchMenu({ tid, following, ignoring }: { tid: number; following: boolean; ignoring: boolean }) {
  const { t } = useT();
  const user = useUser();
  const write = useWrite();
  const [state, setState] = useState<TopicWatch>(ignoring ? 'ignoring' : following ? 'watching' : 'notwatching');
  if (!user) return null;
  const choose = async (next: TopicWatch) => {
    const base = `/topics/${tid}`;
    const ok = next === 'watching' ? await write('PUT', `${base}/follow`) : next === 'ignoring' ? await write('PUT', `${base}/ignore`) : await write('DELETE', `${base}/${state === 'ignoring' ? 'ignore' : 'follow'}`);
    if (ok) setState(next);
  };
  return (
    <label className="d-inline-flex align-items-center gap-2 small">
      <span className="visually-hidden">{t('category:watch-state')}</span>
      <select className="form-select form-select-sm w-auto" value={state} onChange={(e) => void choose(e.target.value as TopicWatch)} data-testid="topic-watch">
        {(['watching', 'notwatching', 'ignoring'] as const).map((s) => (
          <option key={s} value={s}>{t(`category:${s}`)}</option>
        ))}
      </select>
    </label>
  );
}

/** A follow / unfollow toggle for a tag or a member (members only; not on one's own profile). */
export function FollowButton({ path, following, labels }: { path: string; following: boolean; labels: [string, string] }) {
  const { t } = useT();
  const user = useUser();
  const write = useWrite();
  const [on, setOn] = useState(following);
  if (!user) return null;
  const toggle = async () => {
    if (await write(on ? 'DELETE' : 'PUT', path)) setOn(!on);
  };
  return (
    <button type="button" className={`btn btn-sm ${on ? 'btn-outline-secondary' : 'btn-primary'}`} aria-pressed={on} onClick={() => void toggle()} data-testid="follow-button">
      {t(on ? labels[1] : labels[0])}
    </button>
  );
}

/**
 * The topic page's read toggle (members only, NodeBB's "mark unread" topic tool): reading the
 * topic marked it read, so it offers "Mark unread" (the topic goes back to /unread) and then
 * "Mark read" again. Each is one write (`DELETE` / `PUT /api/v3/topics/{tid}/read`).
 */
export function TopicReadButton({ tid }: { tid: number }) {
  const { t } = useT();
  const rt = useRuntime();
  const user = useUser();
  const write = useWrite();
  const [read, setRead] = useState(true);
  if (!user) return null;
  const toggle = async () => {
    if (!(await write(read ? 'DELETE' : 'PUT', `/topics/${tid}/read`))) return;
    rt.alert({ type: 'success', message: t(read ? 'topic:tools.marked-unread' : 'topic:tools.marked-read'), timeout: 3000 });
    setRead(!read);
  };
  return (
    <button type="button" className="btn btn-sm btn-light border" onClick={() => void toggle()} data-testid="topic-read-toggle">
      {t(read ? 'topic:tools.mark-unread' : 'topic:tools.mark-read')}
    </button>
  );
}
