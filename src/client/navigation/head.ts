import type { Attributes } from '../../shared/types';

/** Meta tags the page data manages: description, og:*, article:*, twitter:*, robots. */
export function isManagedMeta(attrs: Attributes): boolean {
  const key = attrs.name ?? attrs.property ?? '';
  return key === 'description' || key === 'robots' || key.startsWith('og:') || key.startsWith('article:') || key.startsWith('twitter:');
}

/** Link tags the page data manages: canonical, alternate, up. */
export function isManagedLink(attrs: Attributes): boolean {
  return ['canonical', 'alternate', 'up'].includes(attrs.rel ?? '');
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function tag(name: 'meta' | 'link', attrs: Attributes): string {
  const parts = Object.entries(attrs)
    .filter(([k]) => /^[a-zA-Z:_-]+$/.test(k))
    .map(([k, v]) => `${k}="${escapeAttr(String(v))}"`);
  return `<${name} ${parts.join(' ')}>`;
}

/** HTML for the managed head tags of a page, for the server-rendered document. */
export function headTagsHtml(meta: Attributes[], link: Attributes[]): string {
  return [...meta.filter(isManagedMeta).map((a) => tag('meta', a)), ...link.filter(isManagedLink).map((a) => tag('link', a))].join('\n');
}

/** Replaces the managed meta and link tags in the document head with the page's. */
export function applyHeadTags(doc: Document, meta: Attributes[], link: Attributes[]): void {
  doc.head.querySelectorAll('meta').forEach((el) => {
    const attrs: Attributes = { name: el.getAttribute('name') ?? '', property: el.getAttribute('property') ?? '' };
    if (!attrs.name) delete attrs.name;
    if (!attrs.property) delete attrs.property;
    if (isManagedMeta(attrs)) el.remove();
  });
  doc.head.querySelectorAll('link').forEach((el) => {
    if (isManagedLink({ rel: el.getAttribute('rel') ?? '' })) el.remove();
  });
  const add = (name: 'meta' | 'link', attrs: Attributes) => {
    const el = doc.createElement(name);
    for (const [k, v] of Object.entries(attrs)) if (/^[a-zA-Z:_-]+$/.test(k)) el.setAttribute(k, String(v));
    doc.head.appendChild(el);
  };
  meta.filter(isManagedMeta).forEach((a) => add('meta', a));
  link.filter(isManagedLink).forEach((a) => add('link', a));
}
