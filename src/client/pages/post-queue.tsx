import { useEffect, useId, useState } from 'react';
import type { PostQueuePage, QueuedPost } from '../../shared/schemas/post-queue';
import type { PageBase } from '../../shared/types';
import { api } from '../app/api';
import { useT } from '../app/hooks';
import { useRuntime } from '../app/runtime';
import { Avatar } from '../components/Avatar';
import { PageHeader } from '../components/PageHeader';
import { Pagination } from '../components/Pagination';
import { PostContent } from '../components/PostContent';
import { Timeago } from '../components/Timeago';
import { errorText } from '../i18n';
import { categoryPath, userPath } from '../util/urls';
import { useStore } from '../state/store';

type Runtime = ReturnType<typeof useRuntime>;

/** Accepts (POST) or rejects (DELETE, with the reason) one queued post; true when it went through. */
async function decide(rt: Runtime, id: string, accept: boolean, reason = ''): Promise<boolean> {
  try {
    if (accept) await api(rt.config, 'POST', `/posts/queue/${id}`);
    else await api(rt.config, 'DELETE', `/posts/queue/${id}`, reason ? { message: reason } : {});
    return true;
  } catch (err) {
    rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    return false;
  }
}

/** One queued post: who, where, the preview; for its moderators edit, accept and reject (with a reason). */
function QueuedItem({ item, checked, onCheck, onGone, onEdited }: { item: QueuedPost; checked: boolean; onCheck: (on: boolean) => void; onGone: () => void; onEdited: (item: QueuedPost) => void }) {
  const rt = useRuntime();
  const { t, tx } = useT();
  const id = useId();
  const rp = rt.config.relative_path;
  const [mode, setMode] = useState<'view' | 'edit' | 'reject'>('view');
  const [title, setTitle] = useState(item.data.title);
  const [content, setContent] = useState(item.data.rawContent);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);

  const act = async (accept: boolean) => {
    setBusy(true);
    if (await decide(rt, item.id, accept, reason.trim())) {
      rt.alert({ type: 'success', message: t(accept ? 'topic:queue.accepted' : 'topic:queue.rejected') });
      onGone();
    }
    setBusy(false);
  };
  const save = async () => {
    setBusy(true);
    try {
      await api(rt.config, 'PUT', `/posts/queue/${item.id}`, item.type === 'topic' ? { title, content } : { content });
      const preview = await api<{ html: string }>(rt.config, 'POST', '/posts/preview', { content });
      onEdited({ ...item, data: { ...item.data, title, rawContent: content, content: preview.html } });
      setMode('view');
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    }
    setBusy(false);
  };

  const where =
    item.type === 'topic' ? (
      <>{t('topic:queue.new-topic-in')} {item.slug && <a href={`${rp}${categoryPath(item.data.cid, item.slug)}`}>{tx(item.name ?? '')}</a>}</>
    ) : (
      <>{t('topic:queue.reply-to')} <a href={`${rp}/topic/${item.data.tid}`}>{item.topic.titleRaw}</a></>
    );
  return (
    <li className="card mb-3 queued-post" data-id={item.id} data-testid="queued-post">
      <div className="d-flex flex-wrap align-items-center gap-2 small border-bottom px-3 py-2">
        {item.canEdit && <input type="checkbox" className="form-check-input m-0" checked={checked} onChange={(e) => onCheck(e.target.checked)} aria-label={t('topic:queue.select', item.data.title || item.topic.titleRaw)} />}
        <Avatar user={item.user} size="xs" />
        <a href={`${rp}${userPath(item.user.userslug)}`} className="fw-semibold text-reset">{item.user.username}</a>
        <span className="text-body-secondary"><Timeago iso={item.data.timestampISO} ts={item.data.timestamp} /></span>
        <span className="text-body-secondary">{where}</span>
      </div>
      <div className="card-body">
        {mode === 'edit' ? (
          <div className="d-flex flex-column gap-2">
            {item.type === 'topic' && (
              <>
                <label htmlFor={`${id}-title`} className="form-label small mb-0">{t('modules:composer.title')}</label>
                <input id={`${id}-title`} className="form-control" value={title} onChange={(e) => setTitle(e.target.value)} />
              </>
            )}
            <label htmlFor={`${id}-content`} className="form-label small mb-0">{t('modules:composer.body')}</label>
            <textarea id={`${id}-content`} className="form-control" rows={6} value={content} onChange={(e) => setContent(e.target.value)} />
            <div className="d-flex gap-2 justify-content-end">
              <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setMode('view')} disabled={busy}>{t('topic:queue.cancel')}</button>
              <button type="button" className="btn btn-sm btn-primary" onClick={() => void save()} disabled={busy}>{t('modules:composer.save')}</button>
            </div>
          </div>
        ) : (
          <>
            {item.type === 'topic' && <h2 className="h5">{item.data.title}</h2>}
            <PostContent html={item.data.content} />
          </>
        )}
        {mode === 'reject' && (
          <div className="d-flex flex-column flex-sm-row gap-2 mt-3">
            <label htmlFor={`${id}-reason`} className="visually-hidden">{t('topic:queue.reason')}</label>
            <input id={`${id}-reason`} className="form-control form-control-sm" maxLength={2000} placeholder={t('topic:queue.reason')} value={reason} onChange={(e) => setReason(e.target.value)} />
            <button type="button" className="btn btn-sm btn-danger text-nowrap" onClick={() => void act(false)} disabled={busy}>{t('topic:queue.reject-confirm')}</button>
          </div>
        )}
      </div>
      {item.canEdit ? (
        mode === 'view' && (
          <div className="d-flex flex-wrap gap-2 justify-content-end border-top px-3 py-2">
            <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setMode('edit')} disabled={busy}>{t('topic:edit')}</button>
            <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setMode('reject')} disabled={busy}>{t('topic:queue.reject')}</button>
            <button type="button" className="btn btn-sm btn-success" onClick={() => void act(true)} disabled={busy}>{t('topic:queue.accept')}</button>
          </div>
        )
      ) : (
        <div className="border-top px-3 py-2 small text-body-secondary">{t('topic:queue.awaiting')}</div>
      )}
    </li>
  );
}

