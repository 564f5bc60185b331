import { createHash } from 'node:crypto';
import sanitizeHtml from 'sanitize-html';
import type { ForumSettings } from '../../../shared/constants.js';
import { isKnownSkin } from '../../../shared/skins.js';

/**
 * The admin's appearance choices as public pages use them: the custom stylesheet and script
 * (each served as a file of its own under /assets/, never inlined, so nothing in them can
 * leave the file), the custom header HTML (sanitised), the brand images and the skins.
 */
export interface AppearanceConfig {
  /** The custom stylesheet's URL with its content hash, '' when off or empty. */
  customCSSUrl: string;
  /** The custom script's URL, '' unless "enable custom JavaScript" is on and there is a script. */
  customJSUrl: string;
  /** The header HTML, sanitised like posts, '' when off. */
  customHTML: string;
  /** Brand images: full URLs, '' none. */
  brand: { logo: string; favicon: string; touchIcon: string; ogImage: string };
  /** The forum's default skin ('' plain Bootstrap). */
  defaultSkin: string;
  /** Skins members may pick; empty: every skin. */
  allowedSkins: string[];
}

/** The HTML an admin may put in the header: what posts may hold (no script, no handlers, no dangerous URLs). */
const HEADER_HTML: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'em', 'strong', 'del', 's', 'a', 'img', 'ul', 'ol', 'li', 'span', 'div', 'small', 'code'],
  allowedAttributes: { a: ['href', 'title', 'rel'], img: ['src', 'alt', 'title', 'width', 'height'], span: ['class'], div: ['class'], p: ['class'] },
  allowedClasses: { '*': [/^(text|bg|alert|fw|fs|p[xytbse]?|m[xytbse]?|d|small|lead|container|row|col)(-[a-z0-9-]+)?$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
};

/** The last inputs and what they gave: settings change rarely, every page reads these. */
const memo = new Map<string, string>();
function memoised(kind: string, input: string, make: (s: string) => string): string {
  const key = `${kind}\0${input}`;
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  // Only the current values are worth keeping: drop older ones of the same kind.
  for (const k of memo.keys()) if (k.startsWith(`${kind}\0`)) memo.delete(k);
  const value = make(input);
  memo.set(key, value);
  return value;
}

/** A short content hash, for ?v= on the custom files. */
export function contentHash(text: string): string {
  return memoised('hash', text, (s) => createHash('sha256').update(s).digest('hex').slice(0, 16));
}

/** The header HTML as public pages show it. */
export function sanitiseHeaderHtml(html: string): string {
  return memoised('html', html, (s) => sanitizeHtml(s, HEADER_HTML).trim());
}

/** True when the custom stylesheet is served. */
export function customCssOn(s: ForumSettings): boolean {
  return s.useCustomCSS && s.customCSS.trim() !== '';
}

/** True when the custom script is served: only with "enable custom JavaScript" on. */
export function customJsOn(s: ForumSettings): boolean {
  return s.useCustomJS && s.customJS.trim() !== '';
}

/** The allowed skins, as a list (empty: all). */
export function allowedSkinList(s: Pick<ForumSettings, 'allowedSkins'>): string[] {
  return s.allowedSkins ? s.allowedSkins.split(',').filter(isKnownSkin) : [];
}

/**
 * The skin a viewer sees: their own choice when they made one and it is allowed, else the
 * forum's default.
 */
export function effectiveSkin(s: Pick<ForumSettings, 'allowedSkins' | 'bootswatchSkin'>, chosen: string | undefined): string {
  const allowed = allowedSkinList(s);
  if (chosen && isKnownSkin(chosen) && (!allowed.length || allowed.includes(chosen))) return chosen;
  return isKnownSkin(s.bootswatchSkin) ? s.bootswatchSkin : '';
}

/** What the client config carries of the appearance settings. */
export function appearanceConfig(s: ForumSettings, relativePath: string): AppearanceConfig {
  const upload = (p: string) => (p ? `${relativePath}/assets/uploads${p}` : '');
  return {
    customCSSUrl: customCssOn(s) ? `${relativePath}/assets/custom.css?v=${contentHash(s.customCSS)}` : '',
    customJSUrl: customJsOn(s) ? `${relativePath}/assets/custom.js?v=${contentHash(s.customJS)}` : '',
    customHTML: s.useCustomHTML ? sanitiseHeaderHtml(s.customHTML) : '',
    brand: { logo: upload(s['brand:logo']), favicon: upload(s['brand:favicon']), touchIcon: upload(s['brand:touchIcon']), ogImage: upload(s['og:image']) },
    defaultSkin: isKnownSkin(s.bootswatchSkin) ? s.bootswatchSkin : '',
    allowedSkins: allowedSkinList(s),
  };
}
