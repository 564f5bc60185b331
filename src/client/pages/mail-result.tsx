import { useState } from 'react';
import type { ConfirmPage, UnsubscribePage } from '../../shared/mail-pages';
import type { PageBase } from '../../shared/types';
import { postSite } from '../app/api';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { errorText } from '../i18n';
import { templateName } from './registry';
import { AuthCard, FormError } from './auth-shared';

/**
 * The pages a mail's links open (`confirm`, `unsubscribe`): opening one changes nothing (mail
 * scanners open links), its button POSTs the link's code; then done, or why not.
 */
export default function MailResult({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const confirm = templateName(page) === 'confirm';
  const data = page as ConfirmPage & UnsubscribePage;
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const secret = confirm ? data.code : data.token;
  const broken = confirm ? !!data.error : !!data.error || !data.token;

  const act = async () => {
    setBusy(true);
    setError(null);
    try {
      await postSite(rt.config, confirm ? `/confirm/${encodeURIComponent(secret)}` : `/email/unsubscribe/${encodeURIComponent(secret)}`, {});
      setDone(true);
    } catch (err) {
      setError(errorText(rt.i18n, err));
    } finally {
      setBusy(false);
    }
  };

  const footer = <a href={`${rt.config.relative_path}/`}>{t('global:home')}</a>;
  let body;
  if (broken) body = <div className="alert alert-danger mb-0" role="alert">{t(data.error || 'error:unsubscribe-invalid')}</div>;
  else if (done || data.unsubscribed) body = <div className="alert alert-success mb-0" role="status">{t(confirm ? 'email:confirm.done' : 'email:unsubscribe.done')}</div>;
  else {
    body = (
      <>
        <FormError message={error} />
        <p>{confirm ? t('email:confirm.ask') : t('email:unsubscribe.ask', data.payload?.type ?? '')}</p>
        <button type="button" className="btn btn-primary w-100" disabled={busy} onClick={() => void act()}>
          {t(confirm ? 'email:confirm.submit' : 'email:unsubscribe.submit')}
        </button>
      </>
    );
  }
  return (
    <AuthCard title={t(confirm ? 'email:confirm.title' : 'email:unsubscribe.confirm-title')} footer={footer}>
      {body}
    </AuthCard>
  );
}
