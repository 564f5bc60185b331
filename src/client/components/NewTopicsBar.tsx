import { useEffect, useState } from 'react';
import type { TopicSummary } from '../../shared/types';
import { useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';

/**
 * Topic lists (category, recent, unread): new topics announced by the live layer
 * (event:new_topic) that the list does not show yet are counted in a bar above the list;
 * clicking it reloads the list in place (an in-page navigation to the same URL).
 */
export function NewTopicsBar({ shown, cid, skipOwn = false }: { shown: readonly { tid: number }[]; cid?: number; skipOwn?: boolean }) {
  const rt = useRuntime();
  const user = useUser();
  const { t } = useT();
  const [fresh, setFresh] = useState<number[]>([]);
  const shownKey = shown.map((s) => s.tid).join(',');
  useEffect(() => {
    const present = new Set(shownKey ? shownKey.split(',').map(Number) : []);
    return rt.live.on('event:new_topic', (data) => {
      const topic = data as Partial<TopicSummary> | null;
      const tid = Number(topic?.tid);
      if (!tid || present.has(tid)) return;
      if (cid !== undefined && Number(topic?.cid) !== cid) return;
      if (skipOwn && user && Number(topic?.uid) === user.uid) return;
      setFresh((list) => (list.includes(tid) ? list : [...list, tid]));
    });
  }, [rt, shownKey, cid, skipOwn, user?.uid]);
  if (!fresh.length) return null;
  const label = fresh.length === 1 ? t('recent:there-is-a-new-topic') : t('recent:there-are-new-topics', String(fresh.length));
  return (
    <div className="new-topics-bar mb-2">
      <button type="button" className="btn btn-outline-primary btn-sm w-100" onClick={() => rt.navigate(location.href, { replace: true, force: true })}>
        {label}
      </button>
    </div>
  );
}