/** The post-queue page: moderators accept, edit or reject queued posts, one at a time or in bulk; a member sees their own waiting posts. */
export default function PostQueue({ page }: { page: PageBase }) {
  const rt = useRuntime();
  const { t } = useT();
  const data = page as PostQueuePage;
  const { seq } = useStore(rt.page);
  const [items, setItems] = useState<QueuedPost[]>(data.posts ?? []);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setItems(data.posts ?? []);
    setChecked(new Set());
  }, [seq, data.posts]);

  const drop = (ids: string[]) => {
    setItems((list) => list.filter((i) => !ids.includes(i.id)));
    setChecked((c) => new Set([...c].filter((id) => !ids.includes(id))));
  };
  // Bulk actions: one request per post, as NodeBB's client does; those that fail stay listed.
  const bulk = async (accept: boolean) => {
    const ids = [...checked];
    if (!ids.length || (!accept && !window.confirm(t('topic:queue.reject-selected-confirm', ids.length)))) return;
    setBusy(true);
    const done: string[] = [];
    for (const id of ids) if (await decide(rt, id, accept)) done.push(id);
    drop(done);
    if (done.length) rt.alert({ type: 'success', message: t(accept ? 'topic:queue.accepted-n' : 'topic:queue.rejected-n', done.length) });
    setBusy(false);
  };
  const editable = items.filter((i) => i.canEdit);
  const allChecked = editable.length > 0 && editable.every((i) => checked.has(i.id));

  return (
    <>
      <PageHeader title={t('pages:post-queue')} subtitle={data.canAccept ? undefined : t('topic:queue.own-posts')}>
        {data.canAccept && editable.length > 0 && (
          <>
            <div className="form-check align-self-center mb-0">
              <input
                id="queue-select-all"
                type="checkbox"
                className="form-check-input"
                checked={allChecked}
                onChange={(e) => setChecked(e.target.checked ? new Set(editable.map((i) => i.id)) : new Set())}
              />
              <label htmlFor="queue-select-all" className="form-check-label small">{t('topic:queue.select-all')}</label>
            </div>
            <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy || !checked.size} onClick={() => void bulk(false)} data-testid="queue-reject-selected">
              {t('topic:queue.reject-selected', checked.size)}
            </button>
            <button type="button" className="btn btn-sm btn-success" disabled={busy || !checked.size} onClick={() => void bulk(true)} data-testid="queue-accept-selected">
              {t('topic:queue.accept-selected', checked.size)}
            </button>
          </>
        )}
      </PageHeader>
      {!data.enabled && <div className="alert alert-info small">{t('topic:queue.disabled')}</div>}
      {items.length ? (
        <ul className="list-unstyled" data-testid="post-queue-list">
          {items.map((item) => (
            <QueuedItem
              key={item.id}
              item={item}
              checked={checked.has(item.id)}
              onCheck={(on) => setChecked((c) => (on ? new Set([...c, item.id]) : new Set([...c].filter((x) => x !== item.id))))}
              onGone={() => drop([item.id])}
              onEdited={(edited) => setItems((list) => list.map((i) => (i.id === edited.id ? edited : i)))}
            />
          ))}
        </ul>
      ) : (
        <div className="card card-body text-center text-body-secondary py-5" data-testid="post-queue-empty">{t('topic:queue.empty')}</div>
      )}
      <Pagination pagination={data.pagination} />
    </>
  );
}
