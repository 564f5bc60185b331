const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'", '#x2F': '/', '#47': '/' };

/** Decodes the HTML entities the server escapes titles with (named few, and numeric ones). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (m, name: string) => {
    if (ENTITIES[name]) return ENTITIES[name];
    const code = name.startsWith('#x') ? parseInt(name.slice(2), 16) : name.startsWith('#') ? Number(name.slice(1)) : NaN;
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}

/** A topic title as text: titleRaw when present, else the escaped title decoded. */
export function topicTitleText(t: { title: string; titleRaw?: string }): string {
  return t.titleRaw || decodeEntities(t.title ?? '');
}

/** Spec §2: the document title from titleLayout with {pageTitle} and {browserTitle}. */
export function buildTitle(layout: string, pageTitle: string, browserTitle: string): string {
  const page = decodeEntities(pageTitle ?? '').trim();
  const browser = decodeEntities(browserTitle ?? '').trim();
  if (!page || page === browser) return browser;
  const tpl = layout || '{pageTitle} | {browserTitle}';
  // Functions, not strings: a `$&` or `$'` in a title is text, not a replacement pattern.
  return tpl.replace(/\{pageTitle\}|\{browserTitle\}/g, (m) => (m === '{pageTitle}' ? page : browser));
}
