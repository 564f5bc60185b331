import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { applyEdit, caretOffset } from './text-edit';
import type { AnyAutocompleteStrategy, AutocompleteStrategy } from './types';

interface Active {
  strategy: AutocompleteStrategy;
  /** Where the trigger starts and where the caret is. */
  start: number;
  end: number;
  items: unknown[];
  index: number;
  pos: { top: number; left: number };
}

const SEARCH_DELAY_MS = 120;

/**
 * A textarea autocomplete (mentions, emoji, chat): call `check()` on input and caret moves,
 * hand key presses to `onKeyDown` first (true: it used the key), and render `menu` inside a
 * `position: relative` wrapper of the textarea. Arrow keys move, Enter or Tab pick, Escape closes.
 */
export function useTextareaAutocomplete(ref: RefObject<HTMLTextAreaElement | null>, strategies: readonly AnyAutocompleteStrategy[]) {
  const [active, setActive] = useState<Active | null>(null);
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const listId = useId();
  const list = strategies as unknown as AutocompleteStrategy[];

  const close = useCallback(() => {
    seq.current += 1;
    clearTimeout(timer.current);
    setActive(null);
  }, []);

  const check = useCallback(() => {
    const el = ref.current;
    if (!el || el.selectionStart !== el.selectionEnd) return close();
    const end = el.selectionStart;
    const before = el.value.slice(Math.max(0, end - 100), end);
    for (const strategy of list) {
      const m = strategy.match.exec(before);
      if (!m) continue;
      const term = m[m.length - 1] ?? '';
      // The trigger starts where the term's trigger character is (the match may include a leading space).
      const start = end - term.length - 1;
      const n = ++seq.current;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        strategy.search(term).then(
          (items) => {
            if (n !== seq.current) return;
            if (!items.length) return setActive(null);
            const c = caretOffset(el, start);
            setActive({ strategy, start, end, items, index: 0, pos: { top: el.offsetTop + c.top + c.height, left: el.offsetLeft + Math.min(c.left, el.clientWidth - 200) } });
          },
          () => n === seq.current && setActive(null),
        );
      }, SEARCH_DELAY_MS);
      return;
    }
    close();
  }, [ref, list, close]);

  const pick = useCallback(
    (i: number) => {
      const el = ref.current;
      if (!el || !active) return;
      const text = active.strategy.replace(active.items[i]);
      close();
      applyEdit(el, { start: active.start, end: active.end, text, selStart: active.start + text.length, selEnd: active.start + text.length });
    },
    [ref, active, close],
  );

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
      if (!active) return false;
      const n = active.items.length;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        const index = (active.index + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
        setActive({ ...active, index });
      } else if (e.key === 'Enter' || e.key === 'Tab') {
        pick(active.index);
      } else if (e.key === 'Escape') {
        close();
      } else {
        return false;
      }
      e.preventDefault();
      e.stopPropagation();
      return true;
    },
    [active, pick, close],
  );

  useEffect(() => () => clearTimeout(timer.current), []);

  const menu = active ? (
    <ul className="dropdown-menu show autocomplete-menu shadow" role="listbox" id={listId} style={{ top: active.pos.top, left: Math.max(0, active.pos.left) }} data-strategy={active.strategy.id}>
      {active.items.map((item, i) => (
        <li key={active.strategy.key(item)} role="option" aria-selected={i === active.index}>
          <button
            type="button"
            className={`dropdown-item d-flex align-items-center gap-2${i === active.index ? ' active' : ''}`}
            tabIndex={-1}
            onMouseDown={(e) => {
              e.preventDefault();
              pick(i);
            }}
          >
            {active.strategy.render(item)}
          </button>
        </li>
      ))}
    </ul>
  ) : null;

  return { check, onKeyDown, close, menu, open: !!active, listId };
}
