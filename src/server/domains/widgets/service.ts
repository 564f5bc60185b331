import { WIDGET_AREAS, WIDGET_TEMPLATES, type WidgetArea, type WidgetInput, type WidgetSave, type WidgetType, type WidgetView } from '../../../shared/schemas/widgets.js';
import type { AppContext } from '../../context.js';
import type { Cache } from '../../core/cache.js';
import { WIDGETS } from '../../core/tags.js';
import { badRequest, notFound } from '../../http/errors.js';
import { escapeHtml } from '../../http/render.js';
import { DEFAULT_LANGUAGE } from '../../../shared/constants.js';
import { translate } from '../../i18n.js';
import { createRenderer, createSanitizer } from '../../plugins/markdown/index.js';
import { assertAdmin, type Viewer } from '../privileges/service.js';
import { ONLINE_WINDOW_MS } from '../users/service.js';
import * as store from './store.js';

/** What the widgets use of the application. */
export type WidgetsDeps = Pick<AppContext, 'db' | 'actions' | 'cacheRegistry' | 'config' | 'events' | 'categories' | 'topics' | 'users' | 'groups' | 'privileges' | 'log'>;

export type RenderedWidgets = Record<WidgetArea, { html: string }[]>;

const TTL_MS = 5_000;
const EMPTY: RenderedWidgets = Object.freeze({ header: [], sidebar: [], footer: [] }) as RenderedWidgets;

/** The HTML, or null when it shows no text and no image or embed. */
function nonEmpty(html: string): string | null {
  const text = html.replace(/<(img|video|audio|iframe|svg|input|hr)\b/gi, 'x').replace(/<[^>]*>/g, '').replace(/&nbsp;|\s/g, '');
  return text ? html : null;
}

function present(row: store.WidgetRow): WidgetView {
  const data = JSON.parse(row.data) as { text?: string; count?: number };
  return {
    id: row.id,
    template: row.template,
    area: row.area as WidgetArea,
    type: row.type as WidgetType,
    title: row.title,
    container: row.container === 'none' ? 'none' : 'card',
    text: data.text ?? '',
    count: data.count ?? 5,
    groups: JSON.parse(row.groups) as string[],
    hideMobile: row.hide_mobile === 1,
  };
}

/**
 * Widgets: placed by administrators in the header, sidebar and footer of public templates,
 * rendered on the server into every public page's data. The rendered HTML is cached per
 * (template, privilege set) for a few seconds and dropped in every process on a change, so
 * a page costs one map lookup; data widgets read as the viewer's groups (never one member).
 */
export class WidgetsService {
  /** Rendered widgets by template and group set, dropped by any widget change (WIDGETS). */
  private readonly cache: Cache<string, RenderedWidgets>;
  private readonly sanitize: (html: string) => string;
  private readonly markdown: (text: string) => string;

  constructor(private readonly ctx: WidgetsDeps) {
    this.sanitize = createSanitizer(ctx.config.url);
    this.markdown = createRenderer(ctx.config.url);
    this.cache = ctx.cacheRegistry.create({
      name: 'widgets',
      keeps: "each public template's rendered widgets, per set of groups",
      droppedBy: 'a widget saved or deleted (WIDGETS); data widgets (latest topics) by their TTL only',
      ttlMs: TTL_MS,
      max: 2_000,
      tags: () => [WIDGETS],
    });
  }

  /** Every widget (admins). */
  async list(viewer: Viewer): Promise<WidgetView[]> {
    assertAdmin(viewer);
    return (await store.all(this.ctx.db)).map(present);
  }

