import { useState } from 'react';
import type { AdminCustomFieldsPage, CustomUserField } from '../../../../shared/schemas/admin-people';
import type { PageBase } from '../../../../shared/types';
import { api } from '../../../app/api';
import { useT } from '../../../app/hooks';
import { useRuntime } from '../../../app/runtime';
import { errorText } from '../../../i18n';
import { PageHeader } from '../../../components/PageHeader';

const TYPES: CustomUserField['type'][] = ['text', 'number', 'url', 'select'];
const VISIBILITIES: CustomUserField['visibility'][] = ['all', 'loggedin', 'privileged'];

interface Draft extends Omit<CustomUserField, 'options'> {
  /** The options as the admin types them, one per line. */
  options: string;
  id: number;
}

let nextId = 1;
const draftOf = (f: CustomUserField): Draft => ({ ...f, options: f.options.join('\n'), id: nextId++ });

/** admin/manage/users/custom-fields: the admin-defined profile fields (add, edit, reorder, delete), saved as one list. */
export default function AdminCustomFields({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminCustomFieldsPage;
  const [fields, setFields] = useState<Draft[]>(() => data.fields.map(draftOf));
  const [busy, setBusy] = useState(false);
  const [dirty, setDirty] = useState(false);

  const change = (id: number, over: Partial<Draft>) => {
    setFields((list) => list.map((f) => (f.id === id ? { ...f, ...over } : f)));
    setDirty(true);
  };
  const move = (i: number, by: -1 | 1) => {
    setFields((list) => {
      const n = [...list];
      const [f] = n.splice(i, 1);
      n.splice(i + by, 0, f!);
      return n;
    });
    setDirty(true);
  };
  const remove = (id: number) => {
    setFields((list) => list.filter((f) => f.id !== id));
    setDirty(true);
  };
  const add = () => {
    setFields((list) => [...list, { key: '', name: '', type: 'text', options: '', visibility: 'all', id: nextId++ }]);
    setDirty(true);
  };
  const save = async () => {
    setBusy(true);
    try {
      const body = { fields: fields.map(({ id: _id, options, ...f }) => ({ ...f, options: f.type === 'select' ? options.split('\n') : [] })) };
      const saved = await api<{ fields: CustomUserField[] }>(rt.config, 'PUT', '/admin/users/custom-fields', body);
      setFields(saved.fields.map(draftOf));
      setDirty(false);
      rt.alert({ type: 'success', message: t('admin-people:fields.saved'), timeout: 3000 });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title={t('admin-people:fields.title')} subtitle={t('admin-people:fields.intro')} />
      {fields.length === 0 && <div className="alert alert-info" role="status">{t('admin-people:fields.none')}</div>}
      <ol className="list-unstyled d-flex flex-column gap-3 mb-3">
        {fields.map((f, i) => (
          <li key={f.id} className="card" data-key={f.key}>
            <div className="card-body row g-2">
              <div className="col-12 col-sm-6 col-lg-3">
                <label htmlFor={`cf-key-${f.id}`} className="form-label small mb-1">{t('admin-people:fields.key')}</label>
                <input id={`cf-key-${f.id}`} className="form-control form-control-sm" value={f.key} maxLength={50} onChange={(e) => change(f.id, { key: e.target.value })} />
              </div>
              <div className="col-12 col-sm-6 col-lg-3">
                <label htmlFor={`cf-name-${f.id}`} className="form-label small mb-1">{t('admin-people:fields.name')}</label>
                <input id={`cf-name-${f.id}`} className="form-control form-control-sm" value={f.name} maxLength={200} onChange={(e) => change(f.id, { name: e.target.value })} />
              </div>
              <div className="col-6 col-lg-3">
                <label htmlFor={`cf-type-${f.id}`} className="form-label small mb-1">{t('admin-people:fields.type')}</label>
                <select id={`cf-type-${f.id}`} className="form-select form-select-sm" value={f.type} onChange={(e) => change(f.id, { type: e.target.value as Draft['type'] })}>
                  {TYPES.map((x) => <option key={x} value={x}>{t(`admin-people:fields.type-${x}`)}</option>)}
                </select>
              </div>
              <div className="col-6 col-lg-3">
                <label htmlFor={`cf-vis-${f.id}`} className="form-label small mb-1">{t('admin-people:fields.visibility')}</label>
                <select id={`cf-vis-${f.id}`} className="form-select form-select-sm" value={f.visibility} onChange={(e) => change(f.id, { visibility: e.target.value as Draft['visibility'] })}>
                  {VISIBILITIES.map((x) => <option key={x} value={x}>{t(`admin-people:fields.visibility-${x}`)}</option>)}
                </select>
              </div>
              {f.type === 'select' && (
                <div className="col-12">
                  <label htmlFor={`cf-options-${f.id}`} className="form-label small mb-1">{t('admin-people:fields.options')}</label>
                  <textarea id={`cf-options-${f.id}`} className="form-control form-control-sm" rows={3} value={f.options} onChange={(e) => change(f.id, { options: e.target.value })} />
                </div>
              )}
              <div className="col-12 d-flex gap-1 justify-content-end">
                <button type="button" className="btn btn-sm btn-outline-dark" disabled={i === 0} onClick={() => move(i, -1)}>{t('admin-people:fields.up')}</button>
                <button type="button" className="btn btn-sm btn-outline-dark" disabled={i === fields.length - 1} onClick={() => move(i, 1)}>{t('admin-people:fields.down')}</button>
                <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => remove(f.id)}>{t('admin-people:fields.delete')}</button>
              </div>
            </div>
          </li>
        ))}
      </ol>
      <div className="d-flex gap-2">
        <button type="button" className="btn btn-outline-primary" onClick={add}>{t('admin-people:fields.add')}</button>
        <button type="button" className="btn btn-primary" disabled={busy || !dirty} onClick={() => void save()}>{t('admin-people:fields.save')}</button>
      </div>
    </>
  );
}
