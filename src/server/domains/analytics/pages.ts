import { DASHBOARD_PERIODS, type AnalyticsMetric, type DashboardDetailBase, type DashboardLoginsPage, type DashboardPage, type DashboardPeriod, type DashboardSearchesPage, type DashboardTopicsPage, type DashboardUsersPage } from '../../../shared/schemas/dashboard.js';
import { definePage, type PageContent, type PageDef, type PageRequest } from '../../http/pages.js';
import { presentUser } from '../users/presenter.js';
import { DAY_MS } from './store.js';

const LIST_SIZE = 50;

/** The period the graph shows (?period=hour|day|month; anything else: day). */
function periodOf(query: Record<string, string>): DashboardPeriod {
  return (DASHBOARD_PERIODS as readonly string[]).includes(query.period ?? '') ? (query.period as DashboardPeriod) : 'day';
}

const META = [{ name: 'robots', content: 'noindex' }];

/** The dashboard, at /admin and NodeBB's /admin/dashboard. */
async function loadDashboard({ ctx, viewer, query }: PageRequest): Promise<PageContent<DashboardPage>> {
  const period = periodOf(query);
  const [stats, graph, online, topTopics, system, mail] = await Promise.all([
    ctx.analytics.stats(viewer),
    ctx.analytics.graph(viewer, period),
    ctx.analytics.onlineNow(viewer),
    ctx.analytics.topTopics(viewer, period === 'hour' ? DAY_MS : period === 'day' ? 30 * DAY_MS : 365 * DAY_MS),
    ctx.analytics.system(viewer),
    ctx.mail.status(viewer),
  ]);
  return {
    title: '[[admin-dashboard:title]]',
    breadcrumbs: [{ text: '[[admin-dashboard:title]]' }],
    graphTitle: '[[admin-dashboard:graph-title]]',
    version: system.version,
    // Palaver asks nobody for a newer version: none known (NodeBB's answer when its lookup fails).
    lookupFailed: true,
    latestVersion: null,
    upgradeAvailable: null,
    currentPrerelease: system.version.includes('-'),
    // The stats rows carry their all-time totals.
    hideAllTime: false,
    // NodeBB's checks of plugins and restarts: Palaver's search and mail are built in, it has no restart.
    notices: [],
    canRestart: false,
    lastrestart: null,
    showSystemControls: false,
    stats,
    // The search domain counts searches, not their terms.
    popularSearches: [],
    graph,
    online,
    topTopics,
    system,
    mail,
    meta: META,
  };
}

const dashboardPage = definePage<DashboardPage>({ path: '/admin', template: 'admin/dashboard', access: 'admin', load: loadDashboard });
const nodebbDashboardPage = definePage<DashboardPage>({ path: '/admin/dashboard', template: 'admin/dashboard', access: 'admin', load: loadDashboard });

/** The common part of a detail page: its counter's stats row and graph. */
async function detail({ ctx, viewer, query }: PageRequest, set: AnalyticsMetric, title: string): Promise<PageContent<DashboardDetailBase>> {
  const [stats, graph] = await Promise.all([ctx.analytics.stats(viewer), ctx.analytics.graph(viewer, periodOf(query))]);
  const row = stats.find((s) => s.set === set);
  return {
    title,
    breadcrumbs: [{ text: '[[admin-dashboard:title]]', url: '/admin' }, { text: title }],
    graphTitle: title,
    set,
    query,
    summary: { day: row?.today ?? 0, week: row?.thisweek ?? 0, month: row?.thismonth ?? 0 },
    stats: row ? [row] : [],
    graph,
    meta: META,
  };
}

const loginsPage = definePage<DashboardLoginsPage>({
  path: '/admin/dashboard/logins',
  template: 'admin/dashboard/logins',
  access: 'admin',
  async load(req) {
    const base = await detail(req, 'logins', '[[admin-dashboard:logins]]');
    const sessions = await req.ctx.auth.recentLogins(LIST_SIZE);
    const users = await req.ctx.users.getMany([...new Set(sessions.map((s) => s.uid))]);
    return { ...base, sessions: sessions.map(({ uid, ...s }) => ({ ...s, user: presentUser(users.get(uid), uid) })), loginDays: (await req.ctx.settings.get()).sessionDays };
  },
});

const usersPage = definePage<DashboardUsersPage>({
  path: '/admin/dashboard/users',
  template: 'admin/dashboard/users',
  access: 'admin',
  async load(req) {
    const base = await detail(req, 'registrations', '[[admin-dashboard:new-users]]');
    const { rows } = await req.ctx.users.list('joindate', 1, LIST_SIZE);
    return { ...base, users: rows.map((r) => ({ ...presentUser(r), joindate: r.joindate, joindateISO: new Date(r.joindate).toISOString() })) };
  },
});

const topicsPage = definePage<DashboardTopicsPage>({
  path: '/admin/dashboard/topics',
  template: 'admin/dashboard/topics',
  access: 'admin',
  async load(req) {
    const base = await detail(req, 'topics', '[[admin-dashboard:topics]]');
    return { ...base, topics: await req.ctx.analytics.newestTopics(req.viewer, LIST_SIZE) };
  },
});

const searchesPage = definePage<DashboardSearchesPage>({
  path: '/admin/dashboard/searches',
  template: 'admin/dashboard/searches',
  access: 'admin',
  async load(req) {
    const base = await detail(req, 'searches', '[[admin-dashboard:searches]]');
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    // The search domain counts searches per day (not their terms): its counts, newest first.
    const perDay = (await req.ctx.search.perDay(today - 29 * DAY_MS)).reverse();
    return {
      ...base,
      searches: [],
      searchesPerDay: perDay,
      startDate: perDay.length ? new Date(perDay[perDay.length - 1]!.day).toISOString().slice(0, 10) : null,
      endDate: perDay.length ? new Date(perDay[0]!.day).toISOString().slice(0, 10) : null,
    };
  },
});

/** The dashboard and its detail pages (admins). */
export const dashboardPages: PageDef<any>[] = [dashboardPage, nodebbDashboardPage, loginsPage, usersPage, topicsPage, searchesPage];
