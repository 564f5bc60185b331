import { useState } from 'react';
import Dropdown from '../Dropdown';
import type { TopicPage } from '../../../shared/types';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { CategorySelect } from '../composer/CategorySelect';
import { Icon } from '../Icon';
import { reloadPage, runWrites, uidOf, type TopicRef } from './common';
import { topicPath } from '../../util/urls';
import { ToolDialog } from './ToolDialog';
import { TopicPicker } from './TopicPicker';

type Dialog = 'pin' | 'move' | 'merge' | 'tags' | 'editors' | 'purge' | null;

/**
 * The topic page's "Topic tools" menu for moderators: lock, pin (with an optional expiry), move,
 * merge, delete / restore / purge, tags, editors, and the post selection mode.
 */
export function TopicTools({ topic, selecting, onSelecting }: { topic: TopicPage; selecting: boolean; onSelecting: (on: boolean) => void }) {
  const rt = useRuntime();
  const { t } = useT();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [expiry, setExpiry] = useState('');
  const [cid, setCid] = useState(0);
  const [merging, setMerging] = useState<TopicRef[]>([]);
  // The merge's surviving topic (NodeBB's mainTid; this one unless another is chosen) and its optional new title.
  const [mainTid, setMainTid] = useState(topic.tid);
  const [mergeTitle, setMergeTitle] = useState('');
  const [tags, setTags] = useState((topic.tags ?? []).map((x) => x.value).join(', '));
  const [editors, setEditors] = useState('');
  const base = `/topics/${topic.tid}`;

  const run = async (writes: Parameters<typeof runWrites>[1], done?: string, url?: string) => {
    setBusy(true);
    const ok = await runWrites(rt, writes);
    setBusy(false);
    if (!ok) return;
    setDialog(null);
    if (done) rt.alert({ type: 'success', message: t(done), timeout: 3000 });
    reloadPage(rt, url);
  };
  const open = async (d: Dialog) => {
    if (d === 'editors') {
      try {
        const res = await fetch(`${rt.config.relative_path}/api/v3${base}/editors`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
        const body = (await res.json()) as { response?: { editors?: { username: string }[] } };
        setEditors((body.response?.editors ?? []).map((u) => u.username).join('\n'));
      } catch {
        setEditors('');
      }
    }
    setDialog(d);
  };
  const saveEditors = async () => {
    const names = editors.split(/\n|,/).map((n) => n.trim()).filter(Boolean);
    const uids: number[] = [];
    for (const name of names) {
      const uid = await uidOf(rt, name);
      if (uid === null) return rt.alert({ type: 'danger', message: t('error:no-user') });
      uids.push(uid);
    }
    await run([['PUT', `${base}/editors`, { uids }]], 'topic:tools.done');
  };
  const item = (icon: string, label: string, onClick: () => void, testid: string) => (
    <Dropdown.Item as="button" type="button" onClick={onClick} data-testid={testid}>
      <Icon name={icon} size={14} className="me-2" />
      {label}
    </Dropdown.Item>
  );

  return (
    <>
      <Dropdown className="topic-tools">
        <Dropdown.Toggle variant="light" className="border d-inline-flex align-items-center gap-1" data-testid="topic-tools">
          <Icon name="more" size={16} />
          <span>{t('topic:tools.title')}</span>
        </Dropdown.Toggle>
        <Dropdown.Menu className="shadow">
          {item('lock', t(topic.locked ? 'topic:tools.unlock' : 'topic:tools.lock'), () => void run([[topic.locked ? 'DELETE' : 'PUT', `${base}/lock`]]), 'tool-lock')}
          {topic.pinned
            ? item('pin', t('topic:tools.unpin'), () => void run([['DELETE', `${base}/pin`]]), 'tool-pin')
            : item('pin', t('topic:tools.pin'), () => void open('pin'), 'tool-pin')}
          {item('chevron-right', t('topic:tools.move'), () => void open('move'), 'tool-move')}
          {item('comments', t('topic:tools.merge'), () => void open('merge'), 'tool-merge')}
          {item('tag', t('topic:tools.tags'), () => void open('tags'), 'tool-tags')}
          {item('edit', t('topic:tools.editors'), () => void open('editors'), 'tool-editors')}
          {item('check', t(selecting ? 'topic:tools.cancel' : 'topic:tools.select-posts'), () => onSelecting(!selecting), 'tool-select-posts')}
          <Dropdown.Divider />
          {topic.deleted
            ? item('restore', t('topic:tools.restore'), () => void run([['PUT', `${base}/state`]]), 'tool-restore')
            : item('trash', t('topic:tools.delete'), () => void run([['DELETE', `${base}/state`]]), 'tool-delete')}
          {item('x', t('topic:tools.purge'), () => void open('purge'), 'tool-purge')}
        </Dropdown.Menu>
      </Dropdown>

      {dialog === 'pin' && (
        <ToolDialog title={t('topic:tools.pin')} confirmLabel={t('topic:tools.pin')} busy={busy} onClose={() => setDialog(null)}
          onConfirm={() => void run([['PUT', `${base}/pin`, expiry ? { expiry: new Date(expiry).getTime() } : {}]])}>
          <label htmlFor="pin-expiry" className="form-label">{t('topic:tools.pin-expiry')}</label>
          <input id="pin-expiry" type="datetime-local" className="form-control" value={expiry} onChange={(e) => setExpiry(e.target.value)} />
        </ToolDialog>
      )}
      {dialog === 'move' && (
        <ToolDialog title={t('topic:tools.move-title')} confirmLabel={t('topic:tools.move')} busy={busy} ready={cid > 0} onClose={() => setDialog(null)}
          onConfirm={() => void run([['PUT', `${base}/move`, { cid }]], 'topic:tools.moved')}>
          <p className="form-label">{t('topic:tools.move-to-category')}</p>
          <CategorySelect value={cid} onChange={setCid} />
        </ToolDialog>
      )}
      {dialog === 'merge' && (
        <ToolDialog title={t('topic:tools.merge-title')} confirmLabel={t('topic:tools.merge')} busy={busy} ready={merging.length > 0} onClose={() => setDialog(null)}
          onConfirm={() => {
            const main = merging.find((m) => m.tid === mainTid);
            const body = { tids: [topic.tid, ...merging.map((m) => m.tid)], mainTid: main ? main.tid : topic.tid, ...(mergeTitle.trim() ? { newTitle: mergeTitle.trim() } : {}) };
            void run([['POST', '/topic-tools/merge', body]], 'topic:tools.merged', main ? `${rt.config.relative_path}${topicPath(main.tid, main.slug)}` : undefined);
          }}>
          <TopicPicker label={t('topic:tools.merge-search')} exclude={topic.tid} picked={merging}
            onPick={(p) => setMerging((list) => (list.some((x) => x.tid === p.tid) ? list.filter((x) => x.tid !== p.tid) : [...list, p]))} />
          {merging.length > 0 && (
            <fieldset className="mt-3 merge-list" data-testid="merge-main">
              <legend className="form-label fs-6 mb-1">{t('topic:tools.merge-main')}</legend>
              {[{ tid: topic.tid, title: topic.titleRaw }, ...merging].map((m) => (
                <div key={m.tid} className="form-check">
                  <input className="form-check-input" type="radio" name="merge-main" id={`merge-main-${m.tid}`} checked={(merging.some((x) => x.tid === mainTid) ? mainTid : topic.tid) === m.tid} onChange={() => setMainTid(m.tid)} />
                  <label className="form-check-label small" htmlFor={`merge-main-${m.tid}`}>{m.title}</label>
                </div>
              ))}
            </fieldset>
          )}
          <label htmlFor="merge-title" className="form-label mt-3">{t('topic:tools.merge-new-title')}</label>
          <input id="merge-title" className="form-control" value={mergeTitle} onChange={(e) => setMergeTitle(e.target.value)} placeholder={topic.titleRaw} data-testid="merge-title" />
        </ToolDialog>
      )}
      {dialog === 'tags' && (
        <ToolDialog title={t('topic:tools.tags-title')} confirmLabel={t('topic:tools.confirm')} busy={busy} onClose={() => setDialog(null)}
          onConfirm={() => void run([['PUT', `${base}/tags`, { tags: tags.split(',').map((x) => x.trim()).filter(Boolean) }]])}>
          <label htmlFor="tool-tags" className="form-label">{t('topic:tools.tags-hint')}</label>
          <input id="tool-tags" className="form-control" value={tags} onChange={(e) => setTags(e.target.value)} />
        </ToolDialog>
      )}
      {dialog === 'editors' && (
        <ToolDialog title={t('topic:tools.editors-title')} confirmLabel={t('topic:tools.confirm')} busy={busy} onClose={() => setDialog(null)} onConfirm={() => void saveEditors()}>
          <label htmlFor="tool-editors" className="form-label">{t('topic:tools.editors-hint')}</label>
          <textarea id="tool-editors" className="form-control" rows={4} value={editors} onChange={(e) => setEditors(e.target.value)} />
        </ToolDialog>
      )}
      {dialog === 'purge' && (
        <ToolDialog title={t('topic:tools.purge')} confirmLabel={t('topic:tools.purge')} danger busy={busy} onClose={() => setDialog(null)}
          onConfirm={() => void run([['DELETE', base]], undefined, `${rt.config.relative_path}/category/${topic.cid}`)}>
          <p className="mb-0">{t('topic:tools.purge-confirm')}</p>
        </ToolDialog>
      )}
    </>
  );
}
