import { renderToString } from 'react-dom/server';
import type { i18n as I18n } from 'i18next';
import type { ClientConfig, PageBase } from '../shared/types';
import type { SsrModule } from '../shared/ssr';
import { DEFAULT_LANGUAGE } from '../shared/constants';
import { languageDir } from '../shared/languages';
import { DARK_SKINS, isKnownSkin } from '../shared/skins';
import { App } from './app/App';
import { createRuntime } from './app/runtime';
import { skinHref } from './app/settings';
import { ADMIN_NAMESPACES, createI18n, NAMESPACES as PUBLIC_NAMESPACES, translateText, type NamespaceResources } from './i18n';

/** The server render has every namespace, the admin area's too. */
const NAMESPACES = [...PUBLIC_NAMESPACES, ...ADMIN_NAMESPACES];
import { headTagsHtml } from './navigation/head';
import { buildTitle } from './navigation/title';
import { getStaticComponent } from './pages/static';
import { clearFragments, fragmentStats, pageFragments } from './ssr/fragments';
import { configPart, frameKey, renderFramed, type AppPart } from './ssr/frames';

export { NAMESPACES };
export type { NamespaceResources };

const resources: Record<string, NamespaceResources> = {};
const instances = new Map<string, I18n>();

/**
 * Gives the renderer the translations of one language: { global: {...}, pages: {...}, ... }
 * (the files of public/language/{lang}/). Call it at start-up for en-GB, and again when the
 * files change. Rendering uses the member's language when loaded, else en-GB.
 */
export function setTranslations(namespaces: NamespaceResources, lang: string = DEFAULT_LANGUAGE): void {
  resources[lang] = namespaces;
  instances.clear();
  clearFragments();
  heads.clear();
}

function i18nFor(lang: string): I18n {
  const use = resources[lang] ? lang : DEFAULT_LANGUAGE;
  let inst = instances.get(use);
  if (!inst) {
    inst = createI18n(use, resources);
    instances.set(use, inst);
  }
  return inst;
}

/** The reader's language: the server chose it (member's setting, guest's cookie or browser, forum's default) into the config. */
function languageOf(_page: PageBase, config: ClientConfig): string {
  return config.userLang || config.defaultLang || DEFAULT_LANGUAGE;
}

/**
 * Renders the app shell and the page's template to HTML, for the element <div id="app">.
 * `shortcuts: false` renders it as the browser's first render would, without the server's
 * shortcuts (cached fragments, closed dropdowns): tests compare the two.
 */
export function renderPage(page: PageBase, config: ClientConfig, opts: { shortcuts?: boolean } = {}): string {
  if (opts.shortcuts === false) {
    const lang = languageOf(page, config);
    return renderToString(<App runtime={createRuntime(page, config, i18nFor(lang), true)} resolve={getStaticComponent} />);
  }
  const decoder = new TextDecoder();
  return renderAppParts(page, config)
    .map((part) => (typeof part === 'string' ? part : decoder.decode(part)))
    .join('');
}

/**
 * renderPage as the server sends it: parts of text, or of text already encoded (UTF-8), to be
 * written one after the other (a page's frame is kept encoded, see ssr/frames.ts).
 */
export function renderAppParts(page: PageBase, config: ClientConfig, pageKey?: string): AppPart[] {
  const lang = languageOf(page, config);
  const rt = createRuntime(page, config, i18nFor(lang), true);
  rt.closedDropdowns = true;
  const render = () => renderToString(<App runtime={rt} resolve={getStaticComponent} />);
  // The page's frame with this member's bars (ssr/frames.ts), when its template has one.
  const key = frameKey(page, config, lang, pageKey);
  const framed = key === null ? null : renderFramed(rt, lang, key, render);
  if (framed !== null) return framed;
  const fragments = pageFragments(rt, lang);
  rt.fragments = fragments;
  const html = render();
  // What this page missed, rendered on its own for the next one.
  fragments.fill();
  return [html];
}

/** What the server render's caches hold and how often they served (tests, the admin's cache page). */
export function renderStats(): ReturnType<typeof fragmentStats> {
  return fragmentStats();
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The admin's appearance in <head>: favicon (else the forum's own), touch icon and og:image when uploaded, and on
 * public pages (not the admin area, which a broken stylesheet or script must never lock the
 * admin out of) the custom stylesheet and, only when enabled, the custom script. Both are
 * files of their own, never inline.
 */
