import { useState, type FormEvent } from 'react';
import type { AccountTagsPage } from '../../../shared/account';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { errorText } from '../../i18n';
import { AccountNav } from './AccountNav';

/** The tags a member follows (new topics with them notify), with unfollow, and a field to follow another. */
export default function AccountTags({ page }: { page: PageBase }) {
  const data = page as AccountTagsPage;
  const { t } = useT();
  const rt = useRuntime();
  const rp = rt.config.relative_path;
  const [tags, setTags] = useState<string[]>(data.tags);
  const [name, setName] = useState('');
  const write = async (method: 'PUT' | 'DELETE', tag: string): Promise<boolean> => {
    try {
      await api(rt.config, method, `/tags/${encodeURIComponent(tag)}/follow`, {});
      rt.alert({ type: 'success', message: t(method === 'PUT' ? 'user:tags.followed' : 'user:tags.unfollowed', tag) });
      return true;
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
      return false;
    }
  };
  const follow = async (e: FormEvent) => {
    e.preventDefault();
    const tag = name.trim().toLowerCase();
    if (!tag) return;
    if (await write('PUT', tag)) {
      setTags((ts) => [...new Set([...ts, tag])].sort());
      setName('');
    }
  };
  return (
    <>
      <AccountNav userslug={data.userslug} active="tags" own />
      <PageHeader title={t('user:tags.title')} subtitle={data.isSelf ? undefined : data.username} icon={<Icon name="tag" size={28} />} />
      {data.isSelf && (
        <form className="d-flex gap-2 mb-3" onSubmit={(e) => void follow(e)}>
          <label className="visually-hidden" htmlFor="follow-tag">{t('user:tags.follow')}</label>
          <input id="follow-tag" className="form-control" placeholder={t('user:tags.follow')} value={name} maxLength={255} onChange={(e) => setName(e.target.value)} />
          <button type="submit" className="btn btn-primary text-nowrap">{t('user:tags.follow-button')}</button>
        </form>
      )}
      {tags.length === 0 ? (
        <div className="card card-body text-center text-body-secondary py-5">{t('user:tags.none')}</div>
      ) : (
        <ul className="list-group" data-testid="followed-tags">
          {tags.map((tag) => (
            <li key={tag} className="list-group-item d-flex gap-2 align-items-center">
              <a className="flex-grow-1 text-decoration-none" href={`${rp}/tags/${encodeURIComponent(tag)}`}>
                <Icon name="tag" /> {tag}
              </a>
              {data.isSelf && (
                <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => void write('DELETE', tag).then((ok) => ok && setTags((ts) => ts.filter((x) => x !== tag)))}>
                  {t('user:tags.unfollow')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
