import type { PageDef } from '../../http/pages.js';
import { listPages } from './list-pages.js';
import { topicPage } from './topic-page.js';

/** Topic pages: the topic itself, the recent/popular/top/unread lists (app.ts registers the tag pages). */
export const topicPages: PageDef<any>[] = [topicPage, ...listPages];
