import { SECRET_SETTINGS } from '../../../shared/constants.js';
import { AppError } from '../../http/errors.js';
import { translate } from '../../i18n.js';
import type { Viewer } from '../privileges/service.js';
import { changeSetting, type SettingsAdminDeps } from './admin.js';
import { assertSettingKey, describeSetting, fromNodebbSetting, isSettingKey, settingKeys } from './schema.js';

/** A command line's answer: the text to print and the exit code. */
export interface CliResult {
  out: string;
  code: number;
}

const USAGE = 'Usage: palaver config list | get <key> | set <key> <value>';

function show(value: unknown, key = ''): string {
  // Secrets never reach a terminal (or its scrollback and logs): only whether one is set.
  if (SECRET_SETTINGS.includes(key)) return value ? '********' : '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * `palaver config list|get|set`: reads and changes forum settings, validated by the settings'
 * schema. A change goes through the settings service, so every running process sees it
 * (at once with Redis, within the cache's lifetime otherwise). Never throws for bad input:
 * the message and a non-zero code come back.
 */
export async function configCommand(ctx: SettingsAdminDeps, actor: Viewer, args: string[]): Promise<CliResult> {
  const [sub, name, ...rest] = args;
  // NodeBB's key for a setting is as good as ours (schema.ts NODEBB_SETTING_NAMES).
  const key = name === undefined ? undefined : fromNodebbSetting(name, undefined).key;
  try {
    if (sub === 'list' && key === undefined) {
      const s = await ctx.settings.get();
      // One line per setting: a list setting's line breaks (flags:reasons, banReasons) show as \n.
      return { out: settingKeys().map((k) => `${k} = ${show(s[k], k).replace(/\n/g, '\\n')}`).join('\n'), code: 0 };
    }
    if (sub === 'get' && key !== undefined && rest.length === 0) {
      assertSettingKey(key);
      return { out: show((await ctx.settings.get())[key], key), code: 0 };
    }
    if (sub === 'set' && key !== undefined && rest.length === 1) {
      const saved = await changeSetting(ctx, actor, name!, rest[0]);
      return { out: `${key} = ${show(saved, key)}`, code: 0 };
    }
    return { out: USAGE, code: 1 };
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 400) throw err;
    const hint = key !== undefined && isSettingKey(key) ? ` (expected ${describeSetting(key)})` : ` (see palaver config list)`;
    return { out: `Error: ${translate(err.key, err.params)}${hint}`, code: 1 };
  }
}
