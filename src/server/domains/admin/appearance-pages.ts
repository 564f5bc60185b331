import { BOOTSWATCH_SKINS, DARK_SKINS, skinStylesheetPath } from '../../../shared/skins.js';
import type { AdminCustomisePage, AdminPluginSettingsPage, AdminSkinsPage, AdminThemesPage } from '../../../shared/schemas/admin-appearance.js';
import { definePage, type PageDef } from '../../http/pages.js';
import { allowedSkinList } from './appearance-assets.js';
import { SKIN_COLOURS } from './appearance-colours.js';
import { presentFields } from './plugins-pages.js';

/** A [[…]] key for titles and breadcrumbs; `key()` the bare key of data the client translates. */
const k = (ns: string, key: string) => `[[${ns}:${key}]]`;
const key = (ns: string, name: string) => `${ns}:${name}`;
const noindex = [{ name: 'robots', content: 'noindex' }];

/** /admin/appearance/skins (NodeBB's skins page): every skin with its swatch, the default and the members' choice. */
const skinsPage = definePage<AdminSkinsPage>({
  path: '/admin/appearance/skins',
  template: 'admin/appearance/skins',
  access: 'admin',
  async load({ ctx }) {
    const s = await ctx.settings.get();
    const allowed = allowedSkinList(s);
    const base = `${ctx.config.relativePath}/assets`;
    const skins = ['', ...BOOTSWATCH_SKINS].map((value) => ({
      name: value ? value.charAt(0).toUpperCase() + value.slice(1) : 'Bootstrap',
      value,
      dark: DARK_SKINS.includes(value),
      css: value ? `${base}/${skinStylesheetPath(value)}?v=${encodeURIComponent(ctx.config.cacheBuster)}` : '',
      colours: SKIN_COLOURS[value] ?? SKIN_COLOURS['']!,
      default: s.bootswatchSkin === value,
      allowed: value === '' || !allowed.length || allowed.includes(value),
    }));
    return {
      title: k('admin-appearance', 'skins.title'),
      breadcrumbs: [{ text: k('admin-appearance', 'skins.title') }],
      skins,
      bootswatchSkin: s.bootswatchSkin,
      allowedSkins: allowed,
      meta: noindex,
    };
  },
});

/** /admin/appearance/customise (NodeBB's custom CSS, header and JavaScript, and the brand images). */
const customisePage = definePage<AdminCustomisePage>({
  path: '/admin/appearance/customise',
  template: 'admin/appearance/customise',
  access: 'admin',
  async load({ ctx }) {
    const s = await ctx.settings.get();
    const upload = (p: string) => (p ? `${ctx.config.relativePath}/assets/uploads${p}` : '');
    return {
      title: k('admin-appearance', 'customise.title'),
      breadcrumbs: [{ text: k('admin-appearance', 'customise.title') }],
      customCSS: s.customCSS,
      useCustomCSS: s.useCustomCSS,
      customHTML: s.customHTML,
      useCustomHTML: s.useCustomHTML,
      customJS: s.customJS,
      useCustomJS: s.useCustomJS,
      brand: { 'brand:logo': upload(s['brand:logo']), 'brand:favicon': upload(s['brand:favicon']), 'brand:touchIcon': upload(s['brand:touchIcon']), 'og:image': upload(s['og:image']) },
      meta: noindex,
    };
  },
});

/** /admin/appearance/themes: Palaver's one built-in theme (NodeBB's Harmony) and a link to its options. */
const themesPage = definePage<AdminThemesPage>({
  path: '/admin/appearance/themes',
  template: 'admin/appearance/themes',
  access: 'admin',
  async load() {
    return {
      title: k('admin-appearance', 'themes.title'),
      breadcrumbs: [{ text: k('admin-appearance', 'themes.title') }],
      themes: [{ id: 'harmony', name: 'Harmony', description: key('admin-appearance', 'themes.harmony-description'), active: true, settingsUrl: '/admin/plugins/harmony', screenshot: '' }],
      meta: noindex,
    };
  },
});

/** /admin/plugins/harmony: the theme's options, stored as settings and read by the client. */
const harmonyPage = definePage<AdminPluginSettingsPage>({
  path: '/admin/plugins/harmony',
  template: 'admin/plugins/settings',
  access: 'admin',
  async load({ ctx }) {
    const s = await ctx.settings.get();
    const title = k('admin-appearance', 'harmony.title');
    return {
      title,
      breadcrumbs: [{ text: k('admin-appearance', 'themes.title'), url: '/admin/appearance/themes' }, { text: title }],
      plugin: { id: 'harmony', title: key('admin-appearance', 'harmony.title'), description: key('admin-appearance', 'themes.harmony-description'), active: true, toggleable: false },
      fields: presentFields(s, [
        { key: 'harmony:openSidebars', type: 'boolean', help: true },
        { key: 'harmony:autohideBottombar', type: 'boolean', help: true },
      ]),
      notOffered: [key('admin-appearance', 'harmony.not-offered')],
      notes: [key('admin-appearance', 'harmony.note')],
      meta: noindex,
    };
  },
});

/** The appearance section's pages. */
export const appearancePages: PageDef<any>[] = [skinsPage, customisePage, themesPage, harmonyPage];
