import { cleanUpTag } from '../../../shared/validation.js';

/**
 * The tag input's options (spec §5). Everything is optional: no maximum number of tags and no
 * maximum length by default. Tags are strings unless `itemValue` is set, which makes them
 * objects whose value (what duplicates compare and the form sends) it reads.
 */
export interface TagRules<T = string> {
  /** At most this many tags (undefined: no limit). */
  maxTags?: number;
  /** A typed tag is cleaned and cut to this length (spec §5 tag cleaning; default 15). */
  maxTagLength?: number;
  /** A tag longer than this is refused (undefined: no limit). */
  maxChars?: number;
  /** The tags' values joined with commas may be at most this long (undefined: no limit). */
  maxInputLength?: number;
  /** Accept a tag already present (default false: it is rejected and flashes). */
  allowDuplicates?: boolean;
  /** One tag at most: a new one takes the place of the one there. */
  singleSelect?: boolean;
  /** Object tags: the value of one (objects are refused without it). */
  itemValue?: (item: T) => string;
  /** Object tags: the text shown for one (its value when unset). */
  itemText?: (item: T) => string;
}

export type TagAddResult<T = string> =
  | { kind: 'added'; tags: T[] }
  | { kind: 'blank' }
  | { kind: 'duplicate'; existing: T }
  | { kind: 'too-long' }
  | { kind: 'full' };

/** The value of a tag: itself for a string, `itemValue` of an object. */
export function tagValue<T>(item: T, rules: TagRules<T>): string {
  if (typeof item === 'string') return item;
  if (!rules.itemValue) throw new TypeError('tag input: objects need the itemValue option');
  return rules.itemValue(item);
}

/** The text shown for a tag. */
export function tagText<T>(item: T, rules: TagRules<T>): string {
  return typeof item !== 'string' && rules.itemText ? rules.itemText(item) : tagValue(item, rules);
}

/** The form's value: the tags' values joined with the delimiter, a comma. */
const joined = <T>(tags: readonly T[], rules: TagRules<T>) => tags.map((t) => tagValue(t, rules)).join(',');

/**
 * Spec §5 tag input: a typed tag is cleaned (blank ignored); an object tag needs `itemValue`;
 * duplicates rejected unless allowed; maxChars, maxTags and maxInputLength respected; a
 * single-select input swaps its one tag for the new one.
 */
export function addTag<T = string>(tags: readonly T[], raw: string | T, rules: TagRules<T>): TagAddResult<T> {
  let item: T;
  if (typeof raw === 'string') {
    const cleaned = cleanUpTag(raw, rules.maxTagLength);
    if (!cleaned) return { kind: 'blank' };
    item = cleaned as T;
  } else {
    item = raw;
  }
  const value = tagValue(item, rules);
  if (!value) return { kind: 'blank' };
  const existing = tags.find((t) => tagValue(t, rules) === value);
  if (!rules.allowDuplicates && existing !== undefined) return { kind: 'duplicate', existing };
  if (rules.maxChars !== undefined && value.length > rules.maxChars) return { kind: 'too-long' };
  const kept = rules.singleSelect ? [] : tags;
  if (rules.maxTags !== undefined && kept.length >= rules.maxTags) return { kind: 'full' };
  const next = [...kept, item];
  if (rules.maxInputLength !== undefined && joined(next, rules).length > rules.maxInputLength) return { kind: 'full' };
  return { kind: 'added', tags: next };
}

/** The maximum state: maxTags reached, or the tags' joined values at maxInputLength. */
export function isTagInputFull<T>(tags: readonly T[], rules: TagRules<T>): boolean {
  if (rules.maxTags !== undefined && tags.length >= rules.maxTags) return true;
  return rules.maxInputLength !== undefined && joined(tags, rules).length >= rules.maxInputLength;
}

/** Keys that confirm a tag: Enter (13) and comma (44). */
export function isTagConfirmKey(key: string): boolean {
  return key === 'Enter' || key === ',';
}
