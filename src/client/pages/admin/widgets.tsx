import { useState, type DragEvent } from 'react';
import { WIDGET_AREAS, WIDGET_TYPES, type AdminWidgetsPage, type WidgetArea, type WidgetInput, type WidgetType, type WidgetView } from '../../../shared/schemas/widgets';
import type { PageBase } from '../../../shared/types';
import { api } from '../../app/api';
import { useT } from '../../app/hooks';
import { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { PageHeader } from '../../components/PageHeader';

type Draft = Required<WidgetInput> & { id?: number; key: number };
type Areas = Record<WidgetArea, Draft[]>;

let nextKey = 1;
const LIST_TYPES: WidgetType[] = ['recenttopics', 'onlineusers', 'populartags', 'categories'];
const DRAG_TYPE = 'application/x-palaver-widget';

function draftOf(w: WidgetView): Draft {
  return { id: w.id, key: nextKey++, type: w.type, title: w.title, container: w.container, text: w.text, count: w.count, groups: w.groups, hideMobile: w.hideMobile };
}

function newDraft(type: WidgetType): Draft {
  return { key: nextKey++, type, title: '', container: 'card', text: '', count: 5, groups: [], hideMobile: false };
}

function areasOf(data: AdminWidgetsPage, template: string): Areas {
  const tpl = data.templates.find((t) => t.template === template);
  const out: Areas = { header: [], sidebar: [], footer: [] };
  for (const a of tpl?.areas ?? []) out[a.location] = a.data.map(draftOf);
  return out;
}

/** admin/extend/widgets: drag widget types into the header, sidebar and footer of a template (or use the add buttons), edit, order, save, delete. */
export default function AdminWidgets({ page }: { page: PageBase }) {
  const { t } = useT();
  const rt = useRuntime();
  const data = page as AdminWidgetsPage;
  const [template, setTemplate] = useState(data.templates[0]?.template ?? 'global');
  const [saved, setSaved] = useState<Record<string, Areas>>({});
  const [areas, setAreas] = useState<Areas>(() => areasOf(data, template));
  const [open, setOpen] = useState<number | null>(null);
  const [target, setTarget] = useState<Record<string, WidgetArea>>({});
  const [busy, setBusy] = useState(false);
  const [dropping, setDropping] = useState<WidgetArea | null>(null);

  const dirty = (next: Areas) => {
    setAreas(next);
    rt.setUnsaved('admin-widgets', true);
  };
  const chooseTemplate = (tpl: string) => {
    setSaved((s) => ({ ...s, [template]: areas }));
    setTemplate(tpl);
    setAreas(saved[tpl] ?? areasOf(data, tpl));
    setOpen(null);
  };
  const add = (type: WidgetType, area: WidgetArea) => {
    const d = newDraft(type);
    dirty({ ...areas, [area]: [...areas[area], d] });
    setOpen(d.key);
  };
  const update = (area: WidgetArea, key: number, patch: Partial<Draft>) => dirty({ ...areas, [area]: areas[area].map((w) => (w.key === key ? { ...w, ...patch } : w)) });
  const move = (area: WidgetArea, index: number, by: -1 | 1) => {
    const list = [...areas[area]];
    const j = index + by;
    if (j < 0 || j >= list.length) return;
    [list[index], list[j]] = [list[j]!, list[index]!];
    dirty({ ...areas, [area]: list });
  };
  const remove = async (area: WidgetArea, w: Draft) => {
    if (w.id) {
      try {
        await api(rt.config, 'DELETE', `/admin/widgets/${w.id}`);
        rt.alert({ type: 'success', message: t('admin-advanced:widgets.deleted'), timeout: 3000 });
      } catch (err) {
        rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
        return;
      }
    }
    setAreas({ ...areas, [area]: areas[area].filter((x) => x.key !== w.key) });
  };
  const save = async () => {
    setBusy(true);
    try {
      const strip = (list: Draft[]) => list.map(({ type, title, container, text, count, groups, hideMobile }) => ({ type, title, container, text, count, groups, hideMobile }));
      const res = await api<{ widgets: WidgetView[] }>(rt.config, 'PUT', '/admin/widgets', { template, areas: { header: strip(areas.header), sidebar: strip(areas.sidebar), footer: strip(areas.footer) } });
      const next: Areas = { header: [], sidebar: [], footer: [] };
      for (const w of res.widgets) next[w.area].push(draftOf(w));
      setAreas(next);
      setSaved((s) => ({ ...s, [template]: next }));
      rt.setUnsaved('admin-widgets', false);
      rt.alert({ type: 'success', message: t('admin-advanced:widgets.saved'), timeout: 3000 });
    } catch (err) {
      rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    } finally {
      setBusy(false);
    }
  };
  const onDrop = (area: WidgetArea) => (e: DragEvent) => {
    e.preventDefault();
    setDropping(null);
    const type = e.dataTransfer.getData(DRAG_TYPE) || e.dataTransfer.getData('text/plain');
    if ((WIDGET_TYPES as readonly string[]).includes(type)) add(type as WidgetType, area);
  };
  const typeName = (type: WidgetType) => t(`admin-advanced:widgets.type-${type}`);
  const templateName = (tpl: string) => (tpl === 'global' ? t('admin-advanced:widgets.global') : tpl);

  return (
    <>
      <PageHeader title={t('admin-advanced:widgets.title')}>
        <button type="button" className="btn btn-sm btn-primary" disabled={busy} onClick={() => void save()} data-action="save-widgets">
          {t('admin-advanced:widgets.save')}
        </button>
      </PageHeader>
      <div className="row g-3 admin-widgets">
        <div className="col-lg-4">
          <div className="mb-3">
            <label className="form-label fw-semibold" htmlFor="widget-template">{t('admin-advanced:widgets.template')}</label>
            <select id="widget-template" className="form-select" value={template} onChange={(e) => chooseTemplate(e.target.value)}>
              {data.templates.map((tpl) => (
                <option key={tpl.template} value={tpl.template}>{templateName(tpl.template)}</option>
              ))}
            </select>
          </div>
          <h2 className="h6">{t('admin-advanced:widgets.available')}</h2>
          <p className="small text-body-secondary">{t('admin-advanced:widgets.available-help')}</p>
          <ul className="list-unstyled d-grid gap-2" aria-label={t('admin-advanced:widgets.available')}>
            {WIDGET_TYPES.map((type) => (
              <li
                key={type}
                className="card card-body p-2"
                draggable
                data-widget-type={type}
                onDragStart={(e) => {
                  e.dataTransfer.setData(DRAG_TYPE, type);
                  e.dataTransfer.setData('text/plain', type);
                  e.dataTransfer.effectAllowed = 'copy';
                }}
              >
                <div className="d-flex flex-wrap align-items-center gap-2">
                  <span className="flex-grow-1">
                    <strong className="d-block">{typeName(type)}</strong>
                    <span className="small text-body-secondary">{t(`admin-advanced:widgets.type-${type}-help`)}</span>
                  </span>
                  <select
                    className="form-select form-select-sm w-auto"
                    aria-label={t('admin-advanced:widgets.add-area', typeName(type))}
                    value={target[type] ?? 'sidebar'}
                    onChange={(e) => setTarget({ ...target, [type]: e.target.value as WidgetArea })}
                  >
                    {WIDGET_AREAS.map((a) => (
                      <option key={a} value={a}>{t(`admin-advanced:widgets.area-${a}`)}</option>
                    ))}
                  </select>
                  <button type="button" className="btn btn-sm btn-outline-primary" data-action="add-widget" onClick={() => add(type, target[type] ?? 'sidebar')}>
                    {t('admin-advanced:widgets.add')}<span className="visually-hidden"> {typeName(type)}</span>
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </div>
        <div className="col-lg-8">
          {WIDGET_AREAS.map((area) => (
            <section
              key={area}
              className={`card mb-3 widget-drop ${dropping === area ? 'border-primary border-2' : ''}`}
              data-area={area}
              aria-labelledby={`widget-area-${area}`}
              onDragOver={(e) => {
                e.preventDefault();
                e.dataTransfer.dropEffect = 'copy';
                if (dropping !== area) setDropping(area);
              }}
              onDragLeave={() => setDropping(null)}
              onDrop={onDrop(area)}
            >
              <h2 className="card-header h6 mb-0" id={`widget-area-${area}`}>
                {t(`admin-advanced:widgets.area-${area}`)} <span className="text-body-secondary small">({templateName(template)})</span>
              </h2>
              <div className="card-body d-grid gap-2">
                {areas[area].length === 0 && <p className="text-body-secondary small mb-0">{t('admin-advanced:widgets.drop-here')}</p>}
                {areas[area].map((w, i) => (
                  <div key={w.key} className="border rounded p-2" data-widget={w.type}>
                    <div className="d-flex flex-wrap align-items-center gap-2">
                      <button type="button" className="btn btn-link p-0 text-start flex-grow-1 text-decoration-none" aria-expanded={open === w.key} onClick={() => setOpen(open === w.key ? null : w.key)}>
                        <strong>{typeName(w.type)}</strong>
                        {w.title && <span className="text-body-secondary"> · {w.title}</span>}
                      </button>
                      <div className="btn-group btn-group-sm">
                        <button type="button" className="btn btn-outline-secondary" disabled={i === 0} onClick={() => move(area, i, -1)} aria-label={t('admin-advanced:widgets.up')}>↑</button>
                        <button type="button" className="btn btn-outline-secondary" disabled={i === areas[area].length - 1} onClick={() => move(area, i, 1)} aria-label={t('admin-advanced:widgets.down')}>↓</button>
                        <button type="button" className="btn btn-outline-danger" onClick={() => void remove(area, w)}>{t('admin-advanced:widgets.delete')}</button>
                      </div>
                    </div>
                    {open === w.key && (
                      <div className="row g-2 mt-1">
                        <div className="col-sm-6">
                          <label className="form-label small" htmlFor={`w-title-${w.key}`}>{t('admin-advanced:widgets.field-title')}</label>
                          <input id={`w-title-${w.key}`} className="form-control form-control-sm" maxLength={200} value={w.title} onChange={(e) => update(area, w.key, { title: e.target.value })} />
                        </div>
                        <div className="col-sm-6">
                          <label className="form-label small" htmlFor={`w-container-${w.key}`}>{t('admin-advanced:widgets.field-container')}</label>
                          <select id={`w-container-${w.key}`} className="form-select form-select-sm" value={w.container} onChange={(e) => update(area, w.key, { container: e.target.value as 'card' | 'none' })}>
                            <option value="card">{t('admin-advanced:widgets.container-card')}</option>
                            <option value="none">{t('admin-advanced:widgets.container-none')}</option>
                          </select>
                        </div>
                        {(w.type === 'html' || w.type === 'text') && (
                          <div className="col-12">
                            <label className="form-label small" htmlFor={`w-text-${w.key}`}>{t(w.type === 'html' ? 'admin-advanced:widgets.field-html' : 'admin-advanced:widgets.field-text')}</label>
                            <textarea id={`w-text-${w.key}`} className="form-control form-control-sm font-monospace" rows={4} maxLength={20000} value={w.text} onChange={(e) => update(area, w.key, { text: e.target.value })} />
                          </div>
                        )}
                        {LIST_TYPES.includes(w.type) && (
                          <div className="col-sm-6">
                            <label className="form-label small" htmlFor={`w-count-${w.key}`}>{t('admin-advanced:widgets.field-count')}</label>
                            <input id={`w-count-${w.key}`} type="number" min={1} max={50} className="form-control form-control-sm" value={w.count} onChange={(e) => update(area, w.key, { count: Math.min(50, Math.max(1, Number(e.target.value) || 1)) })} />
                          </div>
                        )}
                        <div className="col-sm-6">
                          <label className="form-label small" htmlFor={`w-groups-${w.key}`}>{t('admin-advanced:widgets.field-groups')}</label>
                          <select
                            id={`w-groups-${w.key}`}
                            multiple
                            className="form-select form-select-sm"
                            size={Math.min(4, Math.max(2, data.groups.length))}
                            value={w.groups}
                            onChange={(e) => update(area, w.key, { groups: [...e.target.selectedOptions].map((o) => o.value) })}
                          >
                            {data.groups.map((g) => (
                              <option key={g.name} value={g.name}>{g.displayName}</option>
                            ))}
                          </select>
                          <div className="form-text">{t('admin-advanced:widgets.field-groups-help')}</div>
                        </div>
                        <div className="col-12">
                          <div className="form-check">
                            <input id={`w-mobile-${w.key}`} type="checkbox" className="form-check-input" checked={w.hideMobile} onChange={(e) => update(area, w.key, { hideMobile: e.target.checked })} />
                            <label className="form-check-label small" htmlFor={`w-mobile-${w.key}`}>{t('admin-advanced:widgets.field-hide-mobile')}</label>
                          </div>
                        </div>
                      </div>
                    )}
                  </div>
                ))}
              </div>
            </section>
          ))}
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void save()}>{t('admin-advanced:widgets.save')}</button>
        </div>
      </div>
    </>
  );
}
