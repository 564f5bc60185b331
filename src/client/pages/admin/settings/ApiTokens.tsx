import { useState } from 'react';
import type { AdminSettingsPage } from '../../../../shared/schemas/admin-settings';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { errorText } from '../../../i18n';

type Token = NonNullable<AdminSettingsPage['tokens']>[number];

/** The API page: master tokens (create: shown once; revoke). */
export function ApiTokens({ initial }: { initial: Token[] }) {
  const { t } = useT();
  const rt = useRuntime();
  const [tokens, setTokens] = useState(initial);
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState('');
  const fail = (err: unknown) => rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    try {
      const res = await api<{ token: string; timestamp: number }>(rt.config, 'POST', '/admin/tokens', { description });
      setCreated(res.token);
      // The token itself names it for a revocation (DELETE /admin/tokens/{token}) until the page reloads with its id.
      setTokens((list) => [{ id: res.token, description: description.trim(), created: res.timestamp, lastSeen: 0 }, ...list]);
      setDescription('');
    } catch (err) {
      fail(err);
    }
  };
  const revoke = async (token: Token) => {
    if (!window.confirm(t('admin-settings:tokens.revoke-confirm'))) return;
    try {
      await api(rt.config, 'DELETE', `/admin/tokens/${encodeURIComponent(token.id)}`);
      setTokens((list) => list.filter((x) => x.id !== token.id));
    } catch (err) {
      fail(err);
    }
  };
  const date = (ms: number) => (ms ? new Date(ms).toISOString().slice(0, 16).replace('T', ' ') : t('admin-settings:tokens.never'));
  return (
    <section className="card" aria-labelledby="settings-tokens">
      <div className="card-body d-flex flex-column gap-3">
        <h2 id="settings-tokens" className="h6 mb-0">{t('admin-settings:tokens.title')}</h2>
        <p className="mb-0 small text-body-secondary">{t('admin-settings:tokens.help')}</p>
        <form className="d-flex flex-wrap gap-2 align-items-end" onSubmit={create}>
          <label className="flex-grow-1 d-flex flex-column gap-1 small fw-semibold">
            {t('admin-settings:tokens.description')}
            <input className="form-control" value={description} maxLength={255} onChange={(e) => setDescription(e.target.value)} />
          </label>
          <button type="submit" className="btn btn-primary">{t('admin-settings:tokens.create')}</button>
        </form>
        {created && (
          <div className="alert alert-success mb-0" role="status">
            <div className="small">{t('admin-settings:tokens.created')}</div>
            <code className="d-block text-break user-select-all" data-testid="new-token">{created}</code>
          </div>
        )}
        {tokens.length ? (
          <ul className="list-group">
            {tokens.map((tk) => (
              <li key={tk.id} className="list-group-item d-flex flex-wrap gap-2 align-items-center">
                <div className="flex-grow-1 min-w-0">
                  <div className="fw-semibold text-break">{tk.description || t('admin-settings:tokens.no-description')}</div>
                  <div className="small text-body-secondary">{t('admin-settings:tokens.dates', date(tk.created), date(tk.lastSeen))}</div>
                </div>
                <button type="button" className="btn btn-outline-danger btn-sm" onClick={() => void revoke(tk)} aria-label={t('admin-settings:tokens.revoke-named', tk.description || tk.id)}>
                  {t('admin-settings:tokens.revoke')}
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mb-0 text-body-secondary">{t('admin-settings:tokens.none')}</p>
        )}
      </div>
    </section>
  );
}
