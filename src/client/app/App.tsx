import { useEffect } from 'react';
import ThemeProvider from 'react-bootstrap/ThemeProvider';
import { languageDir } from '../../shared/languages';
import { LanguageMenu } from '../components/LanguageMenu';
import { useT } from './hooks';
import { RuntimeContext, useRuntime, type Runtime } from './runtime';
import { useStore } from '../state/store';
import { templateName, type PageComponent } from '../pages/registry';
import { Sidebar } from '../components/Sidebar';
import { CookieConsent } from '../components/CookieConsent';
import { BottomBar } from '../components/BottomBar';
import { Alerts } from '../components/Alerts';
import { ProgressBar } from '../components/ProgressBar';
import { Composer } from '../components/composer/Composer';
import { ChatDock } from '../components/chats/ChatDock';
import { WidgetArea, useHasSidebarWidgets } from '../components/Widgets';
import { Breadcrumbs } from '../components/Breadcrumbs';
import { ConnectionIndicator } from '../components/ConnectionIndicator';
import { SessionDialog } from '../components/SessionDialog';
import { AdminLayout } from '../pages/admin/AdminLayout';

/** Resolves the component of a template (static on the server, preloaded chunks in the browser). */
export type ComponentResolver = (template: string) => PageComponent | undefined;

function Content({ resolve }: { resolve: ComponentResolver }) {
  const rt = useRuntime();
  const { t } = useT();
  const { page, loading, seq } = useStore(rt.page);
  const sidebar = useHasSidebarWidgets();
  const Page = resolve(templateName(page)) ?? resolve('404');
  const body = Page ? <Page key={seq} page={page} /> : null;
  return (
    <main id="content" className={`content container-xxl flex-grow-1 py-3 px-3 px-lg-4${loading ? ' is-loading' : ''}`} aria-busy={loading} tabIndex={-1}>
      {rt.config.customHTML ? <div className="custom-header mb-3" dangerouslySetInnerHTML={{ __html: rt.config.customHTML }} /> : null}
      <WidgetArea area="header" className="mb-3" />
      <Breadcrumbs items={page.breadcrumbs} />
      {sidebar ? (
        <div className="row g-4">
          <div className="col-lg-9">{body}</div>
          <aside className="col-lg-3" aria-label={t('global:sidebar-widgets')}>
            <WidgetArea area="sidebar" />
          </aside>
        </div>
      ) : (
        body
      )}
    </main>
  );
}


/** An admin page: the admin area's layout, without the forum's sidebar, widgets or composer. */
function AdminShell({ resolve }: { resolve: ComponentResolver }) {
  const rt = useRuntime();
  const { page, seq } = useStore(rt.page);
  const Page = resolve(templateName(page)) ?? resolve('404');
  return <AdminLayout>{Page ? <Page key={seq} page={page} /> : null}</AdminLayout>;
}

function Shell({ resolve }: { resolve: ComponentResolver }) {
  const { t } = useT();
  const rt = useRuntime();
  const { sidebarOpen } = useStore(rt.ui);
  const { page } = useStore(rt.page);
  if (templateName(page).startsWith('admin/') || templateName(page) === 'admin') return <AdminShell resolve={resolve} />;
  return (
    <div className={`layout d-flex${sidebarOpen ? ' sidebar-open' : ''}`}>
      <a href="#content" className="visually-hidden-focusable skip-link" data-ajaxify="false">
        {t('global:skip-to-content')}
      </a>
      <ProgressBar />
      <Sidebar />
      <div className="layout-main d-flex flex-column flex-grow-1 min-vh-100">
        <header className="brand-header d-lg-none px-3 py-2 border-bottom">
          <a href={`${rt.config.relative_path}/`} className="fw-semibold text-decoration-none text-reset">{rt.config.siteTitle}</a>
        </header>
        <Content resolve={resolve} />
        <footer className="site-footer container-xxl px-3 px-lg-4 pb-5 pb-lg-3">
          <WidgetArea area="footer" />
          <LanguageMenu />
        </footer>
        <CookieConsent />
      </div>
      <BottomBar />
      <Composer />
      <ChatDock />
      <Alerts />
      <ConnectionIndicator />
      <SessionDialog />
    </div>
  );
}

/** Calls `onMount` once the tree is committed (after hydration: state may change from then on). */
function Mounted({ onMount }: { onMount?: () => void }) {
  useEffect(() => onMount?.(), []);
  return null;
}

/**
 * The whole app: runtime and translations around the layout and the page of the moment.
 * react-bootstrap is told the page's direction, so on ar, he and fa pages its dropdowns, menus
 * and drawers open towards the mirrored side (Popper's start/end placements flipped).
 */
export function App({ runtime, resolve, onMount }: { runtime: Runtime; resolve: ComponentResolver; onMount?: () => void }) {
  const dir = languageDir(runtime.config.userLang || runtime.config.defaultLang);
  return (
    <ThemeProvider dir={dir}>
      <RuntimeContext.Provider value={runtime}>
        <Shell resolve={resolve} />
        <Mounted onMount={onMount} />
      </RuntimeContext.Provider>
    </ThemeProvider>
  );
}
