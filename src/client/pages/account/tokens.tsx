import { useEffect, useId, useState, type FormEvent } from 'react';
import type { AccountToken, TokensPage } from '../../../shared/security';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Timeago } from '../../components/Timeago';
import { AccountNav } from './AccountNav';
import { SecurityNav } from './SecurityNav';

/** The account page `tokens`: the member's API tokens (label, made, last used), a new one (shown once), revoke. */
export default function Tokens({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as TokensPage;
  const id = useId();
  const [tokens, setTokens] = useState(data.tokens);
  const [label, setLabel] = useState('');
  const [made, setMade] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setTokens(data.tokens), [data.tokens]);

  // The page data again: the list shows the new token's id and label (never the token).
  const reload = async () => {
    const res = await fetch(`${rt.config.relative_path}/api/user/${encodeURIComponent(data.userslug)}/tokens`, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (res.ok) setTokens(((await res.json()) as TokensPage).tokens);
  };
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const create = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const res = await api<{ token: string }>(rt.config, 'POST', `/users/${data.uid}/tokens`, { description: label.trim() });
      setMade(res.token);
      setLabel('');
      await reload();
    });
  };
  const revoke = (tok: AccountToken) =>
    run(async () => {
      await api(rt.config, 'DELETE', `/users/${data.uid}/tokens/${tok.id}`);
      setTokens((list) => list.filter((x) => x.id !== tok.id));
      rt.alert({ type: 'success', message: t('user:tokens.revoked') });
    });

  return (
    <>
      <AccountNav userslug={data.userslug} active="security" own />
      <PageHeader title={t('user:tokens.title')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="code" size={28} />} />
      <SecurityNav userslug={data.userslug} active="tokens" isSelf={data.isSelf} />
      <p className="text-body-secondary">{t('user:tokens.intro')}</p>
      <form className="d-flex flex-wrap gap-2 mb-3" onSubmit={create}>
        <label htmlFor={`${id}-l`} className="visually-hidden">
          {t('user:tokens.label')}
        </label>
        <input id={`${id}-l`} className="form-control" style={{ maxWidth: 320 }} maxLength={200} placeholder={t('user:tokens.label')} value={label} onChange={(e) => setLabel(e.target.value)} />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          <Icon name="plus" size={16} /> {t('user:tokens.create')}
        </button>
      </form>
      {made && (
        <div className="alert alert-warning" role="status">
          <div className="small mb-1">{t('user:tokens.shown-once')}</div>
          <code className="user-select-all text-break" data-testid="new-token">
            {made}
          </code>
        </div>
      )}
      {tokens.length ? (
        <ul className="list-group" data-testid="tokens">
          {tokens.map((tok) => (
            <li key={tok.id} className="list-group-item d-flex flex-wrap gap-2 align-items-center">
              <div className="flex-grow-1 min-w-0">
                <div className="fw-semibold text-truncate">{tok.description || t('user:tokens.no-label')}</div>
                <div className="small text-body-secondary">
                  <span className="me-3">
                    {t('user:tokens.created')} <Timeago iso={tok.timestampISO} />
                  </span>
                  <span>{tok.lastSeenISO ? <>{t('user:tokens.last-used')} <Timeago iso={tok.lastSeenISO} /></> : t('user:tokens.never-used')}</span>
                </div>
              </div>
              <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void revoke(tok)} disabled={busy} aria-label={`${t('user:tokens.revoke')}: ${tok.description || tok.id}`}>
                {t('user:tokens.revoke')}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-body-secondary" data-testid="no-tokens">
          {t('user:tokens.none')}
        </p>
      )}
    </>
  );
}
