import { useEffect, useState, type FormEvent } from 'react';
import type { BlocksPage } from '../../../shared/schemas/account-data';
import type { UserObjectSlim } from '../../../shared/schemas/user';
import type { PageBase } from '../../../shared/types';
import { slugify } from '../../../shared/slug';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Pagination } from '../../components/Pagination';
import { errorText } from '../../i18n';
import { userPath } from '../../util/urls';
import { AccountNav } from './AccountNav';

/** The account page `blocks`: the members the member blocked, a form to block one by username, unblock buttons. */
export default function Blocks({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const rp = rt.config.relative_path;
  const data = page as BlocksPage;
  const [users, setUsers] = useState<UserObjectSlim[]>(data.users ?? []);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setUsers(data.users ?? []), [data.users]);
  const fail = (err: unknown) => rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });

  const block = async (e: FormEvent) => {
    e.preventDefault();
    const wanted = name.trim();
    if (!wanted) return;
    setBusy(true);
    try {
      // The profile's page data names the member's uid: the same lookup a profile link makes.
      const res = await fetch(`${rp}/api${userPath(slugify(wanted))}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      const found = res.ok ? ((await res.json()) as UserObjectSlim) : null;
      if (!found?.uid) {
        rt.alert({ type: 'warning', message: t('user:blocks.not-found', wanted) });
        return;
      }
      await api(rt.config, 'PUT', `/users/${found.uid}/block`);
      setUsers((list) => [found, ...list.filter((u) => u.uid !== found.uid)]);
      setName('');
      rt.alert({ type: 'success', message: t('user:blocks.blocked', found.username) });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const unblock = async (u: UserObjectSlim) => {
    try {
      await api(rt.config, 'DELETE', `/users/${u.uid}/block`);
      setUsers((list) => list.filter((x) => x.uid !== u.uid));
      rt.alert({ type: 'success', message: t('user:blocks.unblocked', u.username) });
    } catch (err) {
      fail(err);
    }
  };

  return (
    <>
      <AccountNav userslug={data.userslug} active="blocks" own />
      <PageHeader title={t('user:blocks')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="x" size={28} />} />
      <p className="text-body-secondary">{t('user:blocks.intro')}</p>
      {data.isSelf && (
        <form className="d-flex flex-wrap gap-2 mb-3" onSubmit={(e) => void block(e)} data-testid="block-form">
          <label className="visually-hidden" htmlFor="block-username">
            {t('user:blocks.add-label')}
          </label>
          <input
            id="block-username"
            className="form-control flex-grow-1"
            style={{ maxWidth: '24rem' }}
            placeholder={t('user:blocks.add-label')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
            maxLength={200}
          />
          <button type="submit" className="btn btn-danger" disabled={busy || !name.trim()}>
            {t('user:blocks.add')}
          </button>
        </form>
      )}
      {users.length ? (
        <ul className="list-group mb-3" data-testid="blocks-list">
          {users.map((u) => (
            <li key={u.uid} className="list-group-item d-flex gap-3 align-items-center" data-uid={u.uid}>
              <Avatar user={u} size="md" />
              <a href={`${rp}${userPath(u.userslug)}`} className="fw-semibold flex-grow-1 text-truncate">
                {u.displayname}
              </a>
              {data.isSelf && (
                <button
                  type="button"
                  className="btn btn-sm btn-outline-secondary"
                  onClick={() => void unblock(u)}
                  aria-label={`${t('user:blocks.unblock')}: ${u.username}`}
                >
                  {t('user:blocks.unblock')}
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <div className="alert alert-secondary" data-testid="blocks-none">
          {t('user:blocks.none')}
        </div>
      )}
      <Pagination pagination={data.pagination} />
    </>
  );
}
