import { useEffect, useId, useState } from 'react';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import type { TopicRef } from './common';

/**
 * Finds topics by title (GET /api/v3/topic-tools/topics: those the viewer moderates) and lets
 * the moderator pick one; `exclude` leaves the current topic out.
 */
export function TopicPicker({ label, exclude, onPick, picked }: { label: string; exclude?: number; onPick: (t: TopicRef) => void; picked?: TopicRef[] }) {
  const rt = useRuntime();
  const { t } = useT();
  const id = useId();
  const [term, setTerm] = useState('');
  const [found, setFound] = useState<TopicRef[] | null>(null);
  useEffect(() => {
    if (!term.trim()) return setFound(null);
    let live = true;
    const timer = setTimeout(() => {
      const q = new URLSearchParams({ term: term.trim(), ...(exclude ? { exclude: String(exclude) } : {}) });
      void api<{ topics: TopicRef[] }>(rt.config, 'GET', `/topic-tools/topics?${q}`)
        .then((r) => live && setFound(r.topics))
        .catch(() => live && setFound([]));
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [term, exclude, rt]);
  const chosen = new Set((picked ?? []).map((p) => p.tid));
  return (
    <div className="topic-picker">
      <label htmlFor={id} className="form-label">{label}</label>
      <input id={id} type="search" className="form-control" value={term} onChange={(e) => setTerm(e.target.value)} autoComplete="off" data-testid="topic-picker-input" />
      {found && (
        <ul className="list-group mt-2 topic-picker-results" aria-live="polite">
          {found.length === 0 && <li className="list-group-item text-body-secondary">{t('topic:tools.no-results')}</li>}
          {found.map((topic) => (
            <li key={topic.tid} className="list-group-item p-0">
              <button type="button" className={`btn btn-link w-100 text-start text-decoration-none${chosen.has(topic.tid) ? ' active' : ''}`} aria-pressed={chosen.has(topic.tid)} onClick={() => onPick(topic)}>
                {topic.title} <span className="text-body-secondary small">#{topic.tid}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
