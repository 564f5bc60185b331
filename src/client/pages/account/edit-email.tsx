import { useId, useState, type FormEvent } from 'react';
import type { EditEmailPage } from '../../../shared/security';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { FormError } from '../auth-shared';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { AccountNav } from './AccountNav';
import { SecurityNav } from './SecurityNav';

/** The account page `edit/email`: a new address gets a confirmation link; the old one stays until then. */
export default function EditEmail({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as EditEmailPage;
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(data.pendingEmail);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const wanted = email.trim().toLowerCase();
      const res = await api<{ emails: string[] }>(rt.config, 'POST', `/users/${data.uid}/emails`, { email: wanted, ...(data.requirePassword ? { password } : {}) });
      // The account's addresses: the new one is there only once confirmed.
      setPending(res.emails.includes(wanted) ? null : wanted);
      setEmail('');
      setPassword('');
      // Without mail set up the link waits in the outbox: say so rather than "check your inbox".
      rt.alert(rt.config.mailConfigured ? { type: 'success', message: t('user:security.email-sent') } : { type: 'warning', message: t('user:security.email-not-sent') });
    } catch (err) {
      setError(errorText(rt.i18n, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <AccountNav userslug={data.userslug} active="security" own />
      <PageHeader title={t('user:security.email')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="send" size={28} />} />
      <SecurityNav userslug={data.userslug} active="email" isSelf={data.isSelf} />
      <div className="card card-body" style={{ maxWidth: 520 }}>
        <p className="mb-1">
          {t('user:security.current-email')} <strong data-testid="current-email">{data.email || '—'}</strong>{' '}
          {data.email && <span className={`badge ${data.emailConfirmed ? 'text-bg-success' : 'text-bg-warning'}`}>{t(data.emailConfirmed ? 'user:security.confirmed' : 'user:security.unconfirmed')}</span>}
        </p>
        {pending && (
          <div className="alert alert-info small mt-2 mb-0" role="status" data-testid="pending-email">
            {t(rt.config.mailConfigured ? 'user:security.email-pending' : 'user:security.email-pending-no-mail', pending)}
          </div>
        )}
        <form className="mt-3" onSubmit={(e) => void submit(e)} noValidate>
          <FormError message={error} />
          <div className="mb-3">
            <label htmlFor={`${id}-e`} className="form-label">
              {t('user:security.new-email')}
            </label>
            <input id={`${id}-e`} name="email" type="email" className="form-control" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          </div>
          {data.requirePassword && (
            <div className="mb-3">
              <label htmlFor={`${id}-p`} className="form-label">
                {t('user:security.current-password')}
              </label>
              <input id={`${id}-p`} name="password" type="password" className="form-control" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            </div>
          )}
          <button type="submit" className="btn btn-primary" disabled={busy || !email.trim()}>
            {t('user:security.change-email')}
          </button>
        </form>
      </div>
    </>
  );
}
