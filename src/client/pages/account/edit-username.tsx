import { useId, useState, type FormEvent } from 'react';
import type { EditUsernamePage } from '../../../shared/security';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { FormError } from '../auth-shared';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Timeago } from '../../components/Timeago';
import { AccountNav } from './AccountNav';
import { SecurityNav } from './SecurityNav';

/** The account page `edit/username`: a new name (the forum's rules and cool-down), and the earlier names. */
export default function EditUsername({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as EditUsernamePage;
  const id = useId();
  const [name, setName] = useState(data.username);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const user = await api<{ userslug: string }>(rt.config, 'PUT', `/users/${data.uid}`, { username: name.trim() });
      // The member's address changed with the name: load the page at its new address.
      location.href = `${rt.config.relative_path}/user/${encodeURIComponent(user.userslug)}/edit/username`;
    } catch (err) {
      setError(errorText(rt.i18n, err));
      setBusy(false);
    }
  };

  return (
    <>
      <AccountNav userslug={data.userslug} active="security" own />
      <PageHeader title={t('user:security.username')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="user" size={28} />} />
      <SecurityNav userslug={data.userslug} active="username" isSelf={data.isSelf} />
      <form className="card card-body mb-4" style={{ maxWidth: 520 }} onSubmit={(e) => void submit(e)} noValidate>
        <FormError message={error} />
        <div className="mb-3">
          <label htmlFor={`${id}-u`} className="form-label">
            {t('user:security.new-username')}
          </label>
          <input
            id={`${id}-u`}
            name="username"
            className="form-control"
            autoComplete="username"
            minLength={data.minimumUsernameLength}
            maxLength={data.maximumUsernameLength}
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-describedby={`${id}-h`}
          />
          <div id={`${id}-h`} className="form-text">
            {t('user:security.username-rules', data.minimumUsernameLength, data.maximumUsernameLength)}
            {data.cooldownDays > 0 && ` ${t('user:security.username-cooldown', data.cooldownDays)}`}
          </div>
        </div>
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy || !name.trim() || name.trim() === data.username}>
            {t('user:security.change-username')}
          </button>
        </div>
      </form>
      {data.history.length > 0 && (
        <section aria-labelledby={`${id}-hist`}>
          <h2 id={`${id}-hist`} className="h6">
            {t('user:security.username-history')}
          </h2>
          <ul className="list-group" style={{ maxWidth: 520 }}>
            {data.history.map((h) => (
              <li key={`${h.username}-${h.changed}`} className="list-group-item d-flex justify-content-between">
                <span>{h.username}</span>
                <span className="small text-body-secondary">
                  <Timeago iso={h.changedISO} />
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
