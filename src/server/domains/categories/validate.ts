import { slugify } from '../../../shared/slug.js';
import { cleanUpTag } from '../../../shared/validation.js';
import { badRequest } from '../../http/errors.js';

export const NAME_MAX_LENGTH = 255;
export const DESCRIPTION_MAX_LENGTH = 5000;
export const HANDLE_MAX_LENGTH = 100;
const LINK_MAX_LENGTH = 2048;

/** What create and update accept (update: every field optional). */
export interface CategoryInput {
  name?: string;
  description?: string;
  parentCid?: number;
  handle?: string;
  icon?: string;
  bgColor?: string;
  color?: string;
  order?: number;
  link?: string;
  disabled?: boolean;
  /** Allowed tags (empty: any); NodeBB's category `tagWhitelist`. */
  tagWhitelist?: string[];
  /** Tags a topic here needs at least / at most; null follows the forum's setting. */
  minTags?: number | null;
  maxTags?: number | null;
  /** The forum's post queue applies here (NodeBB's category `postQueue`). */
  postQueue?: boolean | number;
}

/** Input after checks: trimmed and normalised, only the fields given. */
export type CleanInput = CategoryInput;

// Colours end up in style attributes, so only plain hex colours are accepted.
const COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
// One to four Font Awesome classes, e.g. "fa-comments" or "fa-brands fa-github".
const ICON = /^fa-[a-z0-9-]{1,60}(?: fa-[a-z0-9-]{1,60}){0,3}$/;

function name(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) throw badRequest('error:category-name-empty');
  const trimmed = value.trim();
  if ([...trimmed].length > NAME_MAX_LENGTH) throw badRequest('error:category-name-too-long', NAME_MAX_LENGTH);
  return trimmed;
}

function icon(value: string): string {
  const v = value.trim().toLowerCase();
  if (!v) return 'fa-comments';
  // NodeBB's API takes icons without the "fa-" prefix ("bullhorn"); accept both.
  const withPrefix = v
    .split(/\s+/)
    .map((part) => (part.startsWith('fa-') ? part : `fa-${part}`))
    .join(' ');
  if (!ICON.test(withPrefix)) throw badRequest('error:invalid-category-icon');
  return withPrefix;
}

function colour(value: string): string {
  const v = value.trim();
  if (!COLOUR.test(v)) throw badRequest('error:invalid-category-color');
  return v.toLowerCase();
}

function link(value: string): string {
  const v = value.trim();
  if (!v) return '';
  if (v.length > LINK_MAX_LENGTH) throw badRequest('error:invalid-category-link');
  if (/^\/(?!\/)/.test(v)) return v;
  try {
    const url = new URL(v);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // fall through to the error
  }
  throw badRequest('error:invalid-category-link');
}

/** A tag whitelist: each tag cleaned (spec §5), blanks dropped, duplicates once, at most 500. */
function tagWhitelist(value: string[]): string[] {
  const out: string[] = [];
  for (const raw of value) {
    const tag = cleanUpTag(raw, Number.MAX_SAFE_INTEGER);
    if (tag && !out.includes(tag)) out.push(tag);
  }
  if (out.length > 500) throw badRequest('error:invalid-data');
  return out;
}

/** A handle given by an admin: already a slug (lowercase letters, digits, hyphens). */
export function handle(value: string): string {
  const v = value.trim().toLowerCase();
  if (!v || v.length > HANDLE_MAX_LENGTH || slugify(v) !== v) throw badRequest('error:invalid-category-handle');
  return v;
}

/** Checks every given field and returns the cleaned input; `creating` makes the name required. */
export function cleanInput(data: CategoryInput, creating: boolean): CleanInput {
  const out: CleanInput = {};
  if (creating || data.name !== undefined) out.name = name(data.name);
  if (data.description !== undefined) {
    if ([...data.description].length > DESCRIPTION_MAX_LENGTH) throw badRequest('error:category-description-too-long', DESCRIPTION_MAX_LENGTH);
    out.description = data.description.trim();
  }
  if (data.handle !== undefined) out.handle = handle(data.handle);
  if (data.icon !== undefined) out.icon = icon(data.icon);
  if (data.bgColor !== undefined) out.bgColor = colour(data.bgColor);
  if (data.color !== undefined) out.color = colour(data.color);
  if (data.link !== undefined) out.link = link(data.link);
  if (data.parentCid !== undefined) {
    if (!Number.isInteger(data.parentCid) || data.parentCid < 0) throw badRequest('error:invalid-cid');
    out.parentCid = data.parentCid;
  }
  if (data.order !== undefined) {
    if (!Number.isInteger(data.order) || data.order < 1) throw badRequest('error:invalid-category-order');
    out.order = data.order;
  }
  if (data.disabled !== undefined) out.disabled = !!data.disabled;
  if (data.tagWhitelist !== undefined) out.tagWhitelist = tagWhitelist(data.tagWhitelist);
  if (data.postQueue !== undefined) out.postQueue = !!data.postQueue;
  for (const key of ['minTags', 'maxTags'] as const) {
    const v = data[key];
    if (v === undefined) continue;
    if (v !== null && (!Number.isInteger(v) || v < 0 || v > 100)) throw badRequest('error:invalid-data');
    out[key] = v;
  }
  if (out.minTags != null && out.maxTags != null && out.minTags > out.maxTags) throw badRequest('error:invalid-data');
  return out;
}
