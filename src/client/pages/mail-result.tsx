import type { ConfirmPage, UnsubscribePage } from '../../shared/mail-pages';
import type { PageBase } from '../../shared/types';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { templateName } from './registry';
import { AuthCard } from './auth-shared';

/** The pages a mail's one-click links open (`confirm`, `unsubscribe`): done, or why not. */
export default function MailResult({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const confirm = templateName(page) === 'confirm';
  const data = page as ConfirmPage & UnsubscribePage;
  const ok = confirm ? !data.error : data.unsubscribed;
  return (
    <AuthCard title={t(confirm ? 'email:confirm.title' : 'email:unsubscribe.title')} footer={<a href={`${rt.config.relative_path}/`}>{t('global:home')}</a>}>
      {ok ? (
        <div className="alert alert-success mb-0" role="status">{t(confirm ? 'email:confirm.done' : 'email:unsubscribe.done')}</div>
      ) : (
        <div className="alert alert-danger mb-0" role="alert">{t(data.error ?? 'error:unsubscribe-invalid')}</div>
      )}
    </AuthCard>
  );
}
