import { useState, type FormEvent } from 'react';
import type { AccountSettingsPage } from '../../../shared/account';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT, useUser } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { errorText } from '../../i18n';
import { AccountNav } from './AccountNav';

const WATCH_STATES = ['watching', 'tracking', 'notwatching', 'ignoring'] as const;
const POST_SORTS = ['oldest_to_newest', 'newest_to_oldest', 'most_votes'] as const;

interface Pref {
  name: string;
  label: string;
  inApp: boolean;
  email: boolean;
  push: boolean;
}

const nodebbValue = (p: Pref) => (p.inApp ? (p.email ? 'notificationemail' : 'notification') : p.email ? 'email' : 'none');

/** The member's settings: reading, watching, notifications per type (in the forum, email, push) and the digest. */
export default function AccountSettings({ page }: { page: PageBase }) {
  const data = page as AccountSettingsPage;
  const { t } = useT();
  const rt = useRuntime();
  const s = data.settings;
  const push = data.customSettings.find((c) => c.id === 'notificationPush')?.values ?? {};
  const [prefs, setPrefs] = useState<Pref[]>(() =>
    data.notificationSettings.map((r) => {
      const name = r.name.replace(/^notificationType_/, '');
      return { name, label: r.label, inApp: r.notification || r.notificationemail, email: r.email || r.notificationemail, push: push[`notificationPush_${name}`] === true };
    }),
  );
  // The sidebars setting is Palaver's: not in NodeBB's settings answer, it comes with the member.
  const user = useUser();
  const [form, setForm] = useState({
    topicsPerPage: String(s.topicsPerPage),
    postsPerPage: String(s.postsPerPage),
    openSidebars: user?.settings.openSidebars === 'on',
    bootswatchSkin: data.bootswatchSkinOptions.find((o) => o.selected)?.value ?? '',
    followTopicsOnCreate: s.followTopicsOnCreate,
    followTopicsOnReply: s.followTopicsOnReply,
    showemail: s.showemail,
    showfullname: s.showfullname,
    categoryWatchState: String(s.categoryWatchState),
    dailyDigestFreq: data.dailyDigestFreqOptions.find((o) => o.selected)?.value ?? 'off',
    // '' follows the forum's default language (and its changes); a code pins the member's own.
    userLang: s.userLang ?? '',
    timezone: data.timezone,
    usePagination: s.usePagination,
    topicPostSort: s.topicPostSort,
    openOutgoingLinksInNewTab: s.openOutgoingLinksInNewTab,
    disableIncomingChats: !!s.disableIncomingChats,
  });
  // The browser's zones (the server checks the choice against its own list).
  const [zones] = useState<string[]>(() => (typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []));
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => setForm((f) => ({ ...f, [key]: value }));
  const toggle = (name: string, channel: 'inApp' | 'email' | 'push') => setPrefs((ps) => ps.map((p) => (p.name === name ? { ...p, [channel]: !p[channel] } : p)));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    const settings: Record<string, string> = {
      topicsPerPage: form.topicsPerPage,
      postsPerPage: form.postsPerPage,
      openSidebars: form.openSidebars ? 'on' : 'off',
      bootswatchSkin: form.bootswatchSkin,
      followTopicsOnCreate: form.followTopicsOnCreate ? '1' : '0',
      followTopicsOnReply: form.followTopicsOnReply ? '1' : '0',
      showemail: form.showemail ? '1' : '0',
      showfullname: form.showfullname ? '1' : '0',
      categoryWatchState: form.categoryWatchState,
      dailyDigestFreq: form.dailyDigestFreq,
      userLang: form.userLang,
      timezone: form.timezone,
      usePagination: form.usePagination ? '1' : '0',
      topicPostSort: form.topicPostSort,
      openOutgoingLinksInNewTab: form.openOutgoingLinksInNewTab ? '1' : '0',
      disableIncomingChats: form.disableIncomingChats ? '1' : '0',
    };
    for (const p of prefs) {
      settings[`notificationType_${p.name}`] = nodebbValue(p);
      settings[`notificationPush_${p.name}`] = p.push ? '1' : '0';
    }
    try {
      await api(rt.config, 'PUT', `/users/${data.uid}/settings`, { settings });
      // The interface's language and dates are set when a page loads: a change to either reloads it.
      const own = user?.uid === data.uid;
      if (own && (form.userLang !== (user?.settings.userLang ?? '') || form.timezone !== (user?.settings.timezone ?? ''))) {
        window.location.reload();
        return;
      }
      // Links are handled by the click listener from the config: the choice holds from the next click.
      if (own) rt.config.openOutgoingLinksInNewTab = form.openOutgoingLinksInNewTab;
      rt.alert({ type: 'success', message: t('user:settings.saved') });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setSaving(false);
    }
  };

  const check = (id: string, label: string, checked: boolean, onChange: () => void) => (
    <div className="form-check form-switch">
      <input className="form-check-input" type="checkbox" role="switch" id={id} checked={checked} onChange={onChange} />
      <label className="form-check-label" htmlFor={id}>{label}</label>
    </div>
  );

  return (
    <>
      <AccountNav userslug={data.userslug} active="settings" own />
      <PageHeader title={t('user:settings.title')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="user" size={28} />} />
      <form onSubmit={(e) => void save(e)} className="account-settings" data-testid="account-settings">
        <div className="row g-4">
          <section className="col-12 col-lg-5" aria-labelledby="settings-general">
            <h2 id="settings-general" className="h5">{t('user:settings.general')}</h2>
            <div className="card card-body d-flex flex-column gap-3">
              <div className="row g-2">
                <div className="col-6">
                  <label className="form-label" htmlFor="topicsPerPage">{t('user:settings.topics-per-page')}</label>
                  <input className="form-control" id="topicsPerPage" type="number" min={1} max={data.maxTopicsPerPage} value={form.topicsPerPage} onChange={(e) => set('topicsPerPage', e.target.value)} />
                </div>
                <div className="col-6">
                  <label className="form-label" htmlFor="postsPerPage">{t('user:settings.posts-per-page')}</label>
                  <input className="form-control" id="postsPerPage" type="number" min={1} max={data.maxPostsPerPage} value={form.postsPerPage} onChange={(e) => set('postsPerPage', e.target.value)} />
                </div>
              </div>
              <div>
                <label className="form-label" htmlFor="bootswatchSkin">{t('user:settings.skin')}</label>
                <select className="form-select" id="bootswatchSkin" value={form.bootswatchSkin} onChange={(e) => set('bootswatchSkin', e.target.value)}>
                  {data.bootswatchSkinOptions.map((o) => (
                    <option key={o.value} value={o.value}>{o.value ? o.name : t('user:settings.skin-default')}</option>
                  ))}
                </select>
              </div>
              <div>
                <label className="form-label" htmlFor="userLang">{t('user:settings.language')}</label>
                <select className="form-select" id="userLang" value={form.userLang} onChange={(e) => set('userLang', e.target.value)}>
                  <option value="">
                    {t('user:settings.skin-default')} ({data.languages.find((l) => l.code === rt.config.defaultLang)?.name ?? rt.config.defaultLang})
                  </option>
                  {data.languages.map((l) => (
                    <option key={l.code} value={l.code}>{l.name}</option>
                  ))}
                </select>
              </div>
              <div>
                <label className="form-label" htmlFor="timezone">{t('user:settings.timezone')}</label>
                <select className="form-select" id="timezone" value={form.timezone} onChange={(e) => set('timezone', e.target.value)}>
                  <option value="">{t('user:settings.timezone-browser')}</option>
                  {(zones.includes(form.timezone) || !form.timezone ? zones : [form.timezone, ...zones]).map((z) => (
                    <option key={z} value={z}>{z.replace(/_/g, ' ')}</option>
                  ))}
                </select>
              </div>
              <div>
                <label className="form-label" htmlFor="topicPostSort">{t('user:settings.post-sort')}</label>
                <select className="form-select" id="topicPostSort" value={form.topicPostSort} onChange={(e) => set('topicPostSort', e.target.value)}>
                  {POST_SORTS.map((o) => (
                    <option key={o} value={o}>{t(`user:settings.post-sort.${o}`)}</option>
                  ))}
                </select>
              </div>
              {check('usePagination', t('user:settings.use-pagination'), form.usePagination, () => set('usePagination', !form.usePagination))}
              {check('openSidebars', t('user:settings.open-sidebars'), form.openSidebars, () => set('openSidebars', !form.openSidebars))}
              {check('followTopicsOnCreate', t('user:settings.follow-on-create'), form.followTopicsOnCreate, () => set('followTopicsOnCreate', !form.followTopicsOnCreate))}
              {check('followTopicsOnReply', t('user:settings.follow-on-reply'), form.followTopicsOnReply, () => set('followTopicsOnReply', !form.followTopicsOnReply))}
              {check('openOutgoingLinksInNewTab', t('user:settings.open-links-new-tab'), form.openOutgoingLinksInNewTab, () => set('openOutgoingLinksInNewTab', !form.openOutgoingLinksInNewTab))}
              {check('disableIncomingChats', t('user:settings.disable-incoming-chats'), form.disableIncomingChats, () => set('disableIncomingChats', !form.disableIncomingChats))}
              {check('showemail', t('user:settings.show-email'), form.showemail, () => set('showemail', !form.showemail))}
              {check('showfullname', t('user:settings.show-fullname'), form.showfullname, () => set('showfullname', !form.showfullname))}
              <div>
                <label className="form-label" htmlFor="categoryWatchState">{t('user:settings.category-watch-state')}</label>
                <select className="form-select" id="categoryWatchState" value={form.categoryWatchState} onChange={(e) => set('categoryWatchState', e.target.value)}>
                  {WATCH_STATES.map((st) => (
                    <option key={st} value={st}>{t(`user:watch.${st}`)}</option>
                  ))}
                </select>
              </div>
              <div>
                <label className="form-label" htmlFor="dailyDigestFreq">{t('user:settings.digest')}</label>
                <select className="form-select" id="dailyDigestFreq" value={form.dailyDigestFreq} onChange={(e) => set('dailyDigestFreq', e.target.value)}>
                  {data.dailyDigestFreqOptions.map((o) => (
                    <option key={o.value} value={o.value}>{t(`user:settings.digest.${o.value}`)}</option>
                  ))}
                </select>
                {!rt.config.mailConfigured && <p className="form-text text-warning-emphasis" data-testid="mail-not-configured">{t('user:settings.no-mail')}</p>}
              </div>
            </div>
          </section>
          <section className="col-12 col-lg-7" aria-labelledby="settings-notifications">
            <h2 id="settings-notifications" className="h5">{t('user:settings.notifications')}</h2>
            <div className="card">
              <div className="table-responsive">
                <table className="table table-sm align-middle mb-0 notification-prefs">
                  <thead>
                    <tr>
                      <th scope="col" className="ps-3">{t('user:settings.notification-type')}</th>
                      <th scope="col" className="text-center">{t('user:settings.channel.notification')}</th>
                      <th scope="col" className="text-center">{t('user:settings.channel.email')}</th>
                      <th scope="col" className="text-center pe-3">{t('user:settings.channel.push')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {prefs.map((p) => {
                      // The page data's label is a [[namespace:key]] text.
                      const label = t(p.label.replace(/^\[\[|\]\]$/g, ''));
                      return (
                        <tr key={p.name} data-type={p.name}>
                          <th scope="row" className="ps-3 fw-normal">{label}</th>
                          {(['inApp', 'email', 'push'] as const).map((c) => (
                            <td key={c} className={`text-center${c === 'push' ? ' pe-3' : ''}`}>
                              <input
                                className="form-check-input"
                                type="checkbox"
                                checked={p[c]}
                                onChange={() => toggle(p.name, c)}
                                aria-label={`${label}: ${t(`user:settings.channel.${c === 'inApp' ? 'notification' : c}`)}`}
                                data-channel={c}
                              />
                            </td>
                          ))}
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            </div>
          </section>
        </div>
        <div className="mt-3 d-flex justify-content-end">
          <button type="submit" className="btn btn-primary" disabled={saving} data-testid="settings-save">{t('user:settings.save')}</button>
        </div>
      </form>
    </>
  );
}
