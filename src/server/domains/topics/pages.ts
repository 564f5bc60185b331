import type { PageDef } from '../../http/pages.js';
import { tagPages } from '../tags/pages.js';
import { listPages } from './list-pages.js';
import { topicPage } from './topic-page.js';

/** Topic pages: the topic itself, the recent/popular/top/unread lists and the tag pages (app.ts registers these). */
export const topicPages: PageDef<any>[] = [topicPage, ...listPages, ...tagPages];
