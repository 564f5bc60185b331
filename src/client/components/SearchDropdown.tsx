import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import Dropdown, { toggleId } from './Dropdown';
import type { SearchPage } from '../../shared/types';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { Icon } from './Icon';

/** Wait after the last key before asking the server (a fast typist makes one request). */
const DEBOUNCE_MS = 250;
const QUICK_RESULTS = 5;
const FIXED = { strategy: 'fixed' as const };

type Quick = { term: string; posts: SearchPage['posts']; matchCount: number } | null;

/**
 * The search box in a dropdown: results appear while typing (debounced; a newer request
 * cancels the one before), and submitting opens the full search page.
 */
export function SearchDropdown({ drop = 'end', showLabel = false, onToggle }: { drop?: 'end' | 'up'; showLabel?: boolean; onToggle?: (open: boolean) => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const id = useId();
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const [quick, setQuick] = useState<Quick>(null);
  const [busy, setBusy] = useState(false);
  const inFlight = useRef<AbortController | null>(null);
  const where = rt.config.searchDefaultInQuick || 'titles';
  const base = rt.config.relative_path;

  useEffect(() => {
    const q = term.trim();
    inFlight.current?.abort();
    if (q.length < 2) {
      setQuick(null);
      setBusy(false);
      return;
    }
    const ctrl = new AbortController();
    inFlight.current = ctrl;
    setBusy(true);
    const timer = setTimeout(() => {
      fetch(`${base}/api/search?term=${encodeURIComponent(q)}&in=${encodeURIComponent(where)}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal: ctrl.signal })
        .then(async (res) => (res.ok ? ((await res.json()) as SearchPage) : null))
        .then((data) => {
          if (ctrl.signal.aborted) return;
          setQuick(data ? { term: q, posts: (data.posts ?? []).slice(0, QUICK_RESULTS), matchCount: data.matchCount ?? 0 } : null);
          setBusy(false);
        })
        .catch(() => {
          if (!ctrl.signal.aborted) setBusy(false);
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [term, where, base]);

  const fullSearch = `${base}/search?term=${encodeURIComponent(term.trim())}&in=${encodeURIComponent(where === 'titles' ? 'titlesposts' : where)}`;
  const close = () => {
    setOpen(false);
    onToggle?.(false);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!term.trim()) return;
    close();
    rt.navigate(fullSearch);
  };
  const go = (e: React.MouseEvent<HTMLAnchorElement>, href: string) => {
    e.preventDefault();
    close();
    rt.navigate(href);
  };
  return (
    <Dropdown drop={drop} show={open} onToggle={(next) => { setOpen(next); onToggle?.(next); }} className="nav-dropdown" autoClose="outside">
      <Dropdown.Toggle as="button" type="button" id={toggleId('search', drop)} className="btn nav-btn no-caret" aria-label={t('global:search')} title={t('global:search')}>
        <Icon name="search" />
        {showLabel && <span className="nav-label">{t('global:search')}</span>}
      </Dropdown.Toggle>
      {/* Fixed in the sidebar, which clips what overflows it (overflow-x: hidden). */}
      <Dropdown.Menu className="p-2 shadow search-menu" popperConfig={drop === 'end' ? FIXED : undefined}>
        <form role="search" onSubmit={submit} className="d-flex gap-2">
          <label htmlFor={id} className="visually-hidden">{t('global:search')}</label>
          <input id={id} type="search" className="form-control" placeholder={t('search:type-to-search')} value={term} onChange={(e) => setTerm(e.target.value)} autoFocus aria-controls={`${id}-quick`} autoComplete="off" />
          <button type="submit" className="btn btn-primary" aria-label={t('global:search')}>
            <Icon name="search" size={16} />
          </button>
        </form>
        <div id={`${id}-quick`} className="quick-search-results" aria-live="polite">
          {busy && !quick && <div className="small text-body-secondary px-1 pt-2">{t('search:searching')}</div>}
          {quick && (
            <>
              {quick.posts.length ? (
                <ul className="list-unstyled mb-0 mt-2">
                  {quick.posts.map((p) => {
                    const href = `${base}/post/${p.pid}`;
                    return (
                      <li key={p.pid}>
                        <a href={href} onClick={(e) => go(e, href)} className="dropdown-item rounded px-2 py-1 text-wrap">
                          <span className="d-block fw-semibold small text-truncate" dir="auto" dangerouslySetInnerHTML={{ __html: p.topic.title }} />
                          <span className="d-block small text-body-secondary quick-snippet" dir="auto" dangerouslySetInnerHTML={{ __html: p.snippet }} />
                        </a>
                      </li>
                    );
                  })}
                </ul>
              ) : (
                <div className="small text-body-secondary px-1 pt-2">{t('search:no-matches')}</div>
              )}
              {quick.matchCount > 0 && (
                <a href={fullSearch} onClick={(e) => go(e, fullSearch)} className="btn btn-sm btn-link w-100 mt-1">
                  {t('search:see-all-results')} ({quick.matchCount})
                </a>
              )}
            </>
          )}
        </div>
      </Dropdown.Menu>
    </Dropdown>
  );
}