  /** Replaces the widgets of the given areas of one template (NodeBB's admin.widgets.set). */
  async save(viewer: Viewer, input: WidgetSave, ip = ''): Promise<WidgetView[]> {
    assertAdmin(viewer);
    if (!(WIDGET_TEMPLATES as readonly string[]).includes(input.template)) throw badRequest('error:widget-bad-template', 'template');
    const now = Date.now();
    const areas = WIDGET_AREAS.filter((a) => input.areas[a] !== undefined);
    const rows = areas.flatMap((area) =>
      (input.areas[area] ?? []).map((w: WidgetInput, i) => {
        const text = w.text ?? '';
        return {
          template: input.template,
          area,
          type: w.type,
          title: (w.title ?? '').trim(),
          container: w.container ?? 'card',
          // HTML is kept as the sanitiser leaves it: the admin sees what the public will.
          data: JSON.stringify({ text: w.type === 'html' ? this.sanitize(text) : text, count: w.count ?? 5 }),
          groups: JSON.stringify([...new Set(w.groups ?? [])]),
          hide_mobile: w.hideMobile ? 1 : 0,
          sort: i,
          created: now,
        };
      }),
    );
    // Every process drops the rendered widgets, and guests' pages that carry them, once this commits (WIDGETS).
    await this.ctx.actions.run('widgets.save', async (w) => {
      await store.replace(w, input.template, areas, rows);
      await this.ctx.events.log('widgets-save', viewer.uid, { template: input.template, areas: areas.join(','), count: rows.length }, ip, w);
    });
    return (await store.ofTemplates(this.ctx.db, [input.template])).map(present);
  }

  /** Deletes one widget. */
  async delete(viewer: Viewer, id: number, ip = ''): Promise<void> {
    assertAdmin(viewer);
    const row = await store.get(this.ctx.db, id);
    if (!row) throw notFound('error:widget-not-found');
    await this.ctx.actions.run('widgets.delete', async (w) => {
      await store.remove(w, id);
      await this.ctx.events.log('widgets-delete', viewer.uid, { id, template: row.template, area: row.area, type: row.type }, ip, w);
    });
  }

  /** The rendered widgets of a public page for this viewer, their own texts in the reader's language (none on admin pages). */
  render(viewer: Viewer, template: string, lang = DEFAULT_LANGUAGE): Promise<RenderedWidgets> {
    if (template.startsWith('admin')) return Promise.resolve(EMPTY);
    const groups = [...viewer.groups].sort().join(',');
    const key = `${template}|${groups}|${lang}`;
    return this.cache.get(key, () =>
      this.build(viewer, template, lang).catch((err: unknown) => {
        this.ctx.log.error({ err }, 'widget render failed');
        return EMPTY;
      }),
    );
  }

  private async build(viewer: Viewer, template: string, lang: string): Promise<RenderedWidgets> {
    const rows = await store.ofTemplates(this.ctx.db, ['global', template]);
    if (!rows.length) return EMPTY;
    // Data widgets read as the viewer's groups, never as the member: one rendering serves them all.
    const reader: Viewer = { uid: 0, groups: viewer.groups, isAdmin: viewer.isAdmin, isGlobalMod: viewer.isGlobalMod };
    const out: RenderedWidgets = { header: [], sidebar: [], footer: [] };
    // The template's own widgets follow the global ones in each area.
    const ordered = [...rows.filter((r) => r.template === 'global'), ...rows.filter((r) => r.template !== 'global')];
    for (const row of ordered) {
      const w = present(row);
      if (!(WIDGET_AREAS as readonly string[]).includes(w.area)) continue;
      if (w.groups.length && !w.groups.some((g) => viewer.groups.includes(g))) continue;
      const body = await this.body(reader, w, lang);
      if (body === null) continue;
      out[w.area].push({ html: this.wrap(w, body) });
    }
    return out;
  }

  private wrap(w: WidgetView, body: string): string {
    const classes = ['widget', `widget-${w.type}`, w.container === 'card' ? 'card mb-3' : 'mb-3', w.hideMobile ? 'd-none d-md-block' : ''].filter(Boolean).join(' ');
    const title = w.title ? escapeHtml(w.title) : '';
    if (w.container === 'card') {
      return `<div class="${classes}" data-widget="${w.type}">${title ? `<h2 class="card-header fs-6">${title}</h2>` : ''}<div class="card-body">${body}</div></div>`;
    }
    return `<div class="${classes}" data-widget="${w.type}">${title ? `<h2 class="fs-6">${title}</h2>` : ''}${body}</div>`;
  }

