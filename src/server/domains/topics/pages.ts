import type { PageDef } from '../../http/pages.js';

/** Topic pages. (Filled in by the content work.) */
export const topicPages: PageDef<any>[] = [];
