import { DUPLICATE_NAVIGATION_WINDOW_MS } from '../../shared/constants';
import type { ErrorPage, PageBase } from '../../shared/types';
import type { NavigateOptions, Runtime } from '../app/runtime';
import { errorText, translate, translateText } from '../i18n';
import { templateName } from '../pages/registry';
import { applyHeadTags } from './head';
import { classifyResponse, createDuplicateGuard, type LoadOutcome } from './response';
import { progressDone, progressStart } from './progress';
import { scrollAfterNavigation } from './scroll';
import { buildTitle } from './title';
import { setDocumentTitle } from './title-count';
import { apiUrl, crossesAdminBoundary, isHashOnlyChange, isInternal, isUnremembered, pagePath, parseUrl } from './url';

/** Key under which the url to return to after login is remembered (spec §6). */
export const RETURN_TO_KEY = 'palaver:returnTo';

interface GoOptions extends NavigateOptions {
  /** Back/forward: the history entry exists already. */
  popstate?: boolean;
}

/** Sets the document title, head tags and body class for a page. */
export function applyDocument(rt: Runtime, page: PageBase): void {
  const title = translateText(rt.i18n, page.title ?? '');
  // The unread notifications count stays in front of every page's title (NodeBB: "(3) Title").
  setDocumentTitle(rt, buildTitle(rt.config.titleLayout, title, rt.config.browserTitle));
  const tags = page._header?.tags;
  if (tags) applyHeadTags(document, tags.meta ?? [], tags.link ?? []);
  if (page.bodyClass !== undefined) document.body.className = page.bodyClass;
}

/**
 * The in-page navigation layer (spec §2, §4): fetches page data, loads the template's
 * component, updates history, title, head and scroll, and handles every error status.
 */