  /** A widget's inner HTML; null when it has nothing to show. */
  private async body(reader: Viewer, w: WidgetView, lang: string): Promise<string | null> {
    const rp = this.ctx.config.relativePath;
    switch (w.type) {
      // An empty text or HTML widget (or one its sanitising leaves empty) shows nothing, not an empty card.
      case 'html':
        return nonEmpty(this.sanitize(w.text));
      case 'text':
        return nonEmpty(this.markdown(w.text));
      case 'search':
      {
        const label = escapeHtml(translate('global:search', [], lang));
        return `<form role="search" action="${rp}/search" method="get" class="d-flex gap-2"><input type="search" name="term" class="form-control form-control-sm" aria-label="${label}" placeholder="${label}" maxlength="200"><button type="submit" class="btn btn-sm btn-primary">${label}</button></form>`;
      }
      case 'categories': {
        const rows = (await this.ctx.categories.list(reader)).filter((c) => c.disabled === 0 && c.parent_cid === 0).slice(0, w.count);
        if (!rows.length) return null;
        return `<ul class="list-unstyled mb-0">${rows.map((c) => `<li><a href="${rp}/category/${escapeHtml(c.slug)}">${escapeHtml(c.name)}</a></li>`).join('')}</ul>`;
      }
      case 'recenttopics': {
        const cids = await this.ctx.categories.readableCids(reader);
        if (!cids.length) return null;
        const { topics } = await this.ctx.topics.list(reader, { cids, sort: 'recent', page: 1, perPage: w.count });
        if (!topics.length) return null;
        // Topic titles arrive HTML-escaped.
        return `<ul class="list-unstyled mb-0">${topics.map((t) => `<li><a href="${rp}/topic/${escapeHtml(t.slug)}">${t.title}</a></li>`).join('')}</ul>`;
      }
      case 'populartags': {
        const cids = await this.ctx.categories.readableCids(reader);
        if (!cids.length) return null;
        // Counted over the recent topics the privilege set may read, so a hidden category's tags never show.
        const { topics } = await this.ctx.topics.list(reader, { cids, sort: 'recent', page: 1, perPage: 100 });
        const counts = new Map<string, number>();
        for (const t of topics) for (const tag of t.tags) counts.set(tag.value, (counts.get(tag.value) ?? 0) + 1);
        const top = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, w.count);
        if (!top.length) return null;
        return `<div class="d-flex flex-wrap gap-1">${top.map(([tag, n]) => `<a class="badge text-bg-light border" href="${rp}/tags/${encodeURIComponent(tag)}">${escapeHtml(tag)} <span class="text-secondary">${n}</span></a>`).join('')}</div>`;
      }
      case 'onlineusers': {
        if (!(await this.ctx.privileges.can(reader, 'view:users'))) return null;
        const { rows } = await this.ctx.users.list('lastonline', 1, 50);
        const since = Date.now() - ONLINE_WINDOW_MS;
        const online = rows.filter((u) => u.lastonline >= since && u.status !== 'offline').slice(0, w.count);
        if (!online.length) return null;
        return `<ul class="list-unstyled mb-0">${online.map((u) => `<li><a href="${rp}/user/${escapeHtml(u.userslug)}">${escapeHtml(u.username)}</a></li>`).join('')}</ul>`;
      }
      default:
        return null;
    }
  }
}

const services = new WeakMap<WidgetsDeps, WidgetsService>();

/** The application's widgets service (one per context). */
export function widgetsOf(ctx: WidgetsDeps): WidgetsService {
  let s = services.get(ctx);
  if (!s) services.set(ctx, (s = new WidgetsService(ctx)));
  return s;
}
