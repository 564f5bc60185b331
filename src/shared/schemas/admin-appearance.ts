import type { PageBase } from '../types.js';

/** One skin of GET /api/admin/appearance/skins (NodeBB's skins: name, value, …) with its colours for the swatch. */
export interface AdminSkin {
  name: string;
  /** '' for plain Bootstrap. */
  value: string;
  dark: boolean;
  /** The skin's stylesheet URL (for the live preview). */
  css: string;
  /** Colours read from the skin's stylesheet: body background and text, primary, secondary, success, danger, warning, info. */
  colours: { bg: string; fg: string; primary: string; secondary: string; success: string; danger: string; warning: string; info: string };
  /** The forum's default skin. */
  default: boolean;
  /** Members may pick it. */
  allowed: boolean;
}

/** GET /api/admin/appearance/skins. */
export interface AdminSkinsPage extends PageBase {
  skins: AdminSkin[];
  bootswatchSkin: string;
  /** Empty: members may pick every skin. */
  allowedSkins: string[];
}

/** GET /api/admin/appearance/customise (NodeBB's custom CSS/JS/header fields and the brand images). */
export interface AdminCustomisePage extends PageBase {
  customCSS: string;
  useCustomCSS: boolean;
  customHTML: string;
  useCustomHTML: boolean;
  customJS: string;
  useCustomJS: boolean;
  /** The uploaded images' URLs ('' none), by NodeBB's setting name. */
  brand: { 'brand:logo': string; 'brand:favicon': string; 'brand:touchIcon': string; 'og:image': string };
}

/** GET /api/admin/appearance/themes. */
export interface AdminThemesPage extends PageBase {
  themes: { id: string; name: string; description: string; active: boolean; settingsUrl: string; screenshot: string }[];
}

/** A built-in plugin of GET /api/admin/extend/plugins. */
export interface AdminPlugin {
  id: string;
  /** NodeBB's package name (nodebb-plugin-…), for admins who know them. */
  name: string;
  /** admin-extend:… translation keys. */
  title: string;
  description: string;
  active: boolean;
  /** Whether an admin may turn it off; when not, `lockedReason` says why. */
  toggleable: boolean;
  lockedReason: string;
  settingsUrl: string;
}

/** GET /api/admin/extend/plugins. */
export interface AdminPluginsPage extends PageBase {
  installed: AdminPlugin[];
  activeCount: number;
  installedCount: number;
}

/** One setting on a plugin's settings page. */
export interface AdminPluginField {
  key: string;
  type: 'boolean' | 'integer' | 'text' | 'textarea' | 'url';
  value: boolean | number | string;
  min?: number;
  max?: number;
  maxLength?: number;
  /** admin-extend:… translation key of the label, and of the help line (may be ''). */
  label: string;
  help: string;
}

/** GET /api/admin/plugins/<id> for the built-in plugins' settings pages (and the theme's, /admin/plugins/harmony). */
export interface AdminPluginSettingsPage extends PageBase {
  plugin: { id: string; title: string; description: string; active: boolean; toggleable: boolean };
  fields: AdminPluginField[];
  /** admin-extend:… translation keys: what NodeBB's plugin offers that Palaver does not, said plainly. */
  notOffered: string[];
  /** admin-extend:… translation keys: where related settings live. */
  notes: string[];
}
