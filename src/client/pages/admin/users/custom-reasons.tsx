import { useState } from 'react';
import type { AdminCustomReasonsPage } from '../../../../shared/schemas/admin-people';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { errorText } from '../../../i18n';
import { PageHeader } from '../../../components/PageHeader';

/** admin/manage/users/custom-reasons: the preset ban reasons offered on the users page, one per line (setting banReasons). */
export default function AdminCustomReasons({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminCustomReasonsPage;
  const [text, setText] = useState(data.reasons.map((r) => r.title).join('\n'));
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      const value = text.split('\n').map((l) => l.trim()).filter(Boolean).join('\n');
      await api(rt.config, 'PUT', '/admin/settings/banReasons', { value });
      setText(value);
      rt.alert({ type: 'success', message: t('admin-people:reasons.saved'), timeout: 3000 });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <PageHeader title={t('admin-people:reasons.title')} subtitle={t('admin-people:reasons.intro')} />
      <label htmlFor="admin-ban-reasons" className="form-label">{t('admin-people:reasons.label')}</label>
      <textarea id="admin-ban-reasons" className="form-control mb-3" rows={8} maxLength={5000} value={text} onChange={(e) => setText(e.target.value)} />
      <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void save()}>{t('admin-people:reasons.save')}</button>
    </>
  );
}
