/** Escapes text for XML element content and attribute values. */
export function xmlEscape(s: string): string {
  // Characters XML 1.0 forbids outright are dropped, not escaped.
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** One item of an RSS feed. */
export interface FeedItem {
  title: string;
  link: string;
  /** HTML (escaped again as text inside <description>, as RSS readers expect). */
  html: string;
  author: string;
  date: number;
  guid: string;
}

/** An RSS 2.0 channel. */
export interface Feed {
  title: string;
  link: string;
  description: string;
  /** The feed's own address (atom:link rel=self). */
  self: string;
  /** The language of the feed's own texts (its title), a Palaver language code such as pt-BR. */
  language?: string;
  items: FeedItem[];
}

/** The feed as an RSS 2.0 document. */
export function renderRss(f: Feed): string {
  const items = f.items
    .map(
      (i) => `    <item>
      <title>${xmlEscape(i.title)}</title>
      <link>${xmlEscape(i.link)}</link>
      <guid isPermaLink="true">${xmlEscape(i.guid)}</guid>
      <description>${xmlEscape(i.html)}</description>
      <dc:creator>${xmlEscape(i.author)}</dc:creator>
      <pubDate>${new Date(i.date).toUTCString()}</pubDate>
    </item>`,
    )
    .join('\n');
  const latest = f.items.reduce((m, i) => Math.max(m, i.date), 0);
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${xmlEscape(f.title)}</title>
    <link>${xmlEscape(f.link)}</link>
    <description>${xmlEscape(f.description)}</description>
    <atom:link href="${xmlEscape(f.self)}" rel="self" type="application/rss+xml"/>
    ${f.language ? `<language>${xmlEscape(f.language.toLowerCase())}</language>` : ''}
    <generator>Palaver</generator>
    ${latest ? `<lastBuildDate>${new Date(latest).toUTCString()}</lastBuildDate>` : ''}
${items}
  </channel>
</rss>
`;
}

/** A sitemap of URLs (each with its last change when known). */
export function renderUrlSet(urls: { loc: string; lastmod?: number; priority?: number }[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls
  .map((u) => `  <url><loc>${xmlEscape(u.loc)}</loc>${u.lastmod ? `<lastmod>${new Date(u.lastmod).toISOString()}</lastmod>` : ''}${u.priority !== undefined ? `<priority>${u.priority.toFixed(1)}</priority>` : ''}</url>`)
  .join('\n')}
</urlset>
`;
}

/** A sitemap index pointing at other sitemaps. */
export function renderSitemapIndex(locs: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${locs.map((l) => `  <sitemap><loc>${xmlEscape(l)}</loc></sitemap>`).join('\n')}
</sitemapindex>
`;
}
