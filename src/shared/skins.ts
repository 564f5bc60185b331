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

/** Path, under the assets directory, of a skin's stylesheet (built by vite.config.ts). */
export function skinStylesheetPath(skin: string): string {
  return `skins/${skin}.css`;
}
