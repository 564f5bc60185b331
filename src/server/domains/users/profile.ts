import type { ForumSettings } from '../../../shared/constants.js';
import type { CustomFieldView } from '../../../shared/profile.js';
import { badRequest } from '../../http/errors.js';

/** NodeBB's limit on website, location and custom text fields. */
export const PROFILE_FIELD_MAX = 255;
const FIELD_TYPES = ['text', 'url', 'number', 'select'] as const;
const VISIBILITIES = ['all', 'loggedin', 'privileged'] as const;

/** One admin-defined profile field (setting `customUserFields`). */
export interface CustomFieldDef {
  key: string;
  name: string;
  type: (typeof FIELD_TYPES)[number];
  options: string[];
  visibility: (typeof VISIBILITIES)[number];
}

/** The profile fields a member may change besides username, email, full name, about and picture. */
export interface ProfileFieldsInput {
  website?: string;
  location?: string;
  birthday?: string;
  signature?: string;
}

/**
 * The field definitions from the setting; a definition that is not well formed is skipped
 * (an admin's typo must not break every profile), and so is a key seen twice.
 */
export function customFieldDefs(raw: string): CustomFieldDef[] {
  let list: unknown;
  try {
    list = JSON.parse(raw || '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  const out: CustomFieldDef[] = [];
  for (const d of list as Record<string, unknown>[]) {
    if (!d || typeof d !== 'object' || typeof d.key !== 'string' || !/^[a-z0-9_-]{1,50}$/i.test(d.key)) continue;
    if (out.some((o) => o.key === d.key)) continue;
    const type = (FIELD_TYPES as readonly unknown[]).includes(d.type) ? (d.type as CustomFieldDef['type']) : 'text';
    const options = Array.isArray(d.options) ? d.options.map(String) : typeof d.options === 'string' ? d.options.split('\n') : [];
    out.push({
      key: d.key,
      name: typeof d.name === 'string' && d.name ? d.name : d.key,
      type,
      options: options.map((o) => o.trim()).filter(Boolean),
      visibility: (VISIBILITIES as readonly unknown[]).includes(d.visibility) ? (d.visibility as CustomFieldDef['visibility']) : 'all',
    });
  }
  return out;
}

const isUrl = (s: string) => {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
};
// NodeBB refuses a location or full name that is a link (spam profiles).
const looksLikeUrl = (s: string) => /^(https?:\/\/|www\.)\S+$/i.test(s.trim());

/** Checks the profile fields with NodeBB's error keys; returns the column values to write. */
export function checkProfileFields(data: ProfileFieldsInput, s: ForumSettings): Record<string, string> {
  const out: Record<string, string> = {};
  if (data.website !== undefined) {
    const w = data.website.trim();
    if (w !== '' && (w.length > PROFILE_FIELD_MAX || !isUrl(w))) throw badRequest('error:invalid-website');
    out.website = w;
  }
  if (data.location !== undefined) {
    const l = data.location.trim();
    if ([...l].length > PROFILE_FIELD_MAX || looksLikeUrl(l)) throw badRequest('error:invalid-location');
    out.location = l;
  }
  if (data.birthday !== undefined) out.birthday = checkBirthday(data.birthday);
  if (data.signature !== undefined && !s.disableSignatures) {
    if ([...data.signature].length > s.maximumSignatureLength) throw badRequest('error:signature-too-long', s.maximumSignatureLength);
    out.signature = data.signature;
  }
  return out;
}

/** A birthday as YYYY-MM-DD: any date the Date object reads (NodeBB's rule), not in the future, from 1900. */
function checkBirthday(raw: string): string {
  const b = raw.trim();
  if (b === '') return '';
  const d = /^\d{4}-\d{2}-\d{2}$/.test(b) ? new Date(`${b}T00:00:00Z`) : new Date(b);
  if (Number.isNaN(d.getTime()) || d.getTime() > Date.now() || d.getUTCFullYear() < 1900) throw badRequest('error:invalid-birthday');
  // A date typed without a zone (03/27/2020) is read in local time: keep the day as typed.
  const local = !/^\d{4}-\d{2}-\d{2}$/.test(b);
  const y = local ? d.getFullYear() : d.getUTCFullYear();
  const m = (local ? d.getMonth() : d.getUTCMonth()) + 1;
  const day = local ? d.getDate() : d.getUTCDate();
  return `${y}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Whole years since a YYYY-MM-DD birthday (0 when none). */
export function ageOf(birthday: string, now = new Date()): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthday);
  if (!m) return 0;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < mo || (now.getUTCMonth() + 1 === mo && now.getUTCDate() < d)) age -= 1;
  return Math.max(0, age);
}

/**
 * Checks the custom field values sent (keys that are not defined fields are ignored, as NodeBB
 * ignores unknown profile keys); returns [key, value] pairs, '' to clear.
 */
export function checkCustomFields(input: Record<string, unknown>, defs: CustomFieldDef[]): [string, string][] {
  const out: [string, string][] = [];
  for (const def of defs) {
    if (!Object.hasOwn(input, def.key)) continue;
    const raw = input[def.key];
    const value = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : null;
    if (value === null) throw badRequest('error:invalid-data');
    if (value !== '') {
      if ([...value].length > PROFILE_FIELD_MAX) throw badRequest('error:custom-user-field-value-too-long', def.name);
      if (def.type === 'url' && !isUrl(value)) throw badRequest('error:custom-user-field-invalid-link', def.name);
      if (def.type === 'number' && !/^-?\d+(\.\d+)?$/.test(value)) throw badRequest('error:custom-user-field-invalid-number', def.name);
      if (def.type === 'select' && !def.options.includes(value)) throw badRequest('error:custom-user-field-select-value-invalid', def.name);
    }
    out.push([def.key, value]);
  }
  return out;
}

/** The custom fields a viewer may see, with the member's values (fields without a value left out unless `withEmpty`). */
export function customFieldViews(defs: CustomFieldDef[], values: Map<string, string>, viewer: { uid: number; isAdmin: boolean; isGlobalMod: boolean }, isSelf: boolean, withEmpty = false): CustomFieldView[] {
  return defs
    .filter((d) => isSelf || d.visibility === 'all' || (d.visibility === 'loggedin' && viewer.uid > 0) || (d.visibility === 'privileged' && (viewer.isAdmin || viewer.isGlobalMod)))
    .map((d) => ({ key: d.key, name: d.name, type: d.type, options: d.options, visibility: d.visibility, value: values.get(d.key) ?? '' }))
    .filter((f) => withEmpty || f.value !== '');
}

/** A cover position as CSS `x% y%` (NodeBB's `cover:position`); anything else is bad input. */
export function checkCoverPosition(pos: string): string {
  const m = /^\s*(-?\d{1,3}(?:\.\d+)?)%\s+(-?\d{1,3}(?:\.\d+)?)%\s*$/.exec(pos);
  if (!m) throw badRequest('error:invalid-data');
  const clamp = (n: string) => Math.min(100, Math.max(0, Number(n)));
  return `${clamp(m[1]!)}% ${clamp(m[2]!)}%`;
}
