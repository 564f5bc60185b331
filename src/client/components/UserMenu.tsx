import Dropdown from 'react-bootstrap/Dropdown';
import { useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { postSite } from '../app/api';
import { userPath } from '../util/urls';
import { Avatar } from './Avatar';
import { Icon } from './Icon';

/** Logs out (POST /logout) and reloads fully: the session and token change. */
export async function logout(rt: ReturnType<typeof useRuntime>): Promise<void> {
  try {
    const res = await postSite<{ next?: string } | null>(rt.config, '/logout', {});
    location.href = res?.next ?? `${rt.config.relative_path}/`;
  } catch (err) {
    rt.alert({ type: 'danger', message: (err as Error).message });
  }
}

/** The member's menu (profile, logout), or login and register links for visitors. */
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
    <Dropdown drop={drop} className="nav-dropdown" onToggle={onToggle}>
      <Dropdown.Toggle as="button" type="button" className="btn nav-btn no-caret" aria-label={t('global:user-menu', user.displayname)}>
        <Avatar user={user} size="sm" />
        {showLabel && <span className="nav-label text-truncate">{user.displayname}</span>}
      </Dropdown.Toggle>
      <Dropdown.Menu className="shadow">
        <Dropdown.Header>{t('global:logged-in-as', user.displayname)}</Dropdown.Header>
        <Dropdown.Item href={`${rp}${userPath(user.userslug)}`}>
          <Icon name="user" size={16} className="me-2" />
          {t('global:header.profile')}
        </Dropdown.Item>
        <Dropdown.Divider />
        <Dropdown.Item as="button" type="button" onClick={() => void logout(rt)}>
          <Icon name="logout" size={16} className="me-2" />
          {t('global:logout')}
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}
