import 'bootstrap/dist/css/bootstrap.min.css';
import './styles/app.css';
import { hydrateRoot, createRoot } from 'react-dom/client';
import type { ClientConfig, PageBase } from '../shared/types';
import { DEFAULT_LANGUAGE } from '../shared/constants';
import { App } from './app/App';
import { createRuntime } from './app/runtime';
import { applySkin, guestSettings } from './app/settings';
import { createI18n, loadLanguages } from './i18n';
import { holdEarlyClicks } from './navigation/early-clicks';
import { createNavigator } from './navigation/navigator';
import { scrollToPostIndex } from './navigation/scroll';
import { wireNavigation } from './navigation/wire';
import { getLoadedComponent, loadPageComponent } from './pages/loaders';
import { templateName } from './pages/registry';
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
  const lang = page.loggedInUser?.settings?.userLang || config.userLang || DEFAULT_LANGUAGE;
  const [resources] = await Promise.all([
    loadLanguages(config.relative_path, lang, config['cache-buster']),
    loadPageComponent(templateName(page)).catch((err: unknown) => console.error(err)),
  ]);
  const rt = createRuntime(page, config, createI18n(lang, resources), false, location.href);
  const nav = createNavigator(rt, loadPageComponent);
  rt.navigate = (url, opts) => void nav.go(url, opts);
  rt.openComposer = (req) => void openComposer(rt, req);

  const app = <App runtime={rt} resolve={getLoadedComponent} />;
  if (root.hasChildNodes()) hydrateRoot(root, app);
  else createRoot(root).render(app);

  wireNavigation(rt, nav);
  const uid = page.loggedInUser?.uid ?? 0;
  rt.drafts.set(migrateGuestDrafts(localStorage, uid));
  if (uid <= 0) {
    const saved = guestSettings();
    if (saved.bootswatchSkin !== undefined) applySkin(rt, saved.bootswatchSkin);
    if (saved.openSidebars) rt.ui.set((s) => ({ ...s, sidebarOpen: saved.openSidebars === 'on' }));
  }
  // The live connection is for members only; its library loads only for them.
  if (uid > 0) {
    void import('./realtime/socket')
      .then((m) => m.startSocket(rt))
      .catch((err: unknown) => console.error('[socket]', err));
  }
  if (page.postIndex && page.postIndex > 1) requestAnimationFrame(() => scrollToPostIndex(page.postIndex! - 1));

  document.documentElement.dataset.loaded = 'true';
  window.dispatchEvent(new Event('palaver:loaded'));
  // Replayed on the next frame, once React has attached its handlers to the hydrated tree.
  requestAnimationFrame(() => earlyClicks.release());
}

void boot();
