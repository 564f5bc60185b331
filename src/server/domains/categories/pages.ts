import type { PageDef } from '../../http/pages.js';

/** Category pages. (Filled in by the content work.) */
export const categoryPages: PageDef<any>[] = [];
