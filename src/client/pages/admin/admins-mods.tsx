import { useState } from 'react';
import type { AdminsModsPage, CategoryModerators } from '../../../shared/schemas/admin-shell';
import type { PageBase, UserSummary } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Avatar } from '../../components/Avatar';
import { PageHeader } from '../../components/PageHeader';
import { errorText } from '../../i18n';
import { UserPicker } from '../chats/UserPicker';

/** One list of people with a remove button each and a member search to add one. */
function People({ title, id, people, onAdd, onRemove, busy }: { title: string; id: string; people: UserSummary[]; onAdd: (uid: number) => void; onRemove: (u: UserSummary) => void; busy: boolean }) {
  const { t } = useT();
  const rt = useRuntime();
  const [adding, setAdding] = useState(false);
  return (
    <section className="card mb-3" aria-labelledby={`${id}-title`} data-testid={id}>
      <div className="card-header d-flex align-items-center gap-2">
        <h2 id={`${id}-title`} className="h6 mb-0 flex-grow-1 text-break" dir="auto">{title}</h2>
        <button type="button" className="btn btn-sm btn-outline-primary" aria-expanded={adding} onClick={() => setAdding((a) => !a)} disabled={busy}>
          {t('admin:admins-mods.add')}
        </button>
      </div>
      <div className="card-body">
        {adding && (
          <div className="mb-3">
            <UserPicker label={t('admin:admins-mods.search', title)} exclude={people.map((p) => p.uid)} onPick={(u) => { setAdding(false); onAdd(u.uid); }} />
          </div>
        )}
        {people.length === 0 ? (
          <p className="text-body-secondary small mb-0">{t('admin:admins-mods.none')}</p>
        ) : (
          <ul className="list-unstyled d-flex flex-wrap gap-2 mb-0">
            {people.map((u) => (
              <li key={u.uid} className="d-inline-flex align-items-center gap-2 border rounded-pill ps-1 pe-2 py-1">
                <Avatar user={u} size="sm" />
                <a href={`${rt.config.relative_path}/user/${u.userslug}`} className="text-decoration-none">{u.displayname || u.username}</a>
                <button type="button" className="btn-close btn-sm" aria-label={t('admin:admins-mods.remove', u.username)} onClick={() => onRemove(u)} disabled={busy} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** Manage → Admins & mods: administrators, global moderators and each category's moderators. */
export default function AdminsMods({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const data = page as AdminsModsPage;
  const [busy, setBusy] = useState(false);
  const reload = () => rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });
  const run = async (call: () => Promise<unknown>, message: string) => {
    setBusy(true);
    try {
      await call();
      rt.alert({ type: 'success', message, timeout: 3000 });
      reload();
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const membership = (slug: string, join: boolean) => (uid: number) =>
    void run(() => api(rt.config, join ? 'PUT' : 'DELETE', `/groups/${encodeURIComponent(slug)}/membership/${uid}`), t(join ? 'admin:admins-mods.added' : 'admin:admins-mods.removed'));
  const moderator = (c: CategoryModerators, on: boolean) => (uid: number) =>
    void run(() => api(rt.config, on ? 'PUT' : 'DELETE', `/categories/${c.cid}/moderator/${uid}`), t(on ? 'admin:admins-mods.added' : 'admin:admins-mods.removed'));
  return (
    <div className="admin-admins-mods">
      <PageHeader title={t('admin:nav.admins-mods')} subtitle={t('admin:admins-mods.intro')} />
      <People title={t('admin:admins-mods.admins')} id="admins" people={data.admins.members} busy={busy} onAdd={membership(data.admins.slug, true)} onRemove={(u) => membership(data.admins.slug, false)(u.uid)} />
      <People title={t('admin:admins-mods.global-mods')} id="global-mods" people={data.globalMods.members} busy={busy} onAdd={membership(data.globalMods.slug, true)} onRemove={(u) => membership(data.globalMods.slug, false)(u.uid)} />
      <h2 className="h5 mt-4 mb-3">{t('admin:admins-mods.category-mods')}</h2>
      {data.categoryMods.length === 0 && <p className="text-body-secondary">{t('admin:admins-mods.no-categories')}</p>}
      {data.categoryMods.map((c) => (
        <People key={c.cid} title={c.parentCid ? `↳ ${c.name}` : c.name} id={`category-${c.cid}`} people={c.moderators} busy={busy} onAdd={moderator(c, true)} onRemove={(u) => moderator(c, false)(u.uid)} />
      ))}
    </div>
  );
}
