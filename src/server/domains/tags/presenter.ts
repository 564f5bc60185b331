import type { TagObject, TagRef } from '../../../shared/types.js';
import { escapeHtml } from '../../http/render.js';

/** A tag as NodeBB's TopicObject lists it; score is how many topics carry it, and Palaver has no tag colours. */
export function presentTag(tag: string, count: number): TagRef {
  return { value: tag, valueEscaped: escapeHtml(tag), color: '', bgColor: '', score: count };
}

/** A tag as NodeBB's TagObject (getTagData): escaped, encoded, and its class (the escaped name, spaces as dashes). */
export function tagObject(tag: string, count: number): TagObject {
  const valueEscaped = escapeHtml(tag);
  return { value: tag, valueEscaped, valueEncoded: encodeURIComponent(tag), class: valueEscaped.replace(/\s/g, '-'), score: count };
}

/** Parts of the account pages' batched read (users/account-fields.ts). */
export { followedTagCountPart } from './store.js';
