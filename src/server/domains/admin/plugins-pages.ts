import type { ForumSettings } from '../../../shared/constants.js';
import type { AdminPlugin, AdminPluginField, AdminPluginSettingsPage, AdminPluginsPage } from '../../../shared/schemas/admin-appearance.js';
import { definePage, type PageDef } from '../../http/pages.js';
import { TOGGLEABLE_PLUGINS } from '../../plugins/index.js';

type FieldDef = Omit<AdminPluginField, 'value' | 'label' | 'help'> & { key: keyof ForumSettings; help?: boolean };

/** A built-in plugin: what NodeBB calls it, what it does here, and the settings of its page. */
export interface PluginDef {
  id: string;
  name: string;
  /** Its settings page, under /admin/plugins/. */
  page: string;
  fields: FieldDef[];
  notOffered: string[];
  notes: string[];
  /** Why it cannot be turned off, for those that cannot ('' for the toggleable ones). */
  locked: string;
}

/** A translation key of the page's data (the client translates it); titles and breadcrumbs take the [[…]] form. */
const k = (key: string) => `admin-extend:${key}`;
const bracket = (key: string) => `[[${key}]]`;

/** The built-in plugins (src/server/plugins and the domains that do NodeBB's plugins' work), in the plugins page's order. */
export const PLUGINS: PluginDef[] = [
  {
    id: 'markdown', name: 'nodebb-plugin-markdown', page: 'markdown', locked: k('locked.markdown'),
    fields: [],
    notOffered: [k('markdown.not-offered')],
    notes: [k('markdown.note')],
  },
  {
    id: 'mentions', name: 'nodebb-plugin-mentions', page: 'mentions', locked: '',
    fields: [],
    notOffered: [k('mentions.not-offered')],
    notes: [k('toggle.note')],
  },
  {
    id: 'emoji', name: 'nodebb-plugin-emoji', page: 'emoji', locked: '',
    fields: [],
    notOffered: [k('emoji.not-offered')],
    notes: [k('toggle.note')],
  },
  {
    id: 'composer-default', name: 'nodebb-plugin-composer-default', page: 'composer-default', locked: k('locked.core'),
    fields: [
      { key: 'composeRouteEnabled', type: 'boolean', help: true },
      { key: 'minimumPostLength', type: 'integer', min: 0, max: 500000 },
      { key: 'maximumPostLength', type: 'integer', min: 1, max: 500000 },
      { key: 'allowTopicsThumbnail', type: 'boolean' },
    ],
    notOffered: [k('composer-default.not-offered')],
    notes: [],
  },
  {
    id: 'dbsearch', name: 'nodebb-plugin-dbsearch', page: 'dbsearch', locked: k('locked.core'),
    fields: [], notOffered: [], notes: [],
  },
  {
    id: 'spam-be-gone', name: 'nodebb-plugin-spam-be-gone', page: 'spam-be-gone', locked: k('locked.core'),
    fields: [
      { key: 'captcha:register', type: 'boolean', help: true },
      { key: 'captcha:loginFailures', type: 'integer', min: 0, max: 1000, help: true },
      { key: 'maximumLinksForNewMembers', type: 'integer', min: 0, max: 1000, help: true },
      { key: 'newMemberPostCount', type: 'integer', min: 0, max: 1000000 },
      { key: 'stopForumSpamEnabled', type: 'boolean', help: true },
      { key: 'stopForumSpamUrl', type: 'url', maxLength: 500 },
    ],
    notOffered: [k('spam-be-gone.not-offered')],
    notes: [],
  },
  {
    id: 'web-push', name: 'nodebb-plugin-web-push', page: 'web-push', locked: k('locked.core'),
    fields: [],
    notOffered: [k('web-push.not-offered')],
    notes: [k('web-push.note')],
  },
  {
    id: '2factor', name: 'nodebb-plugin-2factor', page: '2factor', locked: k('locked.core'),
    fields: [{ key: 'adminReloginDuration', type: 'integer', min: 1, max: 1440, help: true }],
    notOffered: [k('2factor.not-offered')],
    notes: [k('2factor.note')],
  },
];

/** True when an admin has not turned the plugin off. */
export function pluginActive(s: ForumSettings, id: string): boolean {
  return !TOGGLEABLE_PLUGINS.includes(id) || !s['plugins:disabled'].split(',').includes(id);
}

/** The fields of a settings page with their current values and translation keys. */
export function presentFields(s: ForumSettings, fields: FieldDef[]): AdminPluginField[] {
  return fields.map((f) => {
    const { help, ...rest } = f;
    const name = f.key.replace(/:/g, '-');
    return { ...rest, value: s[f.key] as boolean | number | string, label: k(`field.${name}`), help: help ? k(`field.${name}-help`) : '' };
  });
}

function present(s: ForumSettings, p: PluginDef): AdminPlugin {
  return {
    id: p.id,
    name: p.name,
    title: k(`plugin.${p.id}`),
    description: k(`plugin.${p.id}-description`),
    active: pluginActive(s, p.id),
    toggleable: TOGGLEABLE_PLUGINS.includes(p.id),
    lockedReason: p.locked,
    settingsUrl: `/admin/plugins/${p.page}`,
  };
}

/** /admin/extend/plugins (NodeBB's installed plugins): each built-in plugin, on or off, with its settings page. */
const pluginsPage = definePage<AdminPluginsPage>({
  path: '/admin/extend/plugins',
  template: 'admin/extend/plugins',
  access: 'admin',
  async load({ ctx }) {
    const s = await ctx.settings.get();
    const installed = PLUGINS.map((p) => present(s, p));
    return {
      title: bracket(k('plugins.title')),
      breadcrumbs: [{ text: bracket(k('plugins.title')) }],
      installed,
      activeCount: installed.filter((p) => p.active).length,
      installedCount: installed.length,
      meta: [{ name: 'robots', content: 'noindex' }],
    };
  },
});

/** /admin/plugins/<id>: a built-in plugin's settings (dbsearch has its own page, search/pages.ts). */
function settingsPage(p: PluginDef): PageDef<AdminPluginSettingsPage> {
  return definePage<AdminPluginSettingsPage>({
    path: `/admin/plugins/${p.page}`,
    template: 'admin/plugins/settings',
    access: 'admin',
    async load({ ctx }) {
      const s = await ctx.settings.get();
      const shown = present(s, p);
      return {
        title: bracket(shown.title),
        breadcrumbs: [{ text: bracket(k('plugins.title')), url: '/admin/extend/plugins' }, { text: bracket(shown.title) }],
        plugin: { id: p.id, title: shown.title, description: shown.description, active: shown.active, toggleable: shown.toggleable },
        fields: presentFields(s, p.fields),
        notOffered: p.notOffered,
        notes: p.locked ? [p.locked, ...p.notes] : p.notes,
        meta: [{ name: 'robots', content: 'noindex' }],
      };
    },
  });
}

/** The plugins page and every built-in plugin's settings page. */
export const pluginPages: PageDef<any>[] = [pluginsPage, ...PLUGINS.filter((p) => p.id !== 'dbsearch').map(settingsPage)];
