import { useMemo, useState, type DragEvent, type FormEvent } from 'react';
import Modal from 'react-bootstrap/Modal';
import type { AdminCategoriesPage, AdminCategoryNode } from '../../../../shared/schemas/admin-categories';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { CategoryIcon } from '../../../components/CategoryIcon';
import { Icon } from '../../../components/Icon';
import { PageHeader } from '../../../components/PageHeader';
import { errorText } from '../../../i18n';

type Zone = 'before' | 'after' | 'into';
/** Where a category goes: its parent and its 1-based position among its new siblings. */
interface Move {
  parentCid: number;
  order: number;
}

/** The siblings of a parent (0: top level) in order, without `except`. */
function siblingsOf(tree: AdminCategoryNode[], parentCid: number, except = 0): AdminCategoryNode[] {
  return tree.filter((c) => c.parentCid === parentCid && c.cid !== except);
}

/** True when `cid` is `ancestor` or below it. */
function within(byCid: Map<number, AdminCategoryNode>, cid: number, ancestor: number): boolean {
  const seen = new Set<number>();
  for (let c = cid; c > 0 && !seen.has(c); c = byCid.get(c)?.parentCid ?? 0) {
    if (c === ancestor) return true;
    seen.add(c);
  }
  return false;
}

/** The move a drop of `cid` on `target` (in a zone of its row) makes, or null when it would nest it in itself. */
export function dropMove(tree: AdminCategoryNode[], cid: number, target: AdminCategoryNode, zone: Zone): Move | null {
  const byCid = new Map(tree.map((c) => [c.cid, c]));
  if (cid === target.cid) return null;
  if (zone === 'into') {
    if (within(byCid, target.cid, cid)) return null;
    return { parentCid: target.cid, order: siblingsOf(tree, target.cid, cid).length + 1 };
  }
  if (within(byCid, target.parentCid, cid)) return null;
  const index = siblingsOf(tree, target.parentCid, cid).findIndex((c) => c.cid === target.cid);
  return { parentCid: target.parentCid, order: index + (zone === 'before' ? 1 : 2) };
}

