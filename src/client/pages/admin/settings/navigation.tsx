import { useEffect, useState } from 'react';
import type { NavEntry } from '../../../../shared/navigation';
import type { AdminNavigationPage } from '../../../../shared/schemas/admin-settings';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { Icon } from '../../../components/Icon';
import { ICON_PATHS } from '../../../components/icon-paths';
import { PageHeader } from '../../../components/PageHeader';
import { errorText } from '../../../i18n';

const UNSAVED = 'admin-navigation';
const ICONS = Object.keys(ICON_PATHS).sort();
const blank = (): NavEntry => ({ route: '/', text: '', icon: 'more', enabled: true, members: false, mobile: false, newTab: false });

/**
 * The navigation editor (NodeBB's /admin/settings/navigation): the sidebar's and bottom bar's
 * entries in order, each switched on or off, its text, address, icon and who sees it; one Save.
 */
export default function AdminNavigation({ page }: { page: PageBase }) {
  const data = page as AdminNavigationPage;
  const { t, tx } = useT();
  const rt = useRuntime();
  const [saved, setSaved] = useState(JSON.stringify(data.navigation));
  const [items, setItems] = useState<NavEntry[]>(data.navigation);
  const [busy, setBusy] = useState(false);
  const dirty = JSON.stringify(items) !== saved;
  useEffect(() => {
    rt.setUnsaved(UNSAVED, dirty);
  }, [rt, dirty]);
  useEffect(() => () => rt.setUnsaved(UNSAVED, false), [rt]);

  const change = (i: number, patch: Partial<NavEntry>) => setItems((list) => list.map((e, j) => (j === i ? { ...e, ...patch } : e)));
  const move = (i: number, by: -1 | 1) =>
    setItems((list) => {
      const j = i + by;
      if (j < 0 || j >= list.length) return list;
      const next = [...list];
      [next[i], next[j]] = [next[j]!, next[i]!];
      return next;
    });
  const save = async () => {
    setBusy(true);
    try {
      const value = JSON.stringify(items);
      await api(rt.config, 'PUT', '/admin/settings', { values: { navigation: value } });
      setSaved(value);
      rt.alert({ type: 'success', title: t('admin-settings:saved'), message: t('admin-settings:navigation.saved-note'), timeout: 5000 });
    } catch (err) {
      rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title={t('admin-settings:page.navigation')} subtitle={dirty ? <span className="text-warning-emphasis">{t('admin-settings:navigation.unsaved')}</span> : undefined}>
        <button type="button" className="btn btn-outline-secondary" onClick={() => setItems(data.defaults)}>{t('admin-settings:navigation.defaults')}</button>
        <button type="button" className="btn btn-primary" disabled={!dirty || busy} onClick={() => void save()} data-testid="navigation-save">
          {t(busy ? 'admin-settings:saving' : 'admin-settings:save')}
        </button>
      </PageHeader>
      <p className="text-body-secondary small">{t('admin-settings:navigation.help')}</p>
      <ol className="list-unstyled d-flex flex-column gap-2" data-testid="navigation-items">
        {items.map((e, i) => (
          <li key={i} className={`card${e.enabled ? '' : ' opacity-75'}`} aria-label={tx(e.text) || t('admin-settings:navigation.new')}>
            <div className="card-body d-flex flex-column gap-2">
              <div className="d-flex flex-wrap align-items-center gap-2">
                <Icon name={e.icon} />
                <strong className="flex-grow-1 text-truncate">{tx(e.text) || t('admin-settings:navigation.new')}</strong>
                <div className="form-check form-switch mb-0">
                  <input className="form-check-input" type="checkbox" role="switch" id={`nav-enabled-${i}`} checked={e.enabled} onChange={() => change(i, { enabled: !e.enabled })} />
                  <label className="form-check-label small" htmlFor={`nav-enabled-${i}`}>{t('admin-settings:navigation.enabled')}</label>
                </div>
                <div className="btn-group btn-group-sm">
                  <button type="button" className="btn btn-outline-dark" disabled={i === 0} onClick={() => move(i, -1)} aria-label={t('admin-settings:navigation.up', tx(e.text))}>↑</button>
                  <button type="button" className="btn btn-outline-dark" disabled={i === items.length - 1} onClick={() => move(i, 1)} aria-label={t('admin-settings:navigation.down', tx(e.text))}>↓</button>
                  <button type="button" className="btn btn-outline-danger" onClick={() => setItems((list) => list.filter((_, j) => j !== i))} aria-label={t('admin-settings:navigation.remove', tx(e.text))}>×</button>
                </div>
              </div>
              <div className="row g-2">
                <label className="col-12 col-md-4 small">
                  {t('admin-settings:navigation.text')}
                  <input className="form-control form-control-sm" value={e.text} maxLength={100} onChange={(ev) => change(i, { text: ev.target.value })} />
                </label>
                <label className="col-12 col-md-4 small">
                  {t('admin-settings:navigation.route')}
                  <input className="form-control form-control-sm" value={e.route} maxLength={500} onChange={(ev) => change(i, { route: ev.target.value })} />
                </label>
                <label className="col-12 col-md-4 small">
                  {t('admin-settings:navigation.icon')}
                  <select className="form-select form-select-sm" value={e.icon} onChange={(ev) => change(i, { icon: ev.target.value })}>
                    {(ICONS.includes(e.icon) ? ICONS : [e.icon, ...ICONS]).map((name) => (
                      <option key={name} value={name}>{name}</option>
                    ))}
                  </select>
                </label>
              </div>
              <div className="d-flex flex-wrap gap-3 small">
                {(['members', 'mobile', 'newTab'] as const).map((k) => (
                  <div key={k} className="form-check mb-0">
                    <input className="form-check-input" type="checkbox" id={`nav-${k}-${i}`} checked={e[k]} onChange={() => change(i, { [k]: !e[k] })} />
                    <label className="form-check-label" htmlFor={`nav-${k}-${i}`}>{t(`admin-settings:navigation.${k}`)}</label>
                  </div>
                ))}
              </div>
            </div>
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn-outline-primary" onClick={() => setItems((list) => [...list, blank()])}>{t('admin-settings:navigation.add')}</button>
    </>
  );
}
