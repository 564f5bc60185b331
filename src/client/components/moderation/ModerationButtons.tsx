import { useState } from 'react';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { Icon } from '../Icon';
import { SanctionDialog } from './SanctionDialog';

/**
 * A moderator's tools on a member's profile: ban or unban (the ban dialog with the forum's
 * preset reasons, read from the member's info page data when opened) and a link to the info page.
 */
export function ModerationButtons({ uid, userslug, username, banned }: { uid: number; userslug: string; username: string; banned: boolean }) {
  const { t } = useT();
  const rt = useRuntime();
  const rp = rt.config.relative_path;
  const [reasons, setReasons] = useState<string[] | null>(null);
  const reload = () => rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });

  const openBan = async () => {
    try {
      const res = await fetch(`${rp}/api/user/${encodeURIComponent(userslug)}/info`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      const data = (await res.json()) as { banReasons?: string[] };
      setReasons(data.banReasons ?? []);
    } catch {
      setReasons([]);
    }
  };
  const unban = async () => {
    try {
      await api(rt.config, 'DELETE', `/users/${uid}/ban`);
      rt.alert({ type: 'success', message: t('user:unban.success') });
      reload();
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    }
  };

  return (
    <div className="d-flex flex-nowrap gap-1 justify-content-center text-nowrap" data-testid="moderation-buttons">
      {banned ? (
        <button type="button" className="btn btn-sm btn-outline-success" onClick={() => void unban()}>
          {t('user:unban-account')}
        </button>
      ) : (
        <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void openBan()}>
          <Icon name="lock" size={14} /> <span>{t('user:ban-account')}</span>
        </button>
      )}
      <a className="btn btn-sm btn-outline-secondary" href={`${rp}/user/${encodeURIComponent(userslug)}/info`}>
        {t('user:info')}
      </a>
      {reasons && (
        <SanctionDialog
          kind="ban"
          uid={uid}
          username={username}
          reasons={reasons}
          onClose={() => setReasons(null)}
          onDone={() => {
            setReasons(null);
            reload();
          }}
        />
      )}
    </div>
  );
}
