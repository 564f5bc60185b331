const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", '#x27': "'", '#x2F': '/', '#47': '/' };

/** Decodes the few HTML entities the server escapes titles with. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#?\w+);/g, (m, name: string) => ENTITIES[name] ?? m);
}

/** Spec §2: the document title from titleLayout with {pageTitle} and {browserTitle}. */
export function buildTitle(layout: string, pageTitle: string, browserTitle: string): string {
  const page = decodeEntities(pageTitle ?? '').trim();
  const browser = decodeEntities(browserTitle ?? '').trim();
  if (!page || page === browser) return browser;
  const tpl = layout || '{pageTitle} | {browserTitle}';
  return tpl.replace(/\{pageTitle\}/g, page).replace(/\{browserTitle\}/g, browser);
}
