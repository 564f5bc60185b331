import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useT } from '../../app/hooks';
import { DEFAULT_TAG_LENGTH } from '../../../shared/constants';
import { addTag, isTagConfirmKey, isTagInputFull, tagText, tagValue, type TagRules } from './tags';

/**
 * Tag entry: comma or Enter confirms, Backspace on empty removes the last tag; `suggest`
 * offers existing tags for what is typed (a datalist, so the browser's own list and keys).
 * The rules (tags.ts) are the spec's options: none limits anything unless given.
 */
export function TagInput<T = string>({ tags, onChange, rules = {}, suggest }: { tags: T[]; onChange: (tags: T[]) => void; rules?: TagRules<T>; suggest?: (query: string) => Promise<string[]> }) {
  const { t } = useT();
  const id = useId();
  const [text, setText] = useState('');
  const [flash, setFlash] = useState<string | null>(null);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const full = isTagInputFull(tags, rules);
  useEffect(() => {
    const q = text.trim();
    if (!suggest || !q) return setSuggestions([]);
    let live = true;
    const timer = setTimeout(() => {
      suggest(q).then(
        (list) => live && setSuggestions(list.filter((s) => !tags.some((tag) => tagValue(tag, rules) === s))),
        () => live && setSuggestions([]),
      );
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, suggest === undefined]);

  const confirm = (raw: string) => {
    const res = addTag(tags, raw, rules);
    if (res.kind === 'added') onChange(res.tags);
    if (res.kind === 'duplicate') {
      setFlash(tagValue(res.existing, rules));
      setTimeout(() => setFlash(null), 600);
    }
    // A tag too long, or one that does not fit, stays typed for the member to shorten.
    if (res.kind !== 'too-long' && res.kind !== 'full') setText('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (isTagConfirmKey(e.key)) {
      e.preventDefault();
      confirm(text);
    } else if (e.key === 'Backspace' && !text && tags.length) {
      onChange(tags.slice(0, -1));
    }
  };
  return (
    <div className={`form-control d-flex flex-wrap align-items-center gap-1 tag-input${full ? ' is-full' : ''}`}>
      {tags.map((tag, i) => {
        const value = tagValue(tag, rules);
        const label = tagText(tag, rules);
        return (
          <span key={`${i}:${value}`} className={`badge text-bg-secondary d-inline-flex align-items-center gap-1${flash === value ? ' tag-flash' : ''}`}>
            {label}
            <button type="button" className="btn-close btn-close-white" style={{ fontSize: '0.5rem' }} aria-label={t('modules:composer.remove-tag', label)} onClick={() => onChange(tags.filter((_, j) => j !== i))} />
          </span>
        );
      })}
      <label htmlFor={id} className="visually-hidden">{t('modules:composer.tags')}</label>
      <input
        id={id}
        className="border-0 flex-grow-1 bg-transparent tag-input-field"
        value={text}
        disabled={full && !rules.singleSelect}
        placeholder={full && !rules.singleSelect ? t('modules:composer.tags-full') : t('modules:composer.tags-placeholder')}
        maxLength={rules.maxChars ?? (rules.maxTagLength ?? DEFAULT_TAG_LENGTH) + 5}
        list={suggest ? `${id}-list` : undefined}
        autoComplete="off"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => text && confirm(text)}
      />
      {suggest && (
        <datalist id={`${id}-list`}>
          {suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      )}
    </div>
  );
}
