import { useEffect, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { Timeago } from '../Timeago';
import { htmlText, wordDiff, type DiffPart } from './word-diff';

/** NodeBB's GET /posts/{pid}/diffs answer. */
interface Diffs {
  timestamps: string[];
  /** title: the topic's title in that version (the main post's history only). */
  revisions: { timestamp: string; uid: number; username: string; title?: string }[];
  editable: boolean;
  deletable: boolean;
}

/** The text of the version written at `ts` (NodeBB's GET /posts/{pid}/diffs/{since}). */
async function versionText(rt: ReturnType<typeof useRuntime>, pid: number, ts: string): Promise<string> {
  const post = await api<{ content: string }>(rt.config, 'GET', `/posts/${pid}/diffs/${ts}`);
  return htmlText(post.content);
}

/**
 * The topic's diffs tool: every version of a post (time, editor), the words each one changed
 * from the version before it, and for moderators restore (a new edit) and delete of a version.
 */
export default function DiffsDialog({ pid, onClose }: { pid: number; onClose: () => void }) {
  const rt = useRuntime();
  const { t } = useT();
  const [diffs, setDiffs] = useState<Diffs | null>(null);
  const [selected, setSelected] = useState(0);
  const [parts, setParts] = useState<DiffPart[] | null>(null);
  const [busy, setBusy] = useState(false);
  const fail = (err: unknown) => rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });

  const load = async () => {
    try {
      setDiffs(await api<Diffs>(rt.config, 'GET', `/posts/${pid}/diffs`));
    } catch (err) {
      fail(err);
      onClose();
    }
  };
  useEffect(() => void load(), [pid]);

  // The selected version against the one before it (the original against nothing).
  useEffect(() => {
    if (!diffs) return;
    const ts = diffs.timestamps;
    let live = true;
    setParts(null);
    const older = ts[selected + 1];
    void Promise.all([versionText(rt, pid, ts[selected]!), older ? versionText(rt, pid, older) : Promise.resolve('')])
      .then(([now, before]) => live && setParts(wordDiff(before, now)))
      .catch((err: unknown) => live && fail(err));
    return () => {
      live = false;
    };
  }, [diffs, selected]);

  const restore = async () => {
    if (!diffs) return;
    setBusy(true);
    try {
      await api(rt.config, 'PUT', `/posts/${pid}/diffs/${diffs.timestamps[selected]}`);
      rt.alert({ type: 'success', message: t('topic:diffs.post-restored') });
      onClose();
      rt.navigate(location.href, { force: true, replace: true });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!diffs || !window.confirm(t('topic:diffs.delete-confirm'))) return;
    setBusy(true);
    try {
      setDiffs(await api<Diffs>(rt.config, 'DELETE', `/posts/${pid}/diffs/${diffs.timestamps[selected]}`));
      setSelected(0);
      rt.alert({ type: 'success', message: t('topic:diffs.deleted') });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const last = (diffs?.timestamps.length ?? 1) - 1;
  // A version of the main post that changed the topic's title (from the version before it).
  const titleChanged = (i: number) => {
    const now = diffs?.revisions[i]?.title;
    const before = diffs?.revisions[i + 1]?.title;
    return now !== undefined && before !== undefined && now !== before;
  };
  const shownTitle = diffs && titleChanged(selected) ? wordDiff(diffs.revisions[selected + 1]!.title!, diffs.revisions[selected]!.title!) : null;
  const diffText = (list: DiffPart[]) => list.map((p, i) => (p.kind === 'ins' ? <ins key={i}>{p.text}</ins> : p.kind === 'del' ? <del key={i}>{p.text}</del> : <span key={i}>{p.text}</span>));
  return (
    <Modal show onHide={onClose} size="lg" centered scrollable aria-labelledby={`diffs-${pid}-title`}>
      <Modal.Header closeButton closeLabel={t('global:close')}>
        <Modal.Title as="h2" className="h5" id={`diffs-${pid}-title`}>{t('topic:diffs.title')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {!diffs ? (
          <div className="text-center py-4"><span className="spinner-border spinner-border-sm" role="status" aria-label={t('global:loading')} /></div>
        ) : (
          <div className="d-flex flex-column flex-md-row gap-3" data-testid="diffs-dialog">
            <div className="list-group diffs-revisions flex-shrink-0" style={{ minWidth: 200 }} role="listbox" aria-label={t('topic:diffs.description', diffs.timestamps.length)}>
              {diffs.revisions.map((r, i) => (
                <button key={r.timestamp + i} type="button" role="option" aria-selected={i === selected} className={`list-group-item list-group-item-action small${i === selected ? ' active' : ''}`} onClick={() => setSelected(i)}>
                  <span className="d-block fw-semibold">
                    <Timeago ts={Number(r.timestamp)} />
                  </span>
                  <span className="d-block">{t('topic:diffs.by', r.username)}</span>
                  {i === 0 && <span className="badge text-bg-secondary">{t('topic:diffs.current-revision')}</span>}
                  {i === last && i !== 0 && <span className="badge text-bg-light border">{t('topic:diffs.original-revision')}</span>}
                  {titleChanged(i) && <span className="badge text-bg-info ms-1">{t('topic:diffs.title-changed')}</span>}
                </button>
              ))}
            </div>
            <div className="flex-grow-1 min-w-0">
              {shownTitle && (
                <div className="diffs-title border rounded p-2 mb-2 fw-semibold" style={{ overflowWrap: 'anywhere' }} data-testid="diffs-title" dir="auto">
                  <span className="visually-hidden">{t('topic:diffs.title-changed')}: </span>
                  {diffText(shownTitle)}
                </div>
              )}
              <div className="diffs-text border rounded p-2" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} aria-live="polite" data-testid="diffs-text">
                {parts === null ? (
                  <span className="spinner-border spinner-border-sm" role="status" aria-label={t('global:loading')} />
                ) : (
                  diffText(parts)
                )}
              </div>
              {selected > 0 && (diffs.editable || diffs.deletable) && (
                <div className="d-flex flex-wrap gap-2 mt-3 align-items-center">
                  {diffs.editable && (
                    <button type="button" className="btn btn-sm btn-primary" disabled={busy} onClick={() => void restore()}>
                      {t('topic:diffs.restore')}
                    </button>
                  )}
                  {diffs.deletable && (
                    <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy} onClick={() => void remove()}>
                      {t('topic:diffs.delete')}
                    </button>
                  )}
                  {diffs.editable && <span className="small text-body-secondary">{t('topic:diffs.restore-description')}</span>}
                </div>
              )}
            </div>
          </div>
        )}
      </Modal.Body>
    </Modal>
  );
}
