import type { Runtime } from '../app/runtime';
import type { CategoryPage, TopicListPage } from '../../shared/types';
import { externalLinkAction, isBrowserClick, isNonNavigating, shouldHandleClick } from './links';
import { isInternal, parseUrl } from './url';
import type { Navigator } from './navigator';

/** Opens the new-topic composer for the page shown (its category and tag, if any). */
export function openNewTopic(rt: Runtime): void {
  const page = rt.page.get().page as Partial<CategoryPage & TopicListPage> & { tag?: string };
  const cid = page.template?.name === 'category' && typeof page.cid === 'number' ? page.cid : 0;
  rt.openComposer({ action: 'topics.post', cid, tags: page.tag ? [page.tag] : [] });
}

/** Document-level click handling: in-page links, external link rules, #new_topic. */
function onDocumentClick(rt: Runtime, nav: Navigator, e: MouseEvent) {
  const target = e.target as Element | null;
  if (!target?.closest) return;
  if (target.closest('#new_topic') && !e.defaultPrevented) {
    e.preventDefault();
    openNewTopic(rt);
    return;
  }
  const a = target.closest('a');
  if (!a || a.hasAttribute('download')) return;
  const link = { href: a.getAttribute('href'), target: a.getAttribute('target'), ajaxify: a.getAttribute('data-ajaxify') };
  const click = { button: e.button, ctrlKey: e.ctrlKey, shiftKey: e.shiftKey, metaKey: e.metaKey, defaultPrevented: e.defaultPrevented };
  const site = { base: location.href, relativePath: rt.config.relative_path };
  if (shouldHandleClick(link, click, site)) {
    e.preventDefault();
    void nav.go(a.href);
    return;
  }
  if (isNonNavigating(link.href) || isBrowserClick(link, click)) return;
  const url = parseUrl(link.href!, location.href);
  if (!url || !/^https?:$/.test(url.protocol) || isInternal(url.href, location.href, rt.config.relative_path)) return;
  const action = externalLinkAction(url.href, {
    useOutgoingLinksPage: rt.config.useOutgoingLinksPage,
    openOutgoingLinksInNewTab: rt.config.openOutgoingLinksInNewTab,
    outgoingLinksWhitelist: rt.config.outgoingLinksWhitelist,
    probe: !!rt.config.activitypub?.probe,
  });
  if (action.kind === 'navigate') {
    e.preventDefault();
    void nav.go(`${rt.config.relative_path}${action.path}`);
  } else if (action.kind === 'new-tab') {
    e.preventDefault();
    window.open(url.href, '_blank', 'noopener,noreferrer');
  }
}

/** Registers the service worker (not in Safari) and follows its 'ajaxify' messages. */
function wireServiceWorker(rt: Runtime, nav: Navigator) {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (e: MessageEvent) => {
    const data = e.data as { action?: string; url?: string } | null;
    if (data?.action !== 'ajaxify' || typeof data.url !== 'string') return;
    if (isInternal(data.url, location.href, rt.config.relative_path)) void nav.go(data.url);
    else location.href = data.url;
  });
  if (rt.config.useragent?.isSafari) return;
  const rp = rt.config.relative_path;
  navigator.serviceWorker
    .register(`${rp}/service-worker.js`, { scope: `${rp}/` })
    .catch((err: unknown) => console.warn('[service-worker] registration failed', err));
}

/** Installs every browser listener of the navigation layer; returns a disposer. */
export function wireNavigation(rt: Runtime, nav: Navigator): () => void {
  const click = (e: MouseEvent) => onDocumentClick(rt, nav, e);
  const beforeUnload = (e: BeforeUnloadEvent) => {
    if (!rt.hasUnsaved()) return;
    e.preventDefault();
    e.returnValue = '';
  };
  history.replaceState({ url: location.href }, '', location.href);
  document.addEventListener('click', click);
  window.addEventListener('popstate', nav.onPopState);
  window.addEventListener('beforeunload', beforeUnload);
  wireServiceWorker(rt, nav);
  return () => {
    document.removeEventListener('click', click);
    window.removeEventListener('popstate', nav.onPopState);
    window.removeEventListener('beforeunload', beforeUnload);
  };
}
