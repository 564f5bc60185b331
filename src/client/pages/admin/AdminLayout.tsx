import { useState, type ReactNode } from 'react';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { useStore } from '../../state/store';
import { Alerts } from '../../components/Alerts';
import { ProgressBar } from '../../components/ProgressBar';
import { SessionDialog } from '../../components/SessionDialog';
import { activeEntry, adminNavFor } from './nav';

/**
 * The admin area's own layout (spec §2: a separate area): a top bar with the way back to the
 * forum (a full page load, as every crossing between the two areas is), the admin navigation
 * beside the page on desktops and behind a toggle on phones. No public sidebar, widgets or
 * composer here.
 */
export function AdminLayout({ children }: { children: ReactNode }) {
  const { t } = useT();
  const rt = useRuntime();
  const { page, loading, url } = useStore(rt.page);
  const [open, setOpen] = useState(false);
  const user = page.loggedInUser;
  const base = rt.config.relative_path;
  const current = activeEntry(new URL(url || '/', 'http://placeholder.invalid').pathname.slice(base.length) || '/');
  const sections = adminNavFor(Boolean(user?.isAdmin));
  return (
    <div className="admin-layout min-vh-100 d-flex flex-column">
      <a href="#content" className="visually-hidden-focusable skip-link" data-ajaxify="false">
        {t('global:skip-to-content')}
      </a>
      <ProgressBar />
      <header className="navbar navbar-expand-lg bg-body-tertiary border-bottom px-3 py-2 sticky-top">
        <button type="button" className="btn btn-outline-primary btn-sm d-lg-none me-2" aria-controls="admin-nav" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {t('admin:nav.menu')}
        </button>
        <a href={`${base}/admin`} className="navbar-brand fw-semibold me-auto">
          {t('admin:title', rt.config.siteTitle)}
        </a>
        <a href={`${base}/`} className="btn btn-outline-primary btn-sm" id="admin-view-forum">
          {t('admin:view-forum')}
        </a>
      </header>
      <div className="d-flex flex-grow-1">
        <nav id="admin-nav" aria-label={t('admin:nav.label')} className={`admin-nav border-end bg-body flex-shrink-0${open ? ' open' : ''}`} onClick={(e) => (e.target as HTMLElement).closest('a') && setOpen(false)}>
          {sections.map((s) => (
            <div key={s.id} className="mb-3">
              <h2 className="h6 text-uppercase small text-body-secondary px-3 mb-1">{t(s.label)}</h2>
              <ul className="nav flex-column">
                {s.entries.map((e) => (
                  <li key={e.path} className="nav-item">
                    <a href={`${base}${e.path}`} className={`nav-link py-1 px-3${current === e.path ? ' active fw-semibold' : ''}`} aria-current={current === e.path ? 'page' : undefined}>
                      {t(e.label)}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <main id="content" className={`admin-content flex-grow-1 min-w-0 p-3 p-lg-4${loading ? ' is-loading' : ''}`} aria-busy={loading} tabIndex={-1}>
          {children}
        </main>
      </div>
      <Alerts />
      <SessionDialog />
    </div>
  );
}
