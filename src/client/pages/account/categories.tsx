import { useState } from 'react';
import type { AccountCategoriesPage, AccountCategory } from '../../../shared/account';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { errorText } from '../../i18n';
import { AccountNav } from './AccountNav';

const STATES = ['watching', 'tracking', 'notwatching', 'ignoring'] as const;
type WatchState = (typeof STATES)[number];

const stateOf = (c: AccountCategory): WatchState => (c.isIgnored ? 'ignoring' : c.isNotWatched ? 'notwatching' : c.isTracked ? 'tracking' : 'watching');

/** Every category the member may read, with their watch state, changeable here (an admin changes it for the member). */
export default function AccountCategories({ page }: { page: PageBase }) {
  const data = page as AccountCategoriesPage;
  const { t } = useT();
  const rt = useRuntime();
  const rp = rt.config.relative_path;
  const [states, setStates] = useState<Record<number, WatchState>>(() => Object.fromEntries(data.categories.map((c) => [c.cid, stateOf(c)])));
  const choose = async (c: AccountCategory, state: WatchState) => {
    try {
      const res = await api<{ modified: string[] }>(rt.config, 'PUT', `/categories/${c.cid}/watch`, { state, ...(data.isSelf ? {} : { uid: data.uid }) });
      // A category's state goes to its descendants too.
      setStates((s) => ({ ...s, ...Object.fromEntries((res?.modified ?? [String(c.cid)]).map((cid) => [Number(cid), state])) }));
      rt.alert({ type: 'success', message: t('user:categories.changed') });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    }
  };
  return (
    <>
      <AccountNav userslug={data.userslug} active="categories" own />
      <PageHeader title={t('user:categories.title')} subtitle={data.isSelf ? t('user:categories.intro') : data.username} icon={<Icon name="grid" size={28} />} />
      <ul className="list-group mb-3" data-testid="account-categories">
        {data.categories.map((c) => (
          <li key={c.cid} className="list-group-item d-flex flex-wrap gap-2 align-items-center" style={{ paddingInlineStart: `${1 + c.depth * 1.25}rem` }} data-cid={c.cid}>
            <span className="d-inline-block rounded flex-shrink-0" aria-hidden="true" style={{ width: '0.75rem', height: '0.75rem', background: c.bgColor || '#6c757d' }} />
            <a className="flex-grow-1 text-break text-decoration-none" href={`${rp}/category/${c.slug}`} dir="auto">{c.name}</a>
            <label className="d-inline-flex align-items-center gap-2 small">
              <span className="visually-hidden">{t('category:watch-state')}: {c.name}</span>
              <select className="form-select form-select-sm w-auto" value={states[c.cid]} onChange={(e) => void choose(c, e.target.value as WatchState)} data-testid="account-category-watch">
                {STATES.map((s) => (
                  <option key={s} value={s}>{t(`user:watch.${s}`)}</option>
                ))}
              </select>
            </label>
          </li>
        ))}
      </ul>
    </>
  );
}
