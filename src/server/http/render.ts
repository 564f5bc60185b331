import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SsrModule } from '../../shared/ssr.js';
import type { ClientConfig, PageBase } from '../../shared/types.js';
import { DEFAULT_LANGUAGE } from '../../shared/constants.js';
import { languageDir } from '../../shared/languages.js';
import { bootstrapStylesheetPath, stylesheetHref } from '../../shared/skins.js';
import { languageGeneration, languageStrings, offeredLanguage, servedNamespace } from '../i18n.js';
import { jsonBytes, pageJsonAndKey, scriptJson } from './page-json.js';
import type { BodyPiece } from './send.js';

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

/** A topic title as HTML text: escaped, with `[` `]` as entities so no `[[key]]` in it is translated. */
export function escapeTitle(raw: string): string {
  return escapeHtml(raw).replace(/\[/g, '&#91;').replace(/\]/g, '&#93;');
}

/** A page's structured data as a JSON-LD block (a data block: the browser runs nothing). */
function jsonLd(page: PageBase): string {
  const data = page.jsonLd;
  if (!data) return '';
  // A frozen one is shared by every reader of the page (a topic's: topic-page.ts): made once.
  const shared = Object.isFrozen(data);
  let script = shared ? jsonLdScripts.get(data) : undefined;
  if (script === undefined) {
    script = `<script type="application/ld+json">${scriptJson(data)}</script>`;
    if (shared) jsonLdScripts.set(data, script);
  }
  return script;
}
const jsonLdScripts = new WeakMap<object, string>();

