import { useEffect, useState } from 'react';
import type { AccountGroupsPage } from '../../../shared/schemas/group';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { GroupBadge } from '../../components/GroupBadge';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { badgeOf, GroupKind } from '../groups/shared';
import { AccountNav } from './AccountNav';

// The groups whose badge the member shows, in their order.
const ordered = (data: AccountGroupsPage) => data.groups.filter((g) => g.badge > 0).sort((a, b) => a.badge - b.badge).map((g) => g.name);

/** The account page `groups`: the member's groups; on their own page, which badges they show and their invitations. */
export default function AccountGroups({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const rp = rt.config.relative_path;
  const data = page as AccountGroupsPage;
  const [shown, setShown] = useState<string[]>(() => ordered(data));
  const [busy, setBusy] = useState(false);
  useEffect(() => setShown(ordered(data)), [data]);

  const toggle = async (name: string, on: boolean) => {
    const next = on ? [...shown, name] : shown.filter((n) => n !== name);
    setBusy(true);
    try {
      await api(rt.config, 'PUT', `/users/${data.uid}/group-titles`, { groupTitle: next });
      setShown(next);
      rt.alert({ type: 'success', message: t('groups:badges-saved') });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const answer = async (slug: string, accept: boolean) => {
    try {
      await api(rt.config, accept ? 'PUT' : 'DELETE', `/groups/${encodeURIComponent(slug)}/invites/${data.uid}`);
      rt.navigate(window.location.pathname, { replace: true, force: true });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    }
  };

  return (
    <>
      <AccountNav userslug={data.userslug} active="groups" own={data.isSelf} />
      <PageHeader title={t('groups:my-groups', data.displayname)} icon={<Icon name="users" size={28} />} />
      {data.invites.length > 0 && (
        <section className="card mb-3" aria-labelledby="account-invites">
          <div className="card-header"><h2 id="account-invites" className="h6 mb-0">{t('groups:your-invitations')}</h2></div>
          <ul className="list-group list-group-flush">
            {data.invites.map((g) => (
              <li key={g.slug} className="list-group-item d-flex flex-wrap gap-2 align-items-center">
                <a href={`${rp}/groups/${encodeURIComponent(g.slug)}`} className="flex-grow-1 fw-semibold">{g.displayName}</a>
                <button type="button" className="btn btn-sm btn-success" onClick={() => void answer(g.slug, true)}>{t('groups:membership.accept-invitation')}</button>
                <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void answer(g.slug, false)}>{t('groups:membership.reject')}</button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {data.groups.length ? (
        <ul className="list-group mb-3" data-testid="account-groups">
          {data.groups.map((g) => (
            <li key={g.slug} className="list-group-item d-flex flex-wrap gap-2 align-items-center" data-group={g.slug}>
              <div className="flex-grow-1 min-w-0 d-flex flex-wrap gap-2 align-items-center">
                <a href={`${rp}/groups/${encodeURIComponent(g.slug)}`} className="fw-semibold text-break">{g.displayName}</a>
                {g.userTitleEnabled ? <GroupBadge group={badgeOf(g)} /> : null}
                <GroupKind group={g} />
                {g.isOwner && <span className="badge text-bg-info">{t('groups:owner')}</span>}
              </div>
              {data.isSelf && g.userTitleEnabled ? (
                <div className="form-check form-switch mb-0">
                  <input className="form-check-input" type="checkbox" role="switch" id={`badge-${g.slug}`} checked={shown.includes(g.name)} disabled={busy} onChange={(e) => void toggle(g.name, e.target.checked)} />
                  <label className="form-check-label small" htmlFor={`badge-${g.slug}`}>{t('groups:show-badge')}</label>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <div className="card card-body text-center text-body-secondary py-4">{t('groups:no-groups-found')}</div>
      )}
    </>
  );
}