/** admin/manage/categories: the category tree; drag and drop (or the row's buttons) to reorder and re-parent, create, disable, delete. */
export default function AdminCategories({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminCategoriesPage;
  const tree = data.categoriesTree;
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState('');
  const [parent, setParent] = useState(0);
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<{ cid: number; zone: Zone } | null>(null);
  const [deleting, setDeleting] = useState<AdminCategoryNode | null>(null);
  const byCid = useMemo(() => new Map(tree.map((c) => [c.cid, c])), [tree]);

  const reload = () => rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });
  const run = async (fn: () => Promise<unknown>, message: string) => {
    setBusy(true);
    try {
      await fn();
      rt.alert({ type: 'success', message, timeout: 3000 });
      reload();
    } catch (err) {
      rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const move = (cid: number, to: Move | null) => {
    if (!to) return;
    void run(() => api(rt.config, 'PUT', `/categories/${cid}`, to), t('admin-manage:categories.moved'));
  };

  const create = (e: FormEvent) => {
    e.preventDefault();
    void run(() => api(rt.config, 'POST', '/categories', { name, parentCid: parent }).then(() => setName('')), t('admin-manage:categories.created'));
  };
  const toggle = (c: AdminCategoryNode) =>
    void run(() => api(rt.config, 'PUT', `/categories/${c.cid}`, { disabled: !c.disabled }), t(c.disabled ? 'admin-manage:categories.enabled' : 'admin-manage:categories.disabled'));

  const zoneOf = (e: DragEvent<HTMLElement>): Zone => {
    const box = e.currentTarget.getBoundingClientRect();
    const y = (e.clientY - box.top) / Math.max(box.height, 1);
    return y < 0.3 ? 'before' : y > 0.7 ? 'after' : 'into';
  };
  const onDragOver = (e: DragEvent<HTMLElement>, c: AdminCategoryNode) => {
    if (dragging === null) return;
    const zone = zoneOf(e);
    if (!dropMove(tree, dragging, c, zone)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    if (over?.cid !== c.cid || over.zone !== zone) setOver({ cid: c.cid, zone });
  };
  const onDrop = (e: DragEvent<HTMLElement>, c: AdminCategoryNode) => {
    e.preventDefault();
    const cid = dragging ?? Number(e.dataTransfer.getData('text/plain'));
    setDragging(null);
    setOver(null);
    if (cid) move(cid, dropMove(tree, cid, c, zoneOf(e)));
  };

  // The buttons' moves: up and down among siblings, outdent after the parent, indent into the previous sibling.
  const buttonMoves = (c: AdminCategoryNode) => {
    const sibs = siblingsOf(tree, c.parentCid);
    const i = sibs.findIndex((s) => s.cid === c.cid);
    const parentNode = byCid.get(c.parentCid);
    const prev = sibs[i - 1];
    return {
      up: i > 0 ? { parentCid: c.parentCid, order: i } : null,
      down: i < sibs.length - 1 ? { parentCid: c.parentCid, order: i + 2 } : null,
      outdent: parentNode ? { parentCid: parentNode.parentCid, order: siblingsOf(tree, parentNode.parentCid, c.cid).findIndex((s) => s.cid === parentNode.cid) + 2 } : null,
      indent: prev ? { parentCid: prev.cid, order: siblingsOf(tree, prev.cid).length + 1 } : null,
    };
  };
  const base = `${page.relative_path}/admin/manage/categories`;

  return (
    <>
      <PageHeader title={t('admin-manage:categories.title')} subtitle={t('admin-manage:categories.count', tree.length)} />
      <form className="card card-body mb-3" onSubmit={create} aria-labelledby="admin-cat-create-title">
        <h2 id="admin-cat-create-title" className="h6">{t('admin-manage:categories.create')}</h2>
        <div className="row g-2 align-items-end">
          <div className="col-12 col-md-5">
            <label htmlFor="admin-cat-name" className="form-label small mb-1">{t('admin-manage:category.name')}</label>
            <input id="admin-cat-name" className="form-control" value={name} maxLength={255} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="col-12 col-md-5">
            <label htmlFor="admin-cat-parent" className="form-label small mb-1">{t('admin-manage:category.parent')}</label>
            <select id="admin-cat-parent" className="form-select" value={parent} onChange={(e) => setParent(Number(e.target.value))}>
              <option value={0}>{t('admin-manage:categories.parent-none')}</option>
              {tree.map((c) => (
                <option key={c.cid} value={c.cid} dir="auto">{`${'\u2003'.repeat(c.level)}${c.name}`}</option>
              ))}
            </select>
          </div>
          <div className="col-12 col-md-2 d-grid">
            <button type="submit" className="btn btn-primary" disabled={busy || !name.trim()}>{t('admin-manage:categories.create-button')}</button>
          </div>
        </div>
      </form>
      <p className="small text-body-secondary" id="admin-cat-help">{t('admin-manage:categories.drag-help')}</p>
      {tree.length === 0 && <p className="text-body-secondary">{t('admin-manage:categories.none')}</p>}
      <ul className="list-group admin-category-tree" aria-describedby="admin-cat-help">
        {tree.map((c) => {
          const moves = buttonMoves(c);
          const zone = over?.cid === c.cid ? over.zone : null;
          return (
            <li
              key={c.cid}
              className={`list-group-item d-flex flex-wrap align-items-center gap-2${c.disabled ? ' bg-body-tertiary' : ''}${zone === 'into' ? ' border-primary border-2' : ''}`}
              style={{
                paddingInlineStart: `${0.75 + c.level * 1.5}rem`,
                boxShadow: zone === 'before' ? 'inset 0 3px 0 var(--bs-primary)' : zone === 'after' ? 'inset 0 -3px 0 var(--bs-primary)' : undefined,
                opacity: dragging === c.cid ? 0.5 : 1,
              }}
              data-cid={c.cid}
              draggable={!busy}
              onDragStart={(e) => {
                e.dataTransfer.setData('text/plain', String(c.cid));
                e.dataTransfer.effectAllowed = 'move';
                setDragging(c.cid);
              }}
              onDragEnd={() => {
                setDragging(null);
                setOver(null);
              }}
              onDragOver={(e) => onDragOver(e, c)}
              onDragLeave={() => over?.cid === c.cid && setOver(null)}
              onDrop={(e) => onDrop(e, c)}
            >
              <span className="text-body-secondary d-none d-md-inline" style={{ cursor: 'grab' }} aria-hidden="true">⠿</span>
              <CategoryIcon category={c} size={28} />
              <div className="flex-grow-1 min-w-0">
                <a href={`${base}/${c.cid}`} className="fw-semibold text-break" dir="auto">{c.name}</a>
                {c.disabled ? <span className="badge text-bg-secondary ms-2">{t('admin-manage:categories.disabled-badge')}</span> : null}
                <div className="small text-body-secondary">{t('admin-manage:categories.stats', c.topic_count, c.post_count)}</div>
              </div>
              <div className="btn-group btn-group-sm" role="group" aria-label={t('admin-manage:categories.move-group', c.name)}>
                <button type="button" className="btn btn-outline-secondary" disabled={busy || !moves.up} onClick={() => move(c.cid, moves.up)} title={t('admin-manage:categories.move-up')}>
                  <Icon name="chevron-up" label={t('admin-manage:categories.move-up')} size={16} />
                </button>
                <button type="button" className="btn btn-outline-secondary" disabled={busy || !moves.down} onClick={() => move(c.cid, moves.down)} title={t('admin-manage:categories.move-down')}>
                  <Icon name="chevron-down" label={t('admin-manage:categories.move-down')} size={16} />
                </button>
                <button type="button" className="btn btn-outline-secondary" disabled={busy || !moves.outdent} onClick={() => move(c.cid, moves.outdent)} title={t('admin-manage:categories.outdent')}>
                  <Icon name="chevron-left" label={t('admin-manage:categories.outdent')} size={16} />
                </button>
                <button type="button" className="btn btn-outline-secondary" disabled={busy || !moves.indent} onClick={() => move(c.cid, moves.indent)} title={t('admin-manage:categories.indent')}>
                  <Icon name="chevron-right" label={t('admin-manage:categories.indent')} size={16} />
                </button>
              </div>
              <div className="btn-group btn-group-sm" role="group" aria-label={t('admin-manage:categories.actions', c.name)}>
                <a className="btn btn-outline-primary" href={`${base}/${c.cid}`}>{t('admin-manage:categories.edit')}</a>
                <button type="button" className="btn btn-outline-secondary" disabled={busy} onClick={() => toggle(c)}>
                  {t(c.disabled ? 'admin-manage:categories.enable' : 'admin-manage:categories.disable')}
                </button>
                <button type="button" className="btn btn-outline-danger" disabled={busy} onClick={() => setDeleting(c)}>{t('admin-manage:categories.delete')}</button>
              </div>
            </li>
          );
        })}
      </ul>
      {deleting && <DeleteDialog category={deleting} tree={tree} busy={busy} onClose={() => setDeleting(null)} onDelete={(body, done) => void run(() => api(rt.config, 'DELETE', `/categories/${deleting.cid}`, body).then(done), t('admin-manage:categories.deleted'))} />}
    </>
  );
}

/** Asks where the topics of a category go before deleting it: moved to another category, or purged with it. */
function DeleteDialog({
  category,
  tree,
  busy,
  onClose,
  onDelete,
}: {
  category: AdminCategoryNode;
  tree: AdminCategoryNode[];
  busy: boolean;
  onClose: () => void;
  onDelete: (body: { topics?: 'move' | 'purge'; moveTo?: number }, done: () => void) => void;
}) {
  const { t } = useT();
  const targets = tree.filter((c) => c.cid !== category.cid && !c.link);
  const hasTopics = category.topic_count > 0 || category.post_count > 0;
  const [choice, setChoice] = useState<'move' | 'purge'>(targets.length && hasTopics ? 'move' : 'purge');
  const [moveTo, setMoveTo] = useState(targets[0]?.cid ?? 0);
  const [confirmText, setConfirmText] = useState('');
  // Purging topics asks for the category's name; an empty category needs no more than the button.
  const ready = choice === 'move' ? moveTo > 0 : !hasTopics || confirmText.trim() === category.name.trim();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ready) return;
    onDelete(choice === 'move' ? { topics: 'move', moveTo } : { topics: 'purge' }, onClose);
  };
  return (
    <Modal show onHide={onClose} centered aria-labelledby="admin-cat-delete-title">
      <form onSubmit={submit}>
        <Modal.Header closeButton closeLabel={t('global:close')}>
          <Modal.Title as="h2" className="h5" id="admin-cat-delete-title">{t('admin-manage:delete.title', category.name)}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>{hasTopics ? t('admin-manage:delete.has-topics', category.topic_count, category.post_count) : t('admin-manage:delete.empty')}</p>
          <fieldset>
            <legend className="h6">{t('admin-manage:delete.topics-go')}</legend>
            <div className="form-check">
              <input className="form-check-input" type="radio" id="admin-cat-del-move" name="topics" checked={choice === 'move'} disabled={!targets.length} onChange={() => setChoice('move')} />
              <label className="form-check-label" htmlFor="admin-cat-del-move">{t('admin-manage:delete.move')}</label>
            </div>
            {choice === 'move' && (
              <div className="ms-4 my-2">
                <label htmlFor="admin-cat-del-target" className="form-label small mb-1">{t('admin-manage:delete.move-to')}</label>
                <select id="admin-cat-del-target" className="form-select" value={moveTo} onChange={(e) => setMoveTo(Number(e.target.value))}>
                  {targets.map((c) => (
                    <option key={c.cid} value={c.cid} dir="auto">{`${'\u2003'.repeat(c.level)}${c.name}`}</option>
                  ))}
                </select>
              </div>
            )}
            <div className="form-check">
              <input className="form-check-input" type="radio" id="admin-cat-del-purge" name="topics" checked={choice === 'purge'} onChange={() => setChoice('purge')} />
              <label className="form-check-label" htmlFor="admin-cat-del-purge">{t('admin-manage:delete.purge')}</label>
            </div>
            {choice === 'purge' && hasTopics && (
              <div className="ms-4 my-2">
                <label htmlFor="admin-cat-del-confirm" className="form-label small mb-1">{t('admin-manage:delete.type-name', category.name)}</label>
                <input id="admin-cat-del-confirm" className="form-control" value={confirmText} onChange={(e) => setConfirmText(e.target.value)} autoComplete="off" />
              </div>
            )}
          </fieldset>
          <p className="small text-body-secondary mb-0">{t('admin-manage:delete.children')}</p>
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>{t('admin-manage:cancel')}</button>
          <button type="submit" className="btn btn-danger" disabled={busy || !ready}>{t('admin-manage:delete.confirm')}</button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