export function createNavigator(rt: Runtime, loadTemplate: (name: string, page?: PageBase) => Promise<unknown>) {
  const rp = rt.config.relative_path;
  const guard = createDuplicateGuard(DUPLICATE_NAVIGATION_WINDOW_MS);
  let controller: AbortController | null = null;
  let previousUrl = '';
  /** Counts navigations, so a repeat after a reconnection runs only if none came since. */
  let navigations = 0;

  const t = (key: string, ...args: string[]) => translate(rt.i18n, key, args);
  const fullLoad = (href: string) => {
    location.href = href;
  };
  const finish = () => {
    rt.page.set((s) => ({ ...s, loading: false }));
    progressDone(rt);
  };

  /** Turns a server target ("/topic/1" or "{rp}/topic/1") into an absolute URL. */
  const resolveTarget = (to: string): string => {
    const url = parseUrl(to, location.href);
    if (url && url.origin !== location.origin) return url.href;
    const path = to.startsWith('/') && rp && !to.startsWith(`${rp}/`) && to !== rp ? `${rp}${to}` : to;
    return new URL(path, location.href).href;
  };

  function errorPageData(status: number, body: unknown, error?: string): PageBase {
    const current = rt.page.get().page;
    if (body && typeof body === 'object' && 'template' in body) {
      const page = body as ErrorPage;
      return error && !page.error ? { ...page, error } as PageBase : page;
    }
    const page: ErrorPage = {
      ...current,
      template: { name: String(status), [String(status)]: true },
      templateToRender: undefined,
      title: `[[pages:${status}.title]]`,
      bodyClass: `page-status-${status}`,
      breadcrumbs: [],
      widgets: {},
      _header: { tags: { meta: [], link: [] } },
      postIndex: undefined,
      path: location.pathname,
      error: error ?? '',
      status,
    };
    return page;
  }

  async function render(page: PageBase, url: URL, opts: GoOptions, signal: AbortSignal) {
    try {
      await loadTemplate(templateName(page), page);
    } catch (err) {
      console.error(err);
      rt.alert({ type: 'danger', title: t('global:alert.error'), message: t('error:unable-to-load-template') });
      finish();
      return;
    }
    if (signal.aborted) return;
    if (!opts.popstate) {
      if (opts.replace) history.replaceState({ url: url.href }, '', url.href);
      else history.pushState({ url: url.href }, '', url.href);
    }
    rt.page.set((s) => ({ page, url: url.href, loading: false, seq: s.seq + 1 }));
    applyDocument(rt, page);
    progressDone(rt);
    scrollAfterNavigation(url, page.postIndex);
  }

  async function handle(outcome: LoadOutcome, url: URL, opts: GoOptions, signal: AbortSignal, attempt: number) {
    switch (outcome.kind) {
      case 'page':
        return render(outcome.page as PageBase, url, opts, signal);
      case 'redirect':
        if (outcome.external) return fullLoad(outcome.to);
        finish();
        return go(resolveTarget(outcome.to), { replace: true, force: true });
      case 'login':
        sessionStorage.setItem(RETURN_TO_KEY, url.href);
        rt.alert({ type: 'danger', title: t('global:alert.error'), message: t('error:not-logged-in') });
        finish();
        return go(`${rp}/login`, { force: true });
      case 'error-page':
        return render(errorPageData(outcome.status, outcome.page, outcome.error), url, opts, signal);
      case 'retry':
        return load(url, opts, signal, attempt + 1);
      case 'toast':
        rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, outcome) });
        return finish();
    }
  }

  async function load(url: URL, opts: GoOptions, signal: AbortSignal, attempt = 0): Promise<void> {
    let outcome: LoadOutcome;
    try {
      const res = await fetch(apiUrl(pagePath(url, rp), rp), {
        headers: { Accept: 'application/json', 'X-Return-To': previousUrl },
        cache: 'no-store',
        credentials: 'same-origin',
        signal,
      });
      const body: unknown = await res.json().catch(() => undefined);
      outcome = classifyResponse({
        status: res.status,
        redirectHeader: res.headers.get('X-Redirect'),
        body,
        attempt,
        isInternal: (href) => isInternal(resolveTarget(href), location.href, rp),
      });
    } catch (err) {
      if (signal.aborted || (err as Error).name === 'AbortError') return; // aborted: show nothing
      outcome = classifyResponse({ status: 0, redirectHeader: null, body: null, attempt, isInternal: () => true });
    }
    if (signal.aborted) return;
    await handle(outcome, url, opts, signal, attempt);
  }

  /** Navigates to a URL or page path per the spec's rules. */
  async function go(href: string, opts: GoOptions = {}): Promise<void> {
    const url = parseUrl(href, location.href);
    if (!url) return;
    if (!isInternal(url.href, location.href, rp)) return fullLoad(url.href);
    // The page being left is the one shown (on back/forward location has already moved).
    const leaving = new URL(rt.page.get().url || location.href, location.href);
    if (!opts.popstate && !opts.force && isHashOnlyChange(leaving, url)) {
      location.hash = url.hash;
      return;
    }
    if (crossesAdminBoundary(pagePath(leaving, rp), pagePath(url, rp))) return fullLoad(url.href);
    if (!opts.popstate && rt.hasUnsaved() && !window.confirm(t('global:unsaved-changes'))) return;
    if (!opts.force && guard.isDuplicate(url.href, Date.now())) return;
    if (opts.force) guard.isDuplicate(url.href, Date.now());
    // X-Return-To carries the page being left, unless it is one not to return to (reset).
    if (!isUnremembered(pagePath(leaving, rp))) previousUrl = leaving.href;
    const seq = ++navigations;
    // A navigation while disconnected brings the live connection back, then runs again (spec
    // §2): what it loaded meanwhile may have failed or be stale.
    if (rt.connection.get().droppedAt !== null) {
      void rt.reconnect().then((back) => {
        if (back && seq === navigations) void go(url.href, { replace: true, force: true });
      });
    }
    controller?.abort();
    const ctl = new AbortController();
    controller = ctl;
    rt.page.set((s) => ({ ...s, loading: true }));
    progressStart(rt);
    await load(url, opts, ctl.signal);
  }

  /** Back/forward: re-navigate to the stored url unless only the hash moved. */
  function onPopState(e: PopStateEvent) {
    const stored = (e.state as { url?: string } | null)?.url ?? location.href;
    const shown = new URL(rt.page.get().url, location.href);
    const target = new URL(stored, location.href);
    if (shown.pathname === target.pathname && shown.search === target.search) return;
    void go(stored, { popstate: true, force: true });
  }

  return { go, onPopState, getPreviousUrl: () => previousUrl };
}

export type Navigator = ReturnType<typeof createNavigator>;
