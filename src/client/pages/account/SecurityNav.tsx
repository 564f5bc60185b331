import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';

/** The account-security pages, in order: their path below /user/:userslug and their label key. */
const SECURITY_PAGES = [
  { id: 'password', path: '/edit/password', label: 'user:security.password' },
  { id: 'username', path: '/edit/username', label: 'user:security.username' },
  { id: 'email', path: '/edit/email', label: 'user:security.email' },
  { id: '2factor', path: '/2factor', label: 'user:security.two-factor', selfOnly: true },
  { id: 'sessions', path: '/sessions', label: 'user:security.sessions' },
  { id: 'tokens', path: '/tokens', label: 'user:security.tokens' },
];

/** Pills between the account-security pages (the account tab "Security" holds them all). */
export function SecurityNav({ userslug, active, isSelf }: { userslug: string; active: string; isSelf: boolean }) {
  const { t } = useT();
  const base = `${useRuntime().config.relative_path}/user/${encodeURIComponent(userslug)}`;
  return (
    <nav className="mb-3" aria-label={t('user:security.nav')}>
      <ul className="nav nav-pills flex-nowrap overflow-x-auto text-nowrap small gap-1">
        {SECURITY_PAGES.filter((p) => isSelf || !p.selfOnly).map((p) => (
          <li className="nav-item" key={p.id}>
            <a className={`nav-link py-1 px-2${p.id === active ? ' active' : ''}`} href={`${base}${p.path}`} aria-current={p.id === active ? 'page' : undefined}>
              {t(p.label)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
