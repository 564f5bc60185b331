import SPRITE from 'virtual:palaver-icons';
import { useContext } from 'react';
import { RuntimeContext } from '../app/runtime';
import { DIRECTIONAL_ICONS, ICON_PATHS } from './icon-paths';

/**
 * An icon from the sprite (assets/icons-<hash>.svg, cached for a year), hidden from assistive
 * technology unless given a label. Directional icons (icon-paths.ts) are mirrored on RTL pages. A <use> reference is ~150 bytes of HTML and one element,
 * where the icon's own paths were ~350 bytes and 3–5 elements: a topic page shows ~90 icons.
 */
export function Icon({ name, size = 18, label, className, filled }: { name: string; size?: number; label?: string; className?: string; filled?: boolean }) {
  const base = useContext(RuntimeContext)?.config.asset_base_url ?? './assets';
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true as const, focusable: 'false' as const };
  return (
    // Stroke and fill come from the .icon rules in app.css.
    <svg width={size} height={size} viewBox="0 0 24 24" className={`icon${filled ? ' filled' : ''}${DIRECTIONAL_ICONS.has(name) ? ' icon-directional' : ''}${className ? ` ${className}` : ''}`} {...a11y}>
      <use href={`${base}/${SPRITE}#${Object.hasOwn(ICON_PATHS, name) ? name : 'more'}`} />
    </svg>
  );
}

/** Maps a Font Awesome icon name (as categories store them) to one of ours, or null. */
export function iconForFa(fa: string): string | null {
  const name = fa.replace(/^fa-/, '').replace(/^fa\s+fa-/, '');
  const map: Record<string, string> = {
    comments: 'comments', 'comments-o': 'comments', comment: 'chat', 'comment-o': 'chat', bullhorn: 'bell',
    question: 'help', 'question-circle': 'help', code: 'code', newspaper: 'drafts', 'newspaper-o': 'drafts',
    users: 'users', user: 'user', tag: 'tag', tags: 'tag', book: 'drafts', star: 'award', trophy: 'award',
    fire: 'trending', lock: 'lock', link: 'link', bell: 'bell', home: 'home', search: 'search',
  };
  return map[name] ?? null;
}
