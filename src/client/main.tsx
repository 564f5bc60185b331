// Bootstrap itself is not bundled: the server links its LTR or RTL build by the page's
// direction (assets/bootstrap/, vite.config.ts), ahead of these.
import './styles/app.css';
import './styles/chats.css';
import { hydrateRoot, createRoot } from 'react-dom/client';
import type { ClientConfig, PageBase } from '../shared/types';
import { DEFAULT_LANGUAGE } from '../shared/constants';
import { App } from './app/App';
import { createRuntime } from './app/runtime';
import { applySkin, guestSettings } from './app/settings';
import { createI18n, ensureNamespaces, loadLanguages, onMissingNamespace, pageNamespaces, translate } from './i18n';
import { holdEarlyClicks } from './navigation/early-clicks';
import { createNavigator, RETURN_TO_KEY } from './navigation/navigator';
import { scrollToPostIndex } from './navigation/scroll';
import { wireNavigation } from './navigation/wire';
import { getLoadedComponent, loadPageComponent } from './pages/loaders';
import { moduleFor, templateName } from './pages/registry';
import { migrateGuestDrafts } from './state/drafts';
import { openComposer } from './components/composer/actions';

// Installed first: clicks on buttons before the app is ready are replayed once it is.
const earlyClicks = holdEarlyClicks(document);

function readJson<T>(id: string): T | null {
  const el = document.getElementById(id);
  if (!el?.textContent) return null;
  try {
    return JSON.parse(el.textContent) as T;
  } catch (err) {
    console.error(`[boot] #${id} is not valid JSON`, err);
    return null;
  }
}

async function boot(): Promise<void> {
  const page = readJson<PageBase>('page-data');
  const config = readJson<ClientConfig>('client-config');
  const root = document.getElementById('app');
  if (!page || !config || !root) {
    console.error('[boot] page data, client config or #app missing');
    return;
  }
  // The server chose it (member's setting, guest's cookie or browser, the forum's default).
  const lang = config.userLang || DEFAULT_LANGUAGE;
  const template = templateName(page);
  const base = config.asset_base_url;
  const buster = config['cache-buster'];
  // Only the language namespaces this page needs (its shell's, its module's, its data's markers).
  const namespaces = pageNamespaces(location.pathname.slice(config.relative_path.length), template, moduleFor(template), document.getElementById('page-data')?.textContent ?? '');
  const [resources] = await Promise.all([
    loadLanguages(base, lang, buster, namespaces),
    loadPageComponent(template).catch((err: unknown) => console.error(err)),
  ]);
  const rt = createRuntime(page, config, createI18n(lang, resources), false, location.href);
  // A key of a namespace not loaded: load it and render again.
  onMissingNamespace(rt.i18n, (ns) => void ensureNamespaces(rt.i18n, base, buster, [ns]).then(() => rt.page.set((s) => ({ ...s }))));
  // A page the browser goes to: its chunk and the namespaces it needs beyond those loaded.
  const loadTemplate = async (name: string, next?: PageBase) => {
    const [component] = await Promise.all([loadPageComponent(name), ensureNamespaces(rt.i18n, base, buster, pageNamespaces('', name, moduleFor(name), next ? JSON.stringify(next) : ''))]);
    return component;
  };
  const nav = createNavigator(rt, loadTemplate);
  rt.navigate = (url, opts) => void nav.go(url, opts);
  rt.openComposer = (req) => void openComposer(rt, req);

  const uid = page.loggedInUser?.uid ?? 0;
  // Runs once the server render is hydrated: stores may change only from then on, or React
  // finds the tree different from the server's HTML.
  const onMount = () => {
    rt.drafts.set(migrateGuestDrafts(localStorage, uid));
    if (uid <= 0) {
      const saved = guestSettings();
      if (saved.bootswatchSkin !== undefined) applySkin(rt, saved.bootswatchSkin);
      if (saved.openSidebars) rt.ui.set((s) => ({ ...s, sidebarOpen: saved.openSidebars === 'on' }));
    }
    // A first page answered 401 (a members' page opened as a visitor) goes to login, as an
    // in-page navigation would (spec §6), and comes back here after logging in.
    if (uid <= 0 && (page as PageBase & { status?: number }).status === 401) {
      sessionStorage.setItem(RETURN_TO_KEY, location.href);
      rt.alert({ type: 'danger', title: translate(rt.i18n, 'global:alert.error'), message: translate(rt.i18n, 'error:not-logged-in') });
      void nav.go(`${config.relative_path}/login`, { replace: true, force: true });
    }
    if (page.postIndex && page.postIndex > 1) requestAnimationFrame(() => scrollToPostIndex(page.postIndex! - 1));
    document.documentElement.dataset.loaded = 'true';
    window.dispatchEvent(new Event('palaver:loaded'));
    // Replayed now that React has attached its handlers to the hydrated tree.
    earlyClicks.release();
  };
  const app = <App runtime={rt} resolve={getLoadedComponent} onMount={onMount} />;
  wireNavigation(rt, nav);
  if (root.hasChildNodes()) hydrateRoot(root, app);
  else createRoot(root).render(app);

  // The live connection is for members only; its library loads only for them.
  if (uid > 0) {
    void import('./realtime/socket')
      .then((m) => m.startSocket(rt))
      .catch((err: unknown) => console.error('[socket]', err));
  }
}

void boot();
