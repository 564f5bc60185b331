import type { NotificationType } from '../../../shared/schemas/notification.js';
import type { AccountCategoriesPage, AccountCategory, AccountPageBase, AccountSettingsPage, AccountTagsPage, AccountWatchedPage, NotificationSettingRow } from '../../../shared/account.js';
import { BOOTSWATCH_SKINS } from '../../../shared/skins.js';
import type { AppContext } from '../../context.js';
import { forbidden, notFound } from '../../http/errors.js';
import { definePage, type PageContent } from '../../http/pages.js';
import { pageNumber, pagination } from '../../http/pagination.js';
import type { Viewer } from '../privileges/service.js';
import { topicFields } from '../topics/presenter.js';
import { presentSettingsObj, userSettings } from '../users/presenter.js';
import { accountFields } from '../users/account-fields.js';
import type { UserRow } from '../users/store.js';
import { DIGEST_FREQS, notifySettingsOf, parseSettings, PREFERENCE_NAMES, settingName, typeKey } from './schemas.js';
import * as store from './store.js';
import { installedLanguages, languageName } from '../../i18n.js';
import { languageDir } from '../../../shared/languages.js';
import { memberLanguage } from '../../http/language.js';

const WATCHED_PER_PAGE = 20;
const MAX_PER_PAGE = 100;

type Ctx = AppContext;

/**
 * The member an account page is about: only the member themself and administrators see these
 * pages (another member: 403; unknown: 404). A slug with other letters redirects to the real one.
 */
export async function owner(ctx: Ctx, viewer: Viewer, slug: string, page: string): Promise<{ row: UserRow; base: PageContent<AccountPageBase> } | { redirect: string }> {
  const row = await ctx.users.bySlug(slug);
  if (!row) throw notFound('error:no-user');
  if (viewer.uid !== row.uid && !viewer.isAdmin) throw forbidden();
  if (row.userslug !== slug) return { redirect: `/user/${row.userslug}/${page}` };
  // NodeBB's UserObjectFull (users/account-fields.ts), then the page's title and breadcrumbs.
  const account = await accountFields(ctx, viewer, row);
  return {
    row,
    base: {
      ...account,
      title: `[[user:${page}.title]]`,
      breadcrumbs: [{ text: '[[global:users]]', url: '/users' }, { text: row.username, url: `/user/${row.userslug}` }, { text: `[[user:${page}.title]]` }],
    },
  };
}

const settingsPage = definePage<AccountSettingsPage>({
  path: '/user/:userslug/settings',
  template: 'account/settings',
  requireLogin: true,
  async load({ ctx, viewer, params }) {
    const o = await owner(ctx, viewer, params.userslug!, 'settings');
    if ('redirect' in o) return o;
    const forum = await ctx.settings.get();
    const s = userSettings(o.row);
    const lang = memberLanguage(o.row, forum);
    const stored = parseSettings(o.row.settings);
    const notify = notifySettingsOf(stored, { dailyDigestFreq: forum.dailyDigestFreq, categoryWatchState: 'watching' });
    // A type unsubscribed with a mail's link shows its mail off (saving it on again takes the unsubscribe back).
    for (const type of await ctx.mail.unsubscribedTypes(o.row.uid)) {
      const key = typeKey(settingName(type as NotificationType));
      const v = notify.types[key];
      if (v === 'email') notify.types[key] = 'none';
      else if (v === 'notificationemail') notify.types[key] = 'notification';
    }
    const notificationSettings: NotificationSettingRow[] = PREFERENCE_NAMES.map((name) => {
      const value = notify.types[typeKey(name)]!;
      return {
        name: typeKey(name),
        label: `[[user:settings.type.${name}]]`,
        value,
        none: value === 'none',
        notification: value === 'notification',
        email: value === 'email',
        notificationemail: value === 'notificationemail',
      };
    });
    return {
      ...o.base,
      settings: presentSettingsObj(o.row.uid, s, forum, o.row),
      notificationSettings,
      disableEmailSubscriptions: 0,
      dailyDigestFreqOptions: DIGEST_FREQS.map((value) => ({ value, name: `[[user:settings.digest.${value}]]`, selected: value === notify.dailyDigestFreq })),
      // Only the skins the admin lets members pick (the setting empty: every skin).
      bootswatchSkinOptions: ['', ...BOOTSWATCH_SKINS.filter((k) => !forum.allowedSkins || forum.allowedSkins.split(',').includes(k))].map((value) => ({ name: value ? value.charAt(0).toUpperCase() + value.slice(1) : '[[user:settings.skin-default]]', value, selected: value === s.bootswatchSkin })),
      // As NodeBB: `{ [the member's default state]: true }`.
      categoryWatchState: { [notify.categoryWatchState]: true },
      languages: installedLanguages().map((code) => ({ name: languageName(code), code, dir: languageDir(code), selected: code === lang })),
      acpLanguages: installedLanguages().map((code) => ({ name: languageName(code), code, dir: languageDir(code), selected: code === lang })),
      timezone: s.timezone,
      // NodeBB's place for settings of plugins: Palaver's push channel per type.
      customSettings: [{ id: 'notificationPush', title: '[[user:settings.channel.push]]', values: notify.push }],
      homePageRoutes: [],
      upvoteNotifFreq: [{ name: 'all', selected: true }],
      disableCustomUserSkins: 0,
      allowUserHomePage: 0,
      hideFullname: 0,
      hideEmail: 0,
      inTopicSearchAvailable: false,
      maxTopicsPerPage: MAX_PER_PAGE,
      maxPostsPerPage: MAX_PER_PAGE,
      maxUnreadCutoff: 2,
    };
  },
});

