import Dropdown, { toggleId } from './Dropdown';
import { useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { api, postSite } from '../app/api';
import { errorText } from '../i18n';
import type { Runtime } from '../app/runtime';
import { userPath } from '../util/urls';
import { Avatar } from './Avatar';
import { Icon } from './Icon';

const FIXED = { strategy: 'fixed' as const };

/** Logs out (POST /logout) and reloads fully: the session and token change. */
export async function logout(rt: ReturnType<typeof useRuntime>): Promise<void> {
  try {
    const res = await postSite<{ next?: string } | null>(rt.config, '/logout', {});
    location.href = res?.next ?? `${rt.config.relative_path}/`;
  } catch (err) {
    rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
  }
}

/** The statuses a member may choose (spec §1), and the title each shows on their own indicator. */
export const STATUSES = ['online', 'away', 'dnd', 'offline'] as const;
export type Status = (typeof STATUSES)[number];
const STATUS_TITLE: Record<Status, string> = { online: 'global:online', away: 'global:away', dnd: 'global:dnd', offline: 'global:invisible' };

/** The status shown for a stored value (anything unknown counts as online). */
export const statusOf = (value: string | undefined | null): Status => (STATUSES as readonly string[]).includes(value ?? '') ? (value as Status) : 'online';

/** The avatar menu's links to the member's own pages: path ('/user/' is the member's), icon, label. */
const MAIN_PAGES = [
  ['/user/edit', 'edit', 'user:account.edit'],
  ['/user/settings', 'palette', 'user:account.settings'],
  ['/user/bookmarks', 'bookmark', 'user:account.bookmarks'],
  ['/user/watched', 'eye', 'user:account.watched'],
  ['/user/chats', 'chat', 'global:header.chats'],
  ['/notifications', 'bell', 'global:header.notifications'],
] as const;

/** Records the member's status in the page data (the server has saved it already). */
export function showOwnStatus(rt: Runtime, status: Status): void {
  rt.page.set((s) => (s.page.loggedInUser && s.page.loggedInUser.status !== status ? { ...s, page: { ...s.page, loggedInUser: { ...s.page.loggedInUser, status } } } : s));
}

/** Saves the member's status (PUT /api/v3/users/:uid/status/:status) and shows it. */
async function chooseStatus(rt: Runtime, uid: number, status: Status): Promise<void> {
  try {
    await api(rt.config, 'PUT', `/users/${uid}/status/${status}`, {});
    showOwnStatus(rt, status);
  } catch (err) {
    rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
  }
}

/** The dot on a member's avatar: class `status <status>` and a translated title. */
export function StatusDot({ status }: { status: Status }) {
  const { t } = useT();
  return <span className={`status ${status}`} title={t(STATUS_TITLE[status])} />;
}

/** The member's menu (profile, status, logout), or login and register links for visitors. */
export function UserMenu({ drop = 'end', showLabel = false, onToggle }: { drop?: 'end' | 'up'; showLabel?: boolean; onToggle?: (open: boolean) => void }) {
  const { t } = useT();
  const rt = useRuntime();
  const user = useUser();
  const rp = rt.config.relative_path;
  if (!user) {
    return (
      <>
        <a className="btn nav-btn" href={`${rp}/login`} title={t('global:login')} aria-label={t('global:login')}>
          <Icon name="login" />
          {showLabel && <span className="nav-label">{t('global:login')}</span>}
        </a>
        {rt.config.allowRegistration && (
          <a className="btn nav-btn" href={`${rp}/register`} title={t('global:register')} aria-label={t('global:register')}>
            <Icon name="user-plus" />
            {showLabel && <span className="nav-label">{t('global:register')}</span>}
          </a>
        )}
      </>
    );
  }
  return (
    <Dropdown drop={drop} align={drop === 'end' ? 'end' : undefined} className="nav-dropdown" onToggle={onToggle}>
      <Dropdown.Toggle as="button" type="button" id={toggleId('user-menu', drop)} className="btn nav-btn no-caret" aria-label={t('global:user-menu', user.displayname)}>
        <span className="avatar-status">
          <Avatar user={user} size="sm" />
          <StatusDot status={statusOf(user.status)} />
        </span>
        {showLabel && <span className="nav-label text-truncate" dir="auto">{user.displayname}</span>}
      </Dropdown.Toggle>
      {/* Fixed in the sidebar, which clips what overflows it (overflow-x: hidden), and grown upwards from its toggle at the sidebar's foot. */}
      <Dropdown.Menu className="shadow" popperConfig={drop === 'end' ? FIXED : undefined}>
        <Dropdown.Header>{t('global:logged-in-as', user.displayname)}</Dropdown.Header>
        <Dropdown.Item href={`${rp}${userPath(user.userslug)}`}>
          <Icon name="user" size={16} className="me-2" />
          {t('global:header.profile')}
        </Dropdown.Item>
        {/* The member's main pages (NodeBB's avatar menu); the account navigation has the rest. */}
        {MAIN_PAGES.map(([path, icon, label]) => (
          <Dropdown.Item key={path} href={`${rp}${path.startsWith('/user/') ? `${userPath(user.userslug)}${path.slice(5)}` : path}`}>
            <Icon name={icon} size={16} className="me-2" />
            {t(label)}
          </Dropdown.Item>
        ))}
        {(user.isAdmin || user.isGlobalMod) && (
          // Into the admin area: a full page load (the navigator crosses that boundary so).
          <Dropdown.Item href={`${rp}${user.isAdmin ? '/admin' : '/admin/manage/users'}`} id="user-menu-admin">
            <Icon name="lock" size={16} className="me-2" />
            {t('global:header.admin')}
          </Dropdown.Item>
        )}
        {(user.isAdmin || user.isGlobalMod) && (
          <Dropdown.Item href={`${rp}/post-queue`}>
            <Icon name="check" size={16} className="me-2" />
            {t('pages:post-queue')}
          </Dropdown.Item>
        )}
        <Dropdown.Divider />
        <Dropdown.Header>{t('global:status.choose')}</Dropdown.Header>
        {STATUSES.map((status) => (
          <Dropdown.Item
            key={status}
            as="button"
            type="button"
            className="d-flex align-items-center status-choice"
            data-status={status}
            active={statusOf(user.status) === status}
            aria-current={statusOf(user.status) === status ? 'true' : undefined}
            onClick={() => void chooseStatus(rt, user.uid, status)}
          >
            <span className={`status-swatch status-${status} me-2`} aria-hidden="true" />
            {t(STATUS_TITLE[status])}
          </Dropdown.Item>
        ))}
        <Dropdown.Divider />
        <Dropdown.Item as="button" type="button" onClick={() => void logout(rt)}>
          <Icon name="logout" size={16} className="me-2" />
          {t('global:logout')}
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}
