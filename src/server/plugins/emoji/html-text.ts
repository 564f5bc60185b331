/**
 * Rewrites the text of sanitised HTML outside code, preformatted blocks and links, so a
 * filter that turns words into markup (mentions, emoji) never touches code or an existing link.
 * `fn` gets HTML-escaped text and returns HTML.
 */
export function mapTextOutsideCode(html: string, fn: (text: string) => string): string {
  const skip = ['code', 'pre', 'a'];
  let depth = 0;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith('<')) {
        const m = /^<(\/?)([a-zA-Z0-9]+)/.exec(part);
        if (m && skip.includes(m[2]!.toLowerCase()) && !part.endsWith('/>')) depth = Math.max(0, depth + (m[1] ? -1 : 1));
        return part;
      }
      return depth === 0 && part ? fn(part) : part;
    })
    .join('');
}
