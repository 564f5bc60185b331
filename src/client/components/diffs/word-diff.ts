import { diffWords } from 'diff';

/** One run of text in a word diff: kept, inserted or deleted. */
export interface DiffPart {
  kind: 'same' | 'ins' | 'del';
  text: string;
}

/** The words changed between two texts (older first), as runs to show with <ins>/<del>. */
export function wordDiff(older: string, newer: string): DiffPart[] {
  return diffWords(older, newer).map((c) => ({ kind: c.added ? 'ins' : c.removed ? 'del' : 'same', text: c.value }));
}

/** The text a reader sees in rendered post HTML (tags dropped, entities decoded), block by block. */
export function htmlText(html: string): string {
  const doc = new DOMParser().parseFromString(`<div>${html}</div>`, 'text/html');
  const root = doc.body.firstElementChild;
  if (!root) return '';
  // Line breaks between blocks, so paragraphs do not run together in the diff.
  for (const el of root.querySelectorAll('p, li, pre, blockquote, h1, h2, h3, h4, h5, h6, br')) el.append(doc.createTextNode('\n'));
  return (root.textContent ?? '').replace(/\n{3,}/g, '\n\n').trim();
}