function appearanceHead(page: PageBase, config: ClientConfig): string[] {
  const parts: string[] = [];
  const brand = config.brand;
  // Without an uploaded one, the forum's own (served by the server's public files).
  parts.push(brand?.favicon ? `<link rel="icon" href="${escapeHtml(brand.favicon)}">` : `<link rel="icon" type="image/svg+xml" href="${escapeHtml(config.relative_path)}/favicon.svg">`);
  if (brand?.touchIcon) parts.push(`<link rel="apple-touch-icon" href="${escapeHtml(brand.touchIcon)}">`);
  const hasOgImage = (page._header?.tags?.meta ?? []).some((m) => (m as { property?: string }).property === 'og:image');
  if (brand?.ogImage && !hasOgImage) parts.push(`<meta property="og:image" content="${escapeHtml(brand.ogImage)}">`);
  const template = page.template?.name ?? '';
  if (!template.startsWith('admin')) {
    if (config.customCSSUrl) parts.push(`<link id="custom-css" rel="stylesheet" href="${escapeHtml(config.customCSSUrl)}">`);
    if (config.customJSUrl) parts.push(`<script id="custom-js" defer src="${escapeHtml(config.customJSUrl)}"></script>`);
  }
  return parts;
}

/**
 * Heads made so far, by what they are made of: the language, the config (by its stand-in,
 * see ssr/frames.ts configPart), the template, the title and the page's head tags. Readers of
 * one page share its head; building it (its tags escaped one by one) cost as much as the rest
 * of a framed page's render.
 */
const heads = new Map<string, string>();
const MAX_HEADS = 1000;

/** The page's <title>, managed meta/link tags and skin stylesheet, for the document head. */
export function renderHead(page: PageBase, config: ClientConfig): string {
  const lang = languageOf(page, config);
  const header = page._header;
  // A frozen `_header` is one the server shares and never changes (src/server/http/pages.ts):
  // its heads are kept with it, and its tags need not be turned into JSON to key them.
  const shared = typeof header === 'object' && header !== null && Object.isFrozen(header);
  const prefix = `${lang}\u0001${configPart(config)}\u0001${page.template?.name ?? ''}\u0001`;
  const key = shared ? `${prefix}${page.title ?? ''}` : `${prefix}${JSON.stringify([page.title ?? '', header ?? null])}`;
  let cache = shared ? headsByHeader.get(header) : heads;
  if (!cache) headsByHeader.set(header, (cache = new Map()));
  let head = cache.get(key);
  if (head === undefined) {
    head = buildHead(page, config, lang);
    if (cache.size >= MAX_HEADS) cache.clear();
    cache.set(key, head);
  }
  return head;
}

/** Heads of pages whose `_header` is frozen, kept with it (see renderHead). */
const headsByHeader = new WeakMap<object, Map<string, string>>();

function buildHead(page: PageBase, config: ClientConfig, lang: string): string {
  const i18n = i18nFor(lang);
  const title = buildTitle(config.titleLayout, translateText(i18n, page.title ?? ''), config.browserTitle);
  // The server gives the skin this viewer sees: their allowed choice, else the forum's default.
  const skin = config.bootswatchSkin;
  const parts = [`<title>${escapeHtml(title)}</title>`, headTagsHtml(page._header?.tags?.meta ?? [], page._header?.tags?.link ?? [])];
  if (isKnownSkin(skin)) {
    parts.push(`<link id="skin-css" rel="stylesheet" href="${escapeHtml(skinHref(config.asset_base_url, skin, config['cache-buster'], languageDir(lang)))}">`);
  }
  parts.push(...appearanceHead(page, config));
  return parts.filter(Boolean).join('\n');
}

/** Attributes for <html>: its language, direction (rtl for ar, he, fa) and Bootstrap colour mode (dark skins). */
export function htmlAttributes(page: PageBase, config: ClientConfig): { lang: string; dir: 'ltr' | 'rtl'; 'data-bs-theme': 'light' | 'dark' } {
  const skin = config.bootswatchSkin ?? '';
  const lang = languageOf(page, config);
  return { lang, dir: languageDir(lang), 'data-bs-theme': DARK_SKINS.includes(skin) ? 'dark' : 'light' };
}

// Compile-time check that this module matches the contract the server imports it by.
const _contract: SsrModule = { NAMESPACES, setTranslations, renderPage, renderAppParts, renderHead, htmlAttributes, renderStats };
void _contract;
