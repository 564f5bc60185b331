import type { UserSettings } from '../../../shared/types.js';
import { badRequest } from '../../http/errors.js';
import { DEFAULT_USER_SETTINGS } from './presenter.js';

/** NodeBB's default `maximumAboutMeLength`. */
export const ABOUT_MAX = 1000;
/** The longest full name kept (NodeBB's profile field length). */
export const FULLNAME_MAX = 255;

/**
 * Member settings as NodeBB clients send them: booleans as "0"/"1" (or "true"/"false"),
 * numbers as strings. Each value is converted to its setting's type; unknown keys are
 * ignored as NodeBB does; a value that cannot be converted is 400 error:invalid-data.
 */
export function coerceSettings(input: Record<string, unknown>): Partial<UserSettings> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(input)) {
    if (!Object.hasOwn(DEFAULT_USER_SETTINGS, key)) continue;
    const def = (DEFAULT_USER_SETTINGS as unknown as Record<string, unknown>)[key];
    out[key] = coerce(def, raw);
  }
  return out as Partial<UserSettings>;
}

function coerce(def: unknown, raw: unknown): unknown {
  if (typeof def === 'boolean') {
    if (typeof raw === 'boolean') return raw;
    if (raw === 1 || raw === '1' || raw === 'true' || raw === 'on') return true;
    if (raw === 0 || raw === '0' || raw === 'false' || raw === 'off' || raw === '') return false;
  } else if (typeof def === 'number') {
    const n = typeof raw === 'string' && /^\s*\d{1,6}\s*$/.test(raw) ? Number(raw) : raw;
    if (typeof n === 'number' && Number.isFinite(n)) return n;
  } else if (typeof def === 'string') {
    if (typeof raw === 'string') return raw;
  }
  throw badRequest('error:invalid-data');
}
