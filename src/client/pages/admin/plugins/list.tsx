import { useState } from 'react';
import type { AdminPluginsPage } from '../../../../shared/schemas/admin-appearance';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { PageHeader } from '../../../components/PageHeader';
import { errorText } from '../../../i18n';

/** The admin's plugins page: the built-in plugins, on or off, each with its settings page. */
export default function AdminPlugins({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminPluginsPage;
  const [active, setActive] = useState<Record<string, boolean>>(Object.fromEntries(data.installed.map((p) => [p.id, p.active])));
  const toggle = async (id: string, on: boolean) => {
    const next = { ...active, [id]: on };
    const disabled = data.installed.filter((p) => p.toggleable && !next[p.id]).map((p) => p.id).join(',');
    // The switch moves at once; it goes back if the save fails.
    setActive(next);
    try {
      await api(rt.config, 'PUT', `/admin/settings/${encodeURIComponent('plugins:disabled')}`, { value: disabled });
      rt.alert({ type: 'success', message: t(on ? 'admin-extend:plugins.enabled' : 'admin-extend:plugins.disabled'), timeout: 3000 });
    } catch (err) {
      setActive((old) => ({ ...old, [id]: !on }));
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    }
  };
  const count = Object.values(active).filter(Boolean).length;
  return (
    <>
      <PageHeader title={t('admin-extend:plugins.title')} subtitle={t('admin-extend:plugins.counts', count, data.installedCount)} />
      <p className="text-body-secondary small">{t('admin-extend:plugins.intro')}</p>
      <ul className="list-group">
        {data.installed.map((p) => (
          <li key={p.id} className="list-group-item d-flex flex-column flex-md-row gap-2 align-items-md-center" data-plugin={p.id}>
            <div className="me-md-auto">
              <div className="d-flex flex-wrap align-items-center gap-2">
                <strong>{t(p.title)}</strong>
                <code className="small">{p.name}</code>
                <span className={`badge ${active[p.id] ? 'text-bg-success' : 'text-bg-secondary'}`}>{t(active[p.id] ? 'admin-extend:plugins.active' : 'admin-extend:plugins.inactive')}</span>
              </div>
              <div className="small">{t(p.description)}</div>
              {!p.toggleable && <div className="small text-body-secondary">{t(p.lockedReason)}</div>}
            </div>
            <div className="d-flex align-items-center gap-3 flex-shrink-0">
              <div className="form-check form-switch mb-0">
                <input
                  className="form-check-input"
                  type="checkbox"
                  role="switch"
                  id={`plugin-${p.id}`}
                  checked={!!active[p.id]}
                  disabled={!p.toggleable}
                  onChange={(e) => void toggle(p.id, e.target.checked)}
                />
                <label className="form-check-label" htmlFor={`plugin-${p.id}`}>{t('admin-extend:plugins.on', t(p.title))}</label>
              </div>
              <a className="btn btn-sm btn-outline-primary" href={`${rt.config.relative_path}${p.settingsUrl}`}>{t('admin-extend:plugins.settings')}</a>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
