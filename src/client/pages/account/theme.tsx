import { useState } from 'react';
import type { ProfileThemePage } from '../../../shared/profile';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { applySkin } from '../../app/settings';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { errorText } from '../../i18n';
import { AccountNav } from './AccountNav';

/** The member's skin: each Bootswatch skin as a choice; the member's own choice applies at once. */
export default function AccountTheme({ page }: { page: PageBase }) {
  const data = page as ProfileThemePage;
  const { t, tx } = useT();
  const rt = useRuntime();
  const [skin, setSkin] = useState(data.bootswatchSkinOptions.find((o) => o.selected)?.value ?? '');
  const choose = async (value: string) => {
    const before = skin;
    setSkin(value);
    if (data.isSelf) applySkin(rt, value);
    try {
      await api(rt.config, 'PUT', `/users/${data.uid}/settings`, { settings: { bootswatchSkin: value } });
      rt.alert({ type: 'success', message: t('user:settings.saved') });
    } catch (err) {
      setSkin(before);
      if (data.isSelf) applySkin(rt, before);
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    }
  };
  return (
    <>
      <AccountNav userslug={data.userslug} active="theme" own />
      <PageHeader title={t('user:settings.skin')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="palette" size={28} />} />
      <fieldset className="row row-cols-2 row-cols-md-4 row-cols-xl-6 g-2" data-testid="theme-skins">
        <legend className="visually-hidden">{t('user:settings.skin')}</legend>
        {data.bootswatchSkinOptions.map((o) => (
          <div className="col" key={o.value || 'default'}>
            <input className="btn-check" type="radio" name="skin" id={`skin-${o.value || 'default'}`} checked={skin === o.value} onChange={() => void choose(o.value)} />
            <label className="btn btn-outline-primary w-100" htmlFor={`skin-${o.value || 'default'}`}>{tx(o.name)}</label>
          </div>
        ))}
      </fieldset>
    </>
  );
}
