import { WIDGET_AREAS, WIDGET_TEMPLATES, WIDGET_TYPES, type AdminWidgetsPage } from '../../../shared/schemas/widgets.js';
import { definePage } from '../../http/pages.js';
import { widgetsOf } from './service.js';

const widgetsPage = definePage<AdminWidgetsPage>({
  path: '/admin/extend/widgets',
  template: 'admin/extend/widgets',
  access: 'admin',
  async load({ ctx, viewer }) {
    const [widgets, groups] = await Promise.all([widgetsOf(ctx).list(viewer), ctx.groups.adminList(viewer)]);
    return {
      title: '[[admin-advanced:widgets.title]]',
      templates: WIDGET_TEMPLATES.map((template) => ({
        template,
        areas: WIDGET_AREAS.map((location) => ({ name: `[[admin-advanced:widgets.area-${location}]]`, location, data: widgets.filter((w) => w.template === template && w.area === location) })),
      })),
      areas: WIDGET_AREAS.map((location) => ({ name: `[[admin-advanced:widgets.area-${location}]]`, template: 'global', location })),
      availableWidgets: WIDGET_TYPES.map((widget) => ({ widget, name: `[[admin-advanced:widgets.type-${widget}]]`, description: `[[admin-advanced:widgets.type-${widget}-help]]` })),
      groups: groups.map((g) => ({ name: g.name, displayName: g.name })),
    };
  },
});

export const widgetPages = [widgetsPage];
