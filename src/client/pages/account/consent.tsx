import { useState } from 'react';
import type { AccountConsentPage } from '../../../shared/schemas/registration';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { PageHeader } from '../../components/PageHeader';
import { useAbsoluteDate } from '../../components/Timeago';
import { AccountNav } from './AccountNav';

/** The consent page (GDPR): what the member agreed to and when; they may give consent here. */
export default function Consent({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const data = page as AccountConsentPage;
  const [at, setAt] = useState(data.gdpr_consent ? data.gdpr_at : 0);
  const [given, setGiven] = useState(data.gdpr_consent);
  const [busy, setBusy] = useState(false);
  const date = useAbsoluteDate();
  const give = async () => {
    setBusy(true);
    try {
      await api(rt.config, 'PUT', `/users/${data.uid}/consent`, {});
      setGiven(true);
      setAt(Date.now());
      rt.alert({ type: 'success', message: t('user:consent.given') });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <AccountNav userslug={data.userslug} active="consent" own />
      <PageHeader title={t('user:consent.title')} subtitle={data.isSelf ? undefined : data.username} />
      <p className="lead">{t('user:consent.lead')}</p>
      <section className="card mb-3">
        <div className="card-body">
          <p>{t('user:consent.intro')}</p>
          <div className={`alert ${given ? 'alert-success' : 'alert-warning'} mb-2`} role="status" data-testid="consent-state">
            {given ? t('user:consent.received', at ? date(at) : '-') : t('user:consent.not_received')}
          </div>
          {!given && data.isSelf && (
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void give()}>{t('user:consent.give')}</button>
          )}
        </div>
      </section>
      {data.termsOfUse && (
        <section className="card mb-3">
          <div className="card-body">
            <p className="mb-0">{data.tos_at ? t('user:consent.tos_accepted', date(data.tos_at)) : t('user:consent.tos_not_accepted')}</p>
          </div>
        </section>
      )}
      <section className="card mb-3">
        <div className="card-body">
          <p>{t('user:consent.email_intro')}</p>
          <p>{data.digest.enabled ? t('user:consent.digest_frequency', data.digest.frequency) : t('user:consent.digest_off')}</p>
          <a href={`${rt.config.relative_path}/user/${data.userslug}/settings`}>{t('user:consent.change_settings')}</a>
        </div>
      </section>
    </>
  );
}
