import { useState, type FormEvent } from 'react';
import type { AdminRewardsPage, RewardRule } from '../../../shared/schemas/admin-privileges';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { PageHeader } from '../../components/PageHeader';

/** admin/extend/rewards: "when a member's <counter> reaches N, add them to group G"; enable, disable, delete. */
export default function AdminRewards({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminRewardsPage;
  const [condition, setCondition] = useState<string>(data.conditions[0]?.condition ?? 'postcount');
  const [value, setValue] = useState('10');
  const [group, setGroup] = useState(data.groups[0] ?? '');
  const [busy, setBusy] = useState(false);
  const cond = (c: string) => t(`admin-privileges:rewards.condition.${c}`);
  const reload = () => rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });
  const run = async (fn: () => Promise<unknown>, message: string) => {
    setBusy(true);
    try {
      await fn();
      rt.alert({ type: 'success', message, timeout: 3000 });
      reload();
    } catch (err) {
      rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const add = (e: FormEvent) => {
    e.preventDefault();
    void run(() => api(rt.config, 'POST', '/admin/rewards', { condition, value: Number(value), group }), t('admin-privileges:rewards.saved'));
  };
  const toggle = (r: RewardRule) => void run(() => api(rt.config, 'PUT', `/admin/rewards/${r.id}`, { disabled: !r.disabled }), t('admin-privileges:rewards.saved'));
  const del = (r: RewardRule) => {
    if (!window.confirm(t('admin-privileges:rewards.confirm-delete'))) return;
    void run(() => api(rt.config, 'DELETE', `/admin/rewards/${r.id}`), t('admin-privileges:rewards.deleted'));
  };
  return (
    <>
      <PageHeader title={t('admin-privileges:rewards.title')} />
      <p className="text-body-secondary small">{t('admin-privileges:rewards.help')}</p>
      <form className="card card-body mb-3" onSubmit={add} aria-labelledby="reward-new">
        <h2 id="reward-new" className="h6">{t('admin-privileges:rewards.new')}</h2>
        <div className="row g-2 align-items-end">
          <div className="col-12 col-md-4">
            <label htmlFor="reward-condition" className="form-label small mb-1">{t('admin-privileges:rewards.when')}</label>
            <select id="reward-condition" className="form-select form-select-sm" value={condition} onChange={(e) => setCondition(e.target.value)}>
              {data.conditions.map((c) => (
                <option key={c.condition} value={c.condition}>{cond(c.condition)}</option>
              ))}
            </select>
          </div>
          <div className="col-6 col-md-2">
            <label htmlFor="reward-value" className="form-label small mb-1">{t('admin-privileges:rewards.reaches')}</label>
            <input id="reward-value" type="number" min={1} step={1} className="form-control form-control-sm" value={value} onChange={(e) => setValue(e.target.value)} required />
          </div>
          <div className="col-6 col-md-4">
            <label htmlFor="reward-group" className="form-label small mb-1">{t('admin-privileges:rewards.add-to')}</label>
            <select id="reward-group" className="form-select form-select-sm" value={group} onChange={(e) => setGroup(e.target.value)} required>
              {!data.groups.length && <option value="">{t('admin-privileges:rewards.no-groups')}</option>}
              {data.groups.map((g) => (
                <option key={g} value={g}>{g}</option>
              ))}
            </select>
          </div>
          <div className="col-12 col-md-2">
            <button type="submit" className="btn btn-primary btn-sm w-100" disabled={busy || !group}>{t('admin-privileges:rewards.add')}</button>
          </div>
        </div>
      </form>
      {data.active.length ? (
        <ul className="list-group">
          {data.active.map((r) => (
            <li key={r.id} className={`list-group-item d-flex flex-wrap align-items-center gap-2 ${r.disabled ? 'text-body-secondary' : ''}`} data-testid="reward-rule">
              <span className="me-auto">{t('admin-privileges:rewards.rule', cond(r.condition), r.value, r.group)}</span>
              <span className="badge text-bg-light border">{t('admin-privileges:rewards.awarded', r.awarded)}</span>
              {r.disabled && <span className="badge text-bg-secondary">{t('admin-privileges:rewards.disabled')}</span>}
              <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => toggle(r)} disabled={busy}>
                {t(r.disabled ? 'admin-privileges:rewards.enable' : 'admin-privileges:rewards.disable')}
              </button>
              <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => del(r)} disabled={busy}>{t('admin-privileges:rewards.delete')}</button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-body-secondary">{t('admin-privileges:rewards.none')}</p>
      )}
    </>
  );
}
