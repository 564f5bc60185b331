import { Type, type Static } from 'typebox';
import type { PageBase } from '../types.js';

/** The areas a widget may be placed in. */
export const WIDGET_AREAS = ['header', 'sidebar', 'footer'] as const;
export type WidgetArea = (typeof WIDGET_AREAS)[number];

/** The widget types (NodeBB's core widgets plugin names where one exists). */
export const WIDGET_TYPES = ['html', 'text', 'recenttopics', 'onlineusers', 'populartags', 'categories', 'search'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

/** The public templates widgets may be placed on; `global` is every public template. */
export const WIDGET_TEMPLATES = ['global', 'categories', 'category', 'topic', 'recent', 'popular', 'top', 'unread', 'tags', 'tag', 'users', 'groups', 'search', 'account/profile'] as const;

/** One widget as the admin edits it (and the write route receives it). */
export const WidgetInputSchema = Type.Object({
  type: Type.Union([
    Type.Literal('html'), Type.Literal('text'), Type.Literal('recenttopics'), Type.Literal('onlineusers'),
    Type.Literal('populartags'), Type.Literal('categories'), Type.Literal('search'),
  ]),
  title: Type.Optional(Type.String({ maxLength: 200 })),
  container: Type.Optional(Type.Union([Type.Literal('card'), Type.Literal('none')])),
  /** HTML or markdown text (html, text); how many items (lists). */
  text: Type.Optional(Type.String({ maxLength: 20_000 })),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  /** Only members of these groups see it; empty: everyone. */
  groups: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 50 })),
  hideMobile: Type.Optional(Type.Boolean()),
});
export type WidgetInput = Static<typeof WidgetInputSchema>;

/** PUT /api/v3/admin/widgets: every widget of one template, per area, in order. */
export const WidgetSaveSchema = Type.Object({
  template: Type.String({ minLength: 1, maxLength: 100 }),
  areas: Type.Object({
    header: Type.Optional(Type.Array(WidgetInputSchema, { maxItems: 50 })),
    sidebar: Type.Optional(Type.Array(WidgetInputSchema, { maxItems: 50 })),
    footer: Type.Optional(Type.Array(WidgetInputSchema, { maxItems: 50 })),
  }),
});
export type WidgetSave = Static<typeof WidgetSaveSchema>;

/** A saved widget. */
export interface WidgetView extends Required<WidgetInput> {
  id: number;
  template: string;
  area: WidgetArea;
}

/** GET /api/admin/extend/widgets (NodeBB's fields: templates, areas, availableWidgets). */
export interface AdminWidgetsPage extends PageBase {
  templates: { template: string; areas: { name: string; location: WidgetArea; data: WidgetView[] }[] }[];
  areas: { name: string; template: string; location: WidgetArea }[];
  availableWidgets: { widget: WidgetType; name: string; description: string }[];
  groups: { name: string; displayName: string }[];
}
