import type { Plugin } from '../index.js';
import { mapTextOutsideCode } from './html-text.js';
import { emojiShortcodes, replaceShortcodes } from './table.js';

/**
 * Renders `:shortcode:` to Unicode in rendered HTML, outside code and links. Exported for
 * other renderers (chat messages) so they show the same emoji as posts.
 */
export function renderEmoji(html: string): string {
  if (!html.includes(':')) return html;
  const byShortcode = emojiShortcodes();
  return mapTextOutsideCode(html, (text) => replaceShortcodes(text, byShortcode));
}

/** Built-in emoji plugin: `:shortcode:` → emoji on filter:parse.post (after markdown). */
const emoji: Plugin = {
  id: 'emoji',
  init({ hooks }) {
    emojiShortcodes();
    hooks.filter('filter:parse.post', 'emoji', (data) => ({ ...data, html: renderEmoji(data.html) }));
  },
};

export default emoji;
