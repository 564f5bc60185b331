import { useState } from 'react';
import type { TopicPage } from '../../../shared/types';
import { useT } from '../../app/hooks';
import { Icon } from '../Icon';
import { useRuntime } from '../../app/runtime';
import { CategorySelect } from '../composer/CategorySelect';
import { api } from '../../app/api';
import { errorText } from '../../i18n';
import { topicPath } from '../../util/urls';
import { reloadPage, runWrites, uidOf, type TopicRef, type Write } from './common';
import { ToolDialog } from './ToolDialog';
import { TopicPicker } from './TopicPicker';

type Dialog = 'fork' | 'move' | 'owner' | 'purge' | null;

/**
 * The floating bar of the post selection mode: "n posts selected", then fork, move, change owner,
 * delete, restore and purge the selection (each a dialog or a confirmation; delete, restore and
 * purge are one request for the whole selection), or cancel.
 */
export function PostSelectionBar({ topic, pids, onDone }: { topic: TopicPage; pids: number[]; onDone: () => void }) {
  const rt = useRuntime();
  const { t } = useT();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [title, setTitle] = useState('');
  const [cid, setCid] = useState(topic.cid);
  const [target, setTarget] = useState<TopicRef | null>(null);
  const [owner, setOwner] = useState('');

  const run = async (writes: Write[], done: string, url?: string) => {
    setBusy(true);
    const ok = await runWrites(rt, writes);
    setBusy(false);
    if (!ok) return;
    setDialog(null);
    onDone();
    rt.alert({ type: 'success', message: t(done), timeout: 3000 });
    reloadPage(rt, url);
  };
  // The new topic is one click away: the alert opens it (NodeBB's fork alert).
  const fork = async () => {
    setBusy(true);
    try {
      const made = await api<TopicRef>(rt.config, 'POST', '/topic-tools/fork', { title, pids, cid });
      setDialog(null);
      onDone();
      // Under the forum's path: navigate takes a full path, not a forum-relative one.
      const url = `${rt.config.relative_path}${topicPath(made.tid, made.slug)}`;
      rt.alert({ type: 'success', message: t('topic:tools.forked-open', made.title), timeout: 10000, clickfn: () => rt.navigate(url) });
      reloadPage(rt);
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const changeOwner = async () => {
    const uid = await uidOf(rt, owner);
    if (uid === null) return rt.alert({ type: 'danger', message: t('error:no-user') });
    await run([['POST', '/posts/owner', { pids, uid }]], 'topic:tools.done');
  };
  const n = pids.length;
  return (
    <>
      <div className="post-selection-bar card shadow position-fixed start-50 translate-middle-x d-flex flex-row flex-wrap align-items-center justify-content-center gap-2 p-2" style={{ bottom: '4.5rem', zIndex: 1040, maxWidth: 'calc(100vw - 1rem)' }} role="region" aria-label={t('topic:tools.posts-selected', n)} data-testid="post-selection-bar">
        <strong className="px-2" aria-live="polite">{t('topic:tools.posts-selected', n)}</strong>
        <button type="button" className="btn btn-sm btn-primary" disabled={!n} onClick={() => setDialog('fork')} data-testid="selection-fork">{t('topic:tools.fork')}</button>
        <button type="button" className="btn btn-sm btn-outline-primary" disabled={!n} onClick={() => setDialog('move')} data-testid="selection-move">{t('topic:tools.move-posts')}</button>
        <button type="button" className="btn btn-sm btn-outline-primary" disabled={!n} onClick={() => setDialog('owner')} data-testid="selection-owner">{t('topic:tools.change-owner')}</button>
        <button type="button" className="btn btn-sm btn-outline-danger" disabled={!n || busy} onClick={() => void run([['POST', '/topic-tools/delete-posts', { pids }]], 'topic:post-deleted')} data-testid="selection-delete">{t('topic:tools.delete-posts')}</button>
        <button type="button" className="btn btn-sm btn-outline-secondary" disabled={!n || busy} onClick={() => void run([['POST', '/topic-tools/restore-posts', { pids }]], 'topic:post-restored')} data-testid="selection-restore">{t('topic:tools.restore-posts')}</button>
        <button type="button" className="btn btn-sm btn-danger" disabled={!n || busy} onClick={() => setDialog('purge')} data-testid="selection-purge">{t('topic:tools.purge-posts')}</button>
        <button type="button" className="btn btn-sm btn-link" onClick={onDone}>{t('topic:tools.cancel')}</button>
      </div>
      {dialog === 'fork' && (
        <ToolDialog title={t('topic:tools.fork-title')} confirmLabel={t('topic:tools.fork')} busy={busy} ready={title.trim().length > 0} onClose={() => setDialog(null)} onConfirm={() => void fork()}>
          <label htmlFor="fork-title" className="form-label">{t('topic:tools.fork-new-title')}</label>
          <input id="fork-title" className="form-control mb-3" value={title} onChange={(e) => setTitle(e.target.value)} data-testid="fork-title" />
          <p className="form-label mb-2">{t('topic:tools.fork-category')}</p>
          <CategorySelect value={cid} onChange={setCid} />
        </ToolDialog>
      )}
      {dialog === 'move' && (
        <ToolDialog title={t('topic:tools.move-posts-title')} confirmLabel={t('topic:tools.move-posts')} busy={busy} ready={!!target} onClose={() => setDialog(null)}
          onConfirm={() => void run([['POST', '/topic-tools/move-posts', { pids, tid: target!.tid }]], 'topic:tools.moved')}>
          <TopicPicker label={t('topic:tools.target-topic')} exclude={topic.tid} picked={target ? [target] : []} onPick={setTarget} />
          {target && <p className="mt-3 mb-0 small d-flex align-items-center gap-1"><Icon name="chevron-right" size={14} /><span dir="auto">{target.title}</span></p>}
        </ToolDialog>
      )}
      {dialog === 'purge' && (
        <ToolDialog title={t('topic:tools.purge-posts')} confirmLabel={t('topic:tools.purge-posts')} busy={busy} danger onClose={() => setDialog(null)} onConfirm={() => void run([['POST', '/topic-tools/purge-posts', { pids }]], 'topic:tools.done')}>
          <p className="mb-0">{t('topic:tools.purge-confirm')}</p>
        </ToolDialog>
      )}
      {dialog === 'owner' && (
        <ToolDialog title={t('topic:tools.owner-title')} confirmLabel={t('topic:tools.change-owner')} busy={busy} ready={owner.trim().length > 0} onClose={() => setDialog(null)} onConfirm={() => void changeOwner()}>
          <label htmlFor="owner-name" className="form-label">{t('topic:tools.owner-username')}</label>
          <input id="owner-name" className="form-control" value={owner} onChange={(e) => setOwner(e.target.value)} autoComplete="off" />
        </ToolDialog>
      )}
    </>
  );
}
