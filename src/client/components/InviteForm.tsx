import { useState, type FormEvent } from 'react';
import { api } from '../app/api';
import { useT, useUser } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { errorText } from '../i18n';

/** Sends invitations by mail (POST /users/{uid}/invites). */
export function InviteForm() {
  const rt = useRuntime();
  const { t } = useT();
  const me = useUser();
  const [emails, setEmails] = useState('');
  const [busy, setBusy] = useState(false);
  if (!me) return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      await api(rt.config, 'POST', `/users/${me.uid}/invites`, { emails });
      setEmails('');
      rt.alert(rt.config.mailConfigured ? { type: 'success', message: t('register:invite.sent') } : { type: 'warning', message: t('register:invite.queued') });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card card-body" onSubmit={(e) => void submit(e)} aria-labelledby="invite-title">
      <h2 id="invite-title" className="h5">{t('register:invite.title')}</h2>
      <label htmlFor="invite-emails" className="form-label">{t('register:invite.emails')}</label>
      <input id="invite-emails" type="text" className="form-control mb-2" value={emails} onChange={(e) => setEmails(e.target.value)} autoComplete="off" />
      {!rt.config.mailConfigured && <p className="form-text text-warning-emphasis mt-0" data-testid="mail-not-configured">{t('register:invite.mail-not-configured')}</p>}
      <div><button type="submit" className="btn btn-primary" disabled={busy || !emails.trim()}>{t('register:invite.send')}</button></div>
    </form>
  );
}
