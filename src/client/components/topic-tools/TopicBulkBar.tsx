import { useState } from 'react';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { CategorySelect } from '../composer/CategorySelect';
import { reloadPage, runWrites, type Write } from './common';
import { ToolDialog } from './ToolDialog';

type Dialog = 'move' | 'purge' | 'merge' | null;

/**
 * The bar of a topic list's selection mode: for members, mark the selected topics read or
 * unread (`read`); for moderators (`moderate`), lock, unlock, pin, unpin, move, merge, delete,
 * restore and purge them. Each topic is its own write (and transaction); the first refusal
 * stops the rest and says why.
 */
export function TopicBulkBar({ tids, onDone, moderate = true, read = false }: { tids: number[]; onDone: () => void; moderate?: boolean; read?: boolean }) {
  const rt = useRuntime();
  const { t } = useT();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [cid, setCid] = useState(0);
  const run = async (writes: Write[]) => {
    setBusy(true);
    const ok = await runWrites(rt, writes);
    setBusy(false);
    setDialog(null);
    onDone();
    if (ok) rt.alert({ type: 'success', message: t('topic:tools.done'), timeout: 3000 });
    reloadPage(rt);
  };
  const each = (method: Write[0], suffix: string) => () => void run(tids.map((tid) => [method, `/topics/${tid}${suffix}`]));
  const n = tids.length;
  const button = (label: string, onClick: () => void, cls = 'btn-outline-primary', testid?: string, min = 1) => (
    <button type="button" className={`btn btn-sm ${cls}`} disabled={n < min || busy} onClick={onClick} data-testid={testid}>{label}</button>
  );
  return (
    <>
      <div className="topic-bulk-bar card card-body d-flex flex-row flex-wrap align-items-center gap-2 p-2 mb-2" role="region" aria-label={t('topic:tools.topics-selected', n)} data-testid="topic-bulk-bar">
        <strong className="px-2" aria-live="polite">{t('topic:tools.topics-selected', n)}</strong>
        {read && button(t('topic:tools.mark-read'), each('PUT', '/read'), 'btn-outline-primary', 'bulk-mark-read')}
        {read && button(t('topic:tools.mark-unread'), each('DELETE', '/read'), 'btn-outline-primary', 'bulk-mark-unread')}
        {moderate && (
          <>
        {button(t('topic:tools.lock'), each('PUT', '/lock'))}
        {button(t('topic:tools.unlock'), each('DELETE', '/lock'))}
        {button(t('topic:tools.pin'), each('PUT', '/pin'))}
        {button(t('topic:tools.unpin'), each('DELETE', '/pin'))}
        {button(t('topic:tools.move'), () => setDialog('move'))}
        {button(t('topic:tools.merge'), () => setDialog('merge'), 'btn-outline-primary', 'bulk-merge', 2)}
        {button(t('topic:tools.delete'), each('DELETE', '/state'), 'btn-outline-danger')}
        {button(t('topic:tools.restore'), each('PUT', '/state'), 'btn-outline-secondary')}
        {button(t('topic:tools.purge'), () => setDialog('purge'), 'btn-danger')}
          </>
        )}
      </div>
      {dialog === 'move' && (
        <ToolDialog title={t('topic:tools.move-title')} confirmLabel={t('topic:tools.move')} busy={busy} ready={cid > 0} onClose={() => setDialog(null)}
          onConfirm={() => void run(tids.map((tid) => ['PUT', `/topics/${tid}/move`, { cid }]))}>
          <p className="form-label">{t('topic:tools.move-to-category')}</p>
          <CategorySelect value={cid} onChange={setCid} />
        </ToolDialog>
      )}
      {dialog === 'merge' && (
        <ToolDialog title={t('topic:tools.merge-title')} confirmLabel={t('topic:tools.merge')} busy={busy} onClose={() => setDialog(null)}
          onConfirm={() => void run([['POST', '/topic-tools/merge', { tids }]])}>
          <p className="mb-0">{t('topic:tools.merge-oldest', n)}</p>
        </ToolDialog>
      )}
      {dialog === 'purge' && (
        <ToolDialog title={t('topic:tools.purge')} confirmLabel={t('topic:tools.purge')} danger busy={busy} onClose={() => setDialog(null)}
          onConfirm={() => void run(tids.map((tid) => ['DELETE', `/topics/${tid}`]))}>
          <p className="mb-0">{t('topic:tools.purge-confirm')}</p>
        </ToolDialog>
      )}
    </>
  );
}
