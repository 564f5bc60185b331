/**
 * The contract of the client's server-render bundle (dist/ssr/entry-server.js, built from
 * src/client/entry-server.tsx), for the server to type its dynamic import of it.
 */
import type { ClientConfig, PageBase } from './types.js';

/** Namespace name → flat key/value map: the files of public/language/{lang}/. */
export type NamespaceResources = Record<string, Record<string, string>>;

/**
 * Page data that only the shell's two bars and the document's head read: a page's frame (the
 * client's ssr/frames.ts) is keyed by the rest, so members see one frame whatever their name,
 * avatar, counts or feed token. (`loggedInUser` still keys it by the member's roles and settings.)
 * `rssFeedUrl` (NodeBB's field: the list's feed with the member's token) no component reads.
 */
export const SHELL_ONLY_FIELDS: ReadonlySet<string> = new Set(['loggedInUser', 'unreadChatCount', '_header', 'jsonLd', 'rssFeedUrl']);

export interface SsrModule {
  /** Namespaces the client loads; the server reads public/language/{lang}/{ns}.json for each. */
  NAMESPACES: readonly string[];
  /** Gives the renderer one language's translations (call at start-up for en-GB; again on change). */
  setTranslations(namespaces: NamespaceResources, lang?: string): void;
  /**
   * HTML of the app for <div id="app">…</div>; synchronous. `shortcuts: false` renders it as the
   * browser's first render would, without the server's caches and shortcuts (for tests that
   * compare the two).
   */
  renderPage(page: PageBase, config: ClientConfig, opts?: { shortcuts?: boolean }): string;
  /**
   * renderPage's HTML as the server writes it: text, or text already encoded as UTF-8, one
   * after the other. `pageKey`: the page data's JSON but SHELL_ONLY_FIELDS, each frozen object by
   * a stand-in of its own (the server's page-json.ts pageJsonAndKey), which the render keys its
   * frame cache by instead of stringifying the page again.
   */
  renderAppParts(page: PageBase, config: ClientConfig, pageKey?: string): (string | Uint8Array)[];
  /** <title>, the page's managed meta/link tags and the skin stylesheet link, for <head>. */
  renderHead(page: PageBase, config: ClientConfig): string;
  /**
   * What the server render's caches hold (characters, entries) and how often each served a
   * page since the process started: `shared` (cards and rows readers share), `own` (members'
   * bars), `frames` (pages but for their bars).
   */
  renderStats(): Record<'shared' | 'own' | 'frames', { entries: number; chars: number; hits: number; misses: number }>;
  /** Attributes for <html>: lang and data-bs-theme. */
  htmlAttributes(page: PageBase, config: ClientConfig): { lang: string; dir: 'ltr' | 'rtl'; 'data-bs-theme': 'light' | 'dark' };
}
