import type { TagRef } from '../../../shared/types.js';
import { escapeHtml } from '../../http/render.js';

/** A tag as NodeBB's TopicObject lists it; score is how many topics carry it, and Palaver has no tag colours. */
export function presentTag(tag: string, count: number): TagRef {
  return { value: tag, valueEscaped: escapeHtml(tag), color: '', bgColor: '', score: count };
}
