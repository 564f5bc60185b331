import type { TagRef } from '../../../shared/types.js';
import { escapeHtml } from '../../http/render.js';

/** A tag as page data shows it; score is how many topics carry it. */
export function presentTag(tag: string, count: number): TagRef {
  return { value: tag, valueEscaped: escapeHtml(tag), score: count };
}
