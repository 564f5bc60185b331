/** Bootswatch skins a member may pick; '' means plain Bootstrap. */
export const BOOTSWATCH_SKINS = [
  'brite', 'cerulean', 'cosmo', 'cyborg', 'darkly', 'flatly', 'journal', 'litera', 'lumen',
  'lux', 'materia', 'minty', 'morph', 'pulse', 'quartz', 'sandstone', 'simplex', 'sketchy',
  'slate', 'solar', 'spacelab', 'superhero', 'united', 'vapor', 'yeti', 'zephyr',
] as const;

/** Skins with a dark background, so the page can set data-bs-theme="dark" for them. */
export const DARK_SKINS: readonly string[] = ['cyborg', 'darkly', 'slate', 'solar', 'superhero', 'vapor', 'quartz'];

/** True when the name is a skin we ship. */
export function isKnownSkin(name: unknown): name is (typeof BOOTSWATCH_SKINS)[number] {
  return typeof name === 'string' && (BOOTSWATCH_SKINS as readonly string[]).includes(name);
}

/** A page's text direction: rtl for Arabic, Hebrew and Persian (shared/languages.ts). */
export type TextDirection = 'ltr' | 'rtl';

/** Path, under the assets directory, of a skin's stylesheet in one direction (built by vite.config.ts from Bootswatch's own LTR and RTL builds). */
export function skinStylesheetPath(skin: string, dir: TextDirection = 'ltr'): string {
  return `skins/${skin}${dir === 'rtl' ? '.rtl' : ''}.css`;
}

/** Path, under the assets directory, of Bootstrap's stylesheet in one direction (its LTR or its RTL build, written by vite.config.ts). */
export function bootstrapStylesheetPath(dir: TextDirection): string {
  return `bootstrap/bootstrap${dir === 'rtl' ? '.rtl' : ''}.css`;
}

/** The URL of a stylesheet under the assets directory, with the cache buster (the files have fixed names). */
export function stylesheetHref(assetBase: string, path: string, buster: string): string {
  return `${assetBase}/${path}?v=${encodeURIComponent(buster)}`;
}
