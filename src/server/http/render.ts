import type { ClientConfig, PageBase } from '../../shared/types.js';

export interface RenderInput {
  page: PageBase;
  config: ClientConfig;
  status: number;
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and attributes. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]!);
}

/** JSON safe to embed inside a <script> element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The document title from titleLayout. */
export function documentTitle(page: PageBase, config: ClientConfig): string {
  // A topic's `title` is HTML-escaped; its `titleRaw` is the text (escaped once, on output).
  const raw = (page as PageBase & { titleRaw?: unknown }).titleRaw;
  const title = typeof raw === 'string' && raw ? raw : page.title;
  if (!title || title === config.siteTitle) return config.browserTitle || config.siteTitle;
  return config.titleLayout.replace('{pageTitle}', title).replace('{browserTitle}', config.browserTitle);
}

function attrs(map: Record<string, string>): string {
  return Object.entries(map)
    .map(([k, v]) => `${escapeHtml(k)}="${escapeHtml(v)}"`)
    .join(' ');
}

/** A plain server rendering of the page's main text, so crawlers and curl see the content. */
export function renderBody(page: PageBase): string {
  const p = page as PageBase & Record<string, any>;
  const parts: string[] = [`<h1>${escapeHtml(p.titleRaw ?? p.title)}</h1>`];
  if (Array.isArray(p.categories)) {
    parts.push('<ul>', ...p.categories.map((c: any) => `<li><a href="${escapeHtml(page.relative_path)}/category/${c.slug}">${escapeHtml(c.name)}</a></li>`), '</ul>');
  }
  if (Array.isArray(p.topics)) {
    parts.push('<ul>', ...p.topics.map((t: any) => `<li><a href="${escapeHtml(page.relative_path)}/topic/${t.slug}">${escapeHtml(t.titleRaw ?? t.title)}</a></li>`), '</ul>');
  }
  if (Array.isArray(p.posts)) {
    for (const post of p.posts) {
      parts.push(`<article><header>${escapeHtml(post.user?.displayname ?? '')}</header><div>${post.content ?? ''}</div></article>`);
    }
  }
  if (typeof p.error === 'string') parts.push(`<p>${escapeHtml(p.error)}</p>`);
  return parts.join('\n');
}

/** The whole HTML document of a page: head tags, embedded page data and config, body. */
export function renderDocument({ page, config }: RenderInput): string {
  const meta = page._header.tags.meta.map((m) => `<meta ${attrs(m)}>`).join('\n    ');
  const link = page._header.tags.link.map((l) => `<link ${attrs(l)}>`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="${escapeHtml(config.userLang)}">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(documentTitle(page, config))}</title>
    ${meta}
    ${link}
  </head>
  <body class="${escapeHtml(page.bodyClass)}">
    <div id="app"><main id="content">${renderBody(page)}</main></div>
    <script id="page-data" type="application/json">${scriptJson(page)}</script>
    <script id="client-config" type="application/json">${scriptJson(config)}</script>
  </body>
</html>`;
}
