import { useId, useState, type FormEvent } from 'react';
import type { EditPasswordPage } from '../../../shared/security';
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

/** The account page `edit/password`: the current password, the new one twice; other sessions end. */
export default function EditPassword({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as EditPasswordPage;
  const id = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (next.length < data.minimumPasswordLength) return setError(t('reset_password:password-too-short'));
    if (next !== again) return setError(t('user:change-password-error-match'));
    setBusy(true);
    setError(null);
    try {
      await api(rt.config, 'PUT', `/users/${data.uid}/password`, { currentPassword: data.isSelf ? current : undefined, newPassword: next });
      setCurrent('');
      setNext('');
      setAgain('');
      rt.alert({ type: 'success', message: t('user:change-password-success') });
    } catch (err) {
      setError(errorText(rt.i18n, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <AccountNav userslug={data.userslug} active="security" own />
      <PageHeader title={t('user:security.password')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="lock" size={28} />} />
      <SecurityNav userslug={data.userslug} active="password" isSelf={data.isSelf} />
      <form className="card card-body" style={{ maxWidth: 520 }} onSubmit={(e) => void submit(e)} noValidate>
        <FormError message={error} />
        {data.isSelf && (
          <div className="mb-3">
            <label htmlFor={`${id}-c`} className="form-label">
              {t('user:security.current-password')}
            </label>
            <input id={`${id}-c`} name="currentPassword" type="password" className="form-control" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
          </div>
        )}
        <div className="mb-3">
          <label htmlFor={`${id}-n`} className="form-label">
            {t('user:security.new-password')}
          </label>
          <input id={`${id}-n`} name="newPassword" type="password" className="form-control" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} aria-describedby={`${id}-h`} />
          <div id={`${id}-h`} className="form-text">
            {t('user:security.password-rules', data.minimumPasswordLength)}
          </div>
        </div>
        <div className="mb-3">
          <label htmlFor={`${id}-a`} className="form-label">
            {t('user:security.confirm-password')}
          </label>
          <input id={`${id}-a`} name="confirmPassword" type="password" className="form-control" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} />
        </div>
        <p className="small text-body-secondary">{t('user:security.password-ends-sessions')}</p>
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('user:change-password')}
          </button>
        </div>
      </form>
    </>
  );
}
