import { useEffect, useState, type FormEvent } from 'react';
import type { AdminTagsPage } from '../../../shared/schemas/admin-people';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { PageHeader } from '../../components/PageHeader';
import { Pagination } from '../../components/Pagination';

/** admin/manage/tags: every tag with its topic count; search, create, rename, merge the selected ones, delete. */
export default function AdminTags({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminTagsPage;
  const [query, setQuery] = useState(data.query);
  const [selected, setSelected] = useState<string[]>([]);
  const [target, setTarget] = useState('');
  const [created, setCreated] = useState('');
  const [renaming, setRenaming] = useState<{ tag: string; name: string } | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setSelected([]);
    setQuery(data.query);
  }, [data]);

  const reload = () => rt.navigate(window.location.pathname + window.location.search, { replace: true, force: true });
  const run = async (fn: () => Promise<unknown>, message: string) => {
    setBusy(true);
    try {
      await fn();
      rt.alert({ type: 'success', message, timeout: 3000 });
      reload();
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const search = (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    rt.navigate(`${page.relative_path}/admin/manage/tags${q ? `?query=${encodeURIComponent(q)}` : ''}`);
  };
  const create = (e: FormEvent) => {
    e.preventDefault();
    void run(() => api(rt.config, 'POST', '/admin/tags', { tag: created }).then(() => setCreated('')), t('admin-people:tags.created'));
  };
  const merge = (e: FormEvent) => {
    e.preventDefault();
    void run(() => api(rt.config, 'POST', '/admin/tags/merge', { tags: selected, into: target }).then(() => setTarget('')), t('admin-people:tags.merged'));
  };
  const del = () => {
    if (!window.confirm(t('admin-people:tags.confirm-delete', selected.length))) return;
    void run(() => api(rt.config, 'DELETE', '/admin/tags', { tags: selected }), t('admin-people:tags.deleted'));
  };
  const rename = (e: FormEvent) => {
    e.preventDefault();
    if (!renaming) return;
    void run(() => api(rt.config, 'PUT', `/admin/tags/${encodeURIComponent(renaming.tag)}`, { name: renaming.name }).then(() => setRenaming(null)), t('admin-people:tags.renamed'));
  };
  const toggle = (tag: string) => setSelected((s) => (s.includes(tag) ? s.filter((x) => x !== tag) : [...s, tag]));

  return (
    <>
      <PageHeader title={t('admin-people:tags.title')} subtitle={t('admin-people:tags.count', data.tagCount)} />
      <div className="row g-3 mb-3">
        <form role="search" className="col-12 col-md-6" onSubmit={search}>
          <label htmlFor="admin-tags-query" className="form-label small mb-1">{t('admin-people:tags.search')}</label>
          <input id="admin-tags-query" type="search" className="form-control" value={query} onChange={(e) => setQuery(e.target.value)} />
        </form>
        <form className="col-12 col-md-6" onSubmit={create}>
          <label htmlFor="admin-tags-create" className="form-label small mb-1">{t('admin-people:tags.create')}</label>
          <div className="input-group">
            <input id="admin-tags-create" className="form-control" value={created} onChange={(e) => setCreated(e.target.value)} />
            <button type="submit" className="btn btn-outline-primary" disabled={busy || !created.trim()}>{t('admin-people:tags.create-button')}</button>
          </div>
        </form>
      </div>

      <section className="card mb-3" aria-labelledby="admin-tags-selected">
        <div className="card-body py-2">
          <h2 id="admin-tags-selected" className="h6">{t('admin-people:tags.selected', selected.length)}</h2>
          <form className="d-flex flex-wrap gap-2 align-items-end" onSubmit={merge}>
            <div>
              <label htmlFor="admin-tags-target" className="form-label small mb-1">{t('admin-people:tags.merge-into')}</label>
              <input id="admin-tags-target" className="form-control form-control-sm" value={target} onChange={(e) => setTarget(e.target.value)} />
            </div>
            <button type="submit" className="btn btn-sm btn-primary" disabled={busy || !selected.length || !target.trim()}>{t('admin-people:tags.merge')}</button>
            <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy || !selected.length} onClick={del}>{t('admin-people:tags.delete')}</button>
          </form>
        </div>
      </section>

      {data.tags.length === 0 ? (
        <div className="alert alert-info" role="status">{t('admin-people:tags.none')}</div>
      ) : (
        <ul className="list-unstyled d-flex flex-wrap gap-2 admin-tags">
          {data.tags.map((tag) => (
            <li key={tag.value} data-tag={tag.value} className={`border rounded px-2 py-1 d-flex align-items-center gap-2 ${selected.includes(tag.value) ? 'border-primary bg-primary-subtle' : ''}`}>
              {renaming?.tag === tag.value ? (
                <form className="d-flex gap-1" onSubmit={rename}>
                  <label htmlFor="admin-tags-rename" className="visually-hidden">{t('admin-people:tags.new-name')}</label>
                  <input id="admin-tags-rename" className="form-control form-control-sm" value={renaming.name} onChange={(e) => setRenaming({ tag: tag.value, name: e.target.value })} autoFocus />
                  <button type="submit" className="btn btn-sm btn-primary" disabled={busy}>{t('admin-people:tags.save')}</button>
                  <button type="button" className="btn btn-sm btn-outline-dark" onClick={() => setRenaming(null)}>{t('admin-people:tags.cancel')}</button>
                </form>
              ) : (
                <>
                  <input type="checkbox" className="form-check-input m-0" id={`tag-${tag.valueEncoded}`} checked={selected.includes(tag.value)} onChange={() => toggle(tag.value)} />
                  <label htmlFor={`tag-${tag.valueEncoded}`} className="text-break">{tag.value}</label>
                  <span className="badge text-bg-secondary">{tag.score}</span>
                  <button type="button" className="btn btn-link btn-sm p-0" onClick={() => setRenaming({ tag: tag.value, name: tag.value })}>
                    {t('admin-people:tags.rename')}<span className="visually-hidden"> {tag.value}</span>
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pagination pagination={data.pagination} />
    </>
  );
}
