import type { PageDef } from '../../http/pages.js';
import { appearancePages } from './appearance-pages.js';
import { pluginPages } from './plugins-pages.js';
import { advancedPages } from './advanced-pages.js';
import { setupPages } from './setup-routes.js';
import { adminsModsPages } from './admins-mods-pages.js';

/**
 * The admin area's pages that belong to no single domain (dashboard, appearance, extend,
 * advanced, first-run setup); each section's loaders live in their own file here. A page of
 * one domain's admin (categories, users, groups, tags, uploads, settings…) lives in that
 * domain's `admin-pages.ts`. Every admin page declares `access: 'admin'` (or 'moderator').
 */
export const adminPages: PageDef<any>[] = [...setupPages, ...adminsModsPages, ...advancedPages, ...appearancePages, ...pluginPages];