const watchedPage = definePage<AccountWatchedPage>({
  path: '/user/:userslug/watched',
  template: 'account/watched',
  requireLogin: true,
  async load({ ctx, viewer, params, query }) {
    const o = await owner(ctx, viewer, params.userslug!, 'watched');
    if ('redirect' in o) return o;
    const page = pageNumber(query.page);
    // What the member may read now (an admin looking sees the member's view).
    const member = await ctx.privileges.viewer(o.row.uid);
    const cids = await ctx.categories.readableCids(member);
    const { tids, count } = await store.watchedTopicIds(ctx.db, o.row.uid, cids, (page - 1) * WATCHED_PER_PAGE, WATCHED_PER_PAGE);
    const rows = await ctx.topics.getMany(tids);
    const topics = tids.flatMap((tid) => (rows.get(tid) ? [topicFields(rows.get(tid)!)] : []));
    const pageCount = Math.max(1, Math.ceil(count / WATCHED_PER_PAGE));
    if (page > pageCount) throw notFound();
    return {
      ...o.base,
      topics,
      nextStart: page * WATCHED_PER_PAGE,
      noItemsFoundKey: '[[user:watched.none]]',
      showSort: false,
      sortOptions: [],
      pagination: pagination(page, pageCount, query),
    };
  },
});

const categoriesPage = definePage<AccountCategoriesPage>({
  path: '/user/:userslug/categories',
  template: 'account/categories',
  requireLogin: true,
  async load({ ctx, viewer, params, query }) {
    const o = await owner(ctx, viewer, params.userslug!, 'categories');
    if ('redirect' in o) return o;
    const member = await ctx.privileges.viewer(o.row.uid);
    const rows = await ctx.categories.list(member);
    const states = await ctx.categories.watchStates(o.row.uid, rows.map((r) => r.cid));
    // Tree order: each category after its parent, with its depth.
    const byParent = new Map<number, typeof rows>();
    for (const r of rows) byParent.set(r.parent_cid, [...(byParent.get(r.parent_cid) ?? []), r]);
    const known = new Set(rows.map((r) => r.cid));
    const categories: AccountCategory[] = [];
    const walk = (parent: number, depth: number) => {
      for (const r of (byParent.get(parent) ?? []).sort((a, b) => a.position - b.position || a.cid - b.cid)) {
        const state = states.get(r.cid) ?? 'watching';
        categories.push({
          cid: r.cid,
          name: r.name,
          level: String(depth),
          icon: r.icon,
          parentCid: r.parent_cid,
          color: r.color,
          bgColor: r.bg_color,
          backgroundImage: '',
          depth,
          slug: r.slug,
          descriptionParsed: r.description_parsed,
          isIgnored: state === 'ignoring',
          isWatched: state === 'watching',
          isTracked: state === 'tracking',
          isNotWatched: state === 'notwatching',
          imageClass: 'cover',
        });
        walk(r.cid, depth + 1);
      }
    };
    for (const r of rows) if (!known.has(r.parent_cid) && !categories.some((c) => c.cid === r.cid)) walk(r.parent_cid, 0);
    return { ...o.base, categories, pagination: pagination(1, 1, query) };
  },
});

const tagsPage = definePage<AccountTagsPage>({
  path: '/user/:userslug/tags',
  template: 'account/tags',
  requireLogin: true,
  async load({ ctx, viewer, params }) {
    const o = await owner(ctx, viewer, params.userslug!, 'tags');
    if ('redirect' in o) return o;
    return { ...o.base, tags: await store.followedTags(ctx.db, o.row.uid) };
  },
});

/** The account pages about notifications and watching: settings, watched, categories, tags. */
export const accountPages = [settingsPage, watchedPage, categoriesPage, tagsPage];
