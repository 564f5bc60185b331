import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import type { EmojiEntry } from '../../../shared/emoji';
import { searchEmoji } from '../../../shared/emoji';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { applyEdit } from '../autocomplete';
import { Icon } from '../Icon';
import { loadEmojiTable } from './emoji-table';
import { formatEdit, type FormatId } from './formatting';

interface Button {
  id: FormatId;
  /** An icon of the sprite, or a text glyph. */
  icon?: string;
  glyph?: string;
  glyphClass?: string;
  shortcut?: string;
}

const BUTTONS: Button[] = [
  { id: 'bold', glyph: 'B', glyphClass: 'fw-bold', shortcut: 'B' },
  { id: 'italic', glyph: 'I', glyphClass: 'fst-italic', shortcut: 'I' },
  { id: 'strike', glyph: 'S', glyphClass: 'text-decoration-line-through', shortcut: 'Shift+X' },
  { id: 'heading', glyph: 'H', glyphClass: 'fw-semibold' },
  { id: 'link', icon: 'link', shortcut: 'K' },
  { id: 'image', icon: 'fmt-image' },
  { id: 'code', icon: 'code', shortcut: 'E' },
  { id: 'quote', icon: 'quote', shortcut: 'Shift+>' },
  { id: 'list', icon: 'fmt-list' },
  { id: 'olist', icon: 'fmt-olist' },
  { id: 'spoiler', icon: 'fmt-spoiler' },
];

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Applies a format to the textarea's selection (undo kept: see applyEdit). */
export function applyFormat(el: HTMLTextAreaElement, id: FormatId, placeholder: string): void {
  applyEdit(el, formatEdit(el.value, el.selectionStart, el.selectionEnd, id, placeholder));
}

/** Inserts text at the caret (replacing the selection). */
export function insertAtCaret(el: HTMLTextAreaElement, text: string): void {
  const { selectionStart: start, selectionEnd: end } = el;
  applyEdit(el, { start, end, text, selStart: start + text.length, selEnd: start + text.length });
}

/** The formatting toolbar (spec §2 "formatting"): buttons over the textarea, plus the emoji picker. */
export function Toolbar({ target, children }: { target: RefObject<HTMLTextAreaElement | null>; children?: React.ReactNode }) {
  const { t } = useT();
  const mod = isMac() ? '⌘' : 'Ctrl+';
  return (
    <div className="composer-toolbar d-flex align-items-center gap-1" role="toolbar" aria-label={t('modules:composer.formatting')}>
      <div className="d-flex flex-nowrap overflow-x-auto gap-1 composer-format-buttons">
        {BUTTONS.map((b) => {
          const label = t(`modules:composer.format-${b.id}`) + (b.shortcut ? ` (${mod}${b.shortcut})` : '');
          return (
            <button
              key={b.id}
              type="button"
              className="btn btn-sm btn-link text-reset px-2"
              title={label}
              aria-label={label}
              data-format={b.id}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => target.current && applyFormat(target.current, b.id, t('modules:composer.format-placeholder'))}
            >
              {b.icon ? (
                <Icon name={b.icon} size={16} />
              ) : (
                <span className={`composer-glyph ${b.glyphClass ?? ''}`} aria-hidden="true">
                  {b.glyph}
                </span>
              )}
            </button>
          );
        })}
      </div>
      <EmojiPicker target={target} />
      {children}
    </div>
  );
}

/** The emoji picker: a searchable grid; a pick inserts `:shortcode:` at the caret. */
function EmojiPicker({ target }: { target: RefObject<HTMLTextAreaElement | null> }) {
  const rt = useRuntime();
  const { t } = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [entries, setEntries] = useState<EmojiEntry[] | null>(null);
  const [query, setQuery] = useState('');
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open || entries) return;
    loadEmojiTable(rt.config.relative_path).then(setEntries, (err: unknown) => {
      setOpen(false);
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    });
  }, [open, entries, rt]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!panel.current?.parentElement?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);
  const shown = entries ? searchEmoji(entries, query.trim(), 120) : [];
  const pick = (e: EmojiEntry) => {
    setOpen(false);
    if (target.current) insertAtCaret(target.current, `:${e.s[0]}: `);
  };
  return (
    <div className="position-relative">
      <button
        type="button"
        className="btn btn-sm btn-link text-reset px-2"
        title={t('modules:composer.emoji')}
        aria-label={t('modules:composer.emoji')}
        aria-expanded={open}
        aria-controls={id}
        data-format="emoji"
        onClick={() => setOpen(!open)}
      >
        <Icon name="emoji" size={16} />
      </button>
      {open && (
        <div ref={panel} id={id} className="dropdown-menu show p-2 emoji-picker shadow" role="dialog" aria-label={t('modules:composer.emoji')}>
          <input
            type="search"
            className="form-control form-control-sm mb-2"
            placeholder={t('modules:composer.emoji-search')}
            aria-label={t('modules:composer.emoji-search')}
            value={query}
            autoFocus
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                setOpen(false);
                target.current?.focus();
              } else if (e.key === 'Enter') {
                e.preventDefault();
                if (shown[0]) pick(shown[0]);
              }
            }}
          />
          {!entries ? (
            <p className="small text-body-secondary mb-0">{t('global:loading')}</p>
          ) : (
            <div className="emoji-grid">
              {shown.map((e) => (
                <button key={e.s[0]} type="button" className="btn btn-sm btn-light emoji-cell" title={`:${e.s[0]}:`} aria-label={e.n} onClick={() => pick(e)}>
                  {e.u}
                </button>
              ))}
              {!shown.length && <p className="small text-body-secondary mb-0">{t('modules:composer.emoji-none')}</p>}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
