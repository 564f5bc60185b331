import { cleanUpTag } from '../../../shared/validation.js';

export interface TagRules {
  maxTags?: number;
  maxTagLength: number;
  /** Accept a tag already present (default false: it is rejected and flashes). */
  allowDuplicates?: boolean;
}

export type TagAddResult =
  | { kind: 'added'; tags: string[] }
  | { kind: 'blank' }
  | { kind: 'duplicate'; existing: string }
  | { kind: 'full' };

/** Spec §5 tag input: blank ignored, duplicates rejected, cleaned, maxTags respected. */
export function addTag(tags: readonly string[], raw: string, rules: TagRules): TagAddResult {
  const tag = cleanUpTag(raw, rules.maxTagLength);
  if (!tag) return { kind: 'blank' };
  if (!rules.allowDuplicates && tags.includes(tag)) return { kind: 'duplicate', existing: tag };
  if (isTagInputFull(tags, rules)) return { kind: 'full' };
  return { kind: 'added', tags: [...tags, tag] };
}

/** The maximum state: maxTags reached. */
export function isTagInputFull(tags: readonly string[], rules: TagRules): boolean {
  return rules.maxTags !== undefined && tags.length >= rules.maxTags;
}

/** Keys that confirm a tag: Enter (13) and comma (44). */
export function isTagConfirmKey(key: string): boolean {
  return key === 'Enter' || key === ',';
}