/** The document title from titleLayout. */
export function documentTitle(page: PageBase, config: ClientConfig): string {
  // A topic's `title` is HTML-escaped; its `titleRaw` is the text (escaped once, on output).
  const raw = (page as PageBase & { titleRaw?: unknown }).titleRaw;
  const title = typeof raw === 'string' && raw ? raw : page.title;
  if (!title || title === config.siteTitle) return config.browserTitle || config.siteTitle;
  // A function, not a string: a `$&` or `$'` in a title is text, not a replacement pattern;
  // one pass, so a title containing `{browserTitle}` stays as typed.
  return config.titleLayout.replace(/\{pageTitle\}|\{browserTitle\}/g, (m) => (m === '{pageTitle}' ? title : config.browserTitle));
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

interface ClientBuild {
  ssr: SsrModule;
  /** The client entry's script and stylesheets, relative to the forum root. */
  script: string;
  css: string[];
}

let build: ClientBuild | null = null;

/**
 * Loads the client build (React's server render bundle and the asset manifest) from dist/,
 * once at start-up. Without a build, pages fall back to the plain rendering below, which
 * still shows every page's text.
 */
export async function loadClientBuild(distDir: string, log: { warn(msg: string): void; error(obj: object, msg: string): void }): Promise<boolean> {
  const ssrFile = path.join(distDir, 'ssr', 'entry-server.js');
  const manifestFile = path.join(distDir, 'client', '.vite', 'manifest.json');
  if (!existsSync(ssrFile) || !existsSync(manifestFile)) {
    log.warn('client build not found in dist/: serving plain HTML (run `npm run build`)');
    build = null;
    return false;
  }
  let ssr: SsrModule;
  try {
    ssr = (await import(pathToFileURL(ssrFile).href)) as SsrModule;
  } catch (err) {
    // A broken bundle must not take the forum down: pages still render, plainly.
    log.error({ err }, `client server-render bundle ${ssrFile} failed to load: serving plain HTML`);
    build = null;
    return false;
  }
  const strings = languageStrings();
  ssr.setTranslations(Object.fromEntries(ssr.NAMESPACES.map((ns) => [ns, strings[ns] ?? {}])));
  ssrLanguages.clear();
  ssrLanguages.add(DEFAULT_LANGUAGE);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, { file: string; css?: string[]; isEntry?: boolean }>;
  const entry = manifest['src/client/main.tsx'] ?? Object.values(manifest).find((m) => m.isEntry);
  if (!entry) throw new Error(`no client entry in ${manifestFile}`);
  build = { ssr, script: entry.file, css: entry.css ?? [] };
  return true;
}

/**
 * A document cut around its client-config script, the only part that differs between guests.
 * `before` is a list of pieces (the head, React's render, the page data…) encoded one by one:
 * joined into one string first, a member's topic page (72 KB) took 165 µs to encode against
 * 70 µs a piece at a time (React's render is a rope of thousands of concatenations, and one
 * non-Latin-1 character anywhere, a "…" in a description, makes the whole join two-byte).
 */
export interface DocumentParts {
  /** Text, or bytes already encoded (the page data's, see page-json.ts; a page's frame, see the client's ssr/frames.ts). */
  before: BodyPiece[];
  after: string;
}

/** A document's bytes: its pieces encoded one at a time, then joined (a guest cache entry). */
export function documentBytes(pieces: readonly BodyPiece[]): Buffer {
  return Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
}

/** The languages the server render has been given (en-GB at start, each other on its first page). */
const ssrLanguages = new Set<string>();
let ssrGeneration = languageGeneration();

/** Gives the server render a language's texts the first time a page in it is rendered. */
function ensureSsrLanguage(b: ClientBuild, lang: string): void {
  if (ssrGeneration !== languageGeneration()) {
    // Other files (a test's): every language but en-GB is given again on its next page.
    ssrGeneration = languageGeneration();
    for (const l of [...ssrLanguages]) if (l !== DEFAULT_LANGUAGE) ssrLanguages.delete(l);
  }
  if (ssrLanguages.has(lang) || !offeredLanguage(lang)) return;
  ssrLanguages.add(lang);
  const served = b.ssr.NAMESPACES.map((ns) => [ns, servedNamespace(lang, ns) ?? {}] as const);
  b.ssr.setTranslations(Object.fromEntries(served), lang);
}

/** The document with React's server render of the page, which the client then hydrates. */
function reactDocument(b: ClientBuild, { page, config }: RenderInput): DocumentParts {
  ensureSsrLanguage(b, config.userLang);
  const rp = escapeHtml(config.relative_path);
  // The page data's JSON first: the render keys its frame cache by the same text (page-json.ts).
  const json = pageJsonAndKey(page, true);
  let app: (string | Uint8Array)[] = [];
  try {
    app = b.ssr.renderAppParts(page, config, json.key);
  } catch {
    // The client renders from scratch when the server render fails; the data is embedded.
  }
  const attributes = b.ssr.htmlAttributes(page, config);
  const htmlAttrs = Object.entries(attributes)
    .map(([k, v]) => `${k}="${escapeHtml(String(v))}"`)
    .join(' ');
  return {
    before: [
      `<!DOCTYPE html>
<html ${htmlAttrs}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link id="bootstrap-css" rel="stylesheet" href="${escapeHtml(stylesheetHref(config.asset_base_url, bootstrapStylesheetPath(attributes.dir), config['cache-buster']))}">
${b.css.map((f) => `<link rel="stylesheet" href="${rp}/${escapeHtml(f)}">`).join('\n')}
${b.ssr.renderHead(page, config)}
${jsonLd(page)}
<script type="module" src="${rp}/${escapeHtml(b.script)}"></script>
</head>
<body class="${escapeHtml(page.bodyClass)}">
<div id="app">`,
      ...app,
      `</div>
<script id="page-data" type="application/json">`,
      ...json.pieces,
      `</script>
<script id="client-config" type="application/json">`,
    ],
    after: `</script>
</body>
</html>`,
  };
}

/** The document in two parts around the client config's JSON (which the caller inserts). */
export function renderDocumentParts(input: RenderInput): DocumentParts {
  return build ? reactDocument(build, input) : plainDocument(input);
}

/** The whole HTML document of a page, as the pieces http/send.ts writes: head tags, embedded page data and config, body. */
export function renderDocument(input: RenderInput): BodyPiece[] {
  const { before, after } = renderDocumentParts(input);
  // A member's config is frozen and reused (client-config.ts): its JSON is encoded once.
  return [...before, jsonBytes(input.config, true), after];
}

/** The plain document, used when there is no client build. */
function plainDocument({ page, config }: RenderInput): DocumentParts {
  const meta = page._header.tags.meta.map((m) => `<meta ${attrs(m)}>`).join('\n    ');
  const link = page._header.tags.link.map((l) => `<link ${attrs(l)}>`).join('\n    ');
  return {
    before: [
      `<!DOCTYPE html>
<html lang="${escapeHtml(config.userLang)}" dir="${languageDir(config.userLang)}">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(documentTitle(page, config))}</title>
    ${meta}
    ${link}
    ${jsonLd(page)}
  </head>
  <body class="${escapeHtml(page.bodyClass)}">
    <div id="app"><main id="content">${renderBody(page)}</main></div>
    <script id="page-data" type="application/json">${scriptJson(page)}</script>
    <script id="client-config" type="application/json">`,
    ],
    after: `</script>
  </body>
</html>`,
  };
}
