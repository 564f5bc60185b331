import type { AccountSession } from '../security.js';
import type { PageBase, UserSummary } from '../types.js';
import type { TopicObject } from './topic.js';

/** The counters the dashboard keeps (NodeBB's `analytics:<metric>` sets), per UTC hour. */
export const ANALYTICS_METRICS = ['pageviews', 'pageviews:registered', 'pageviews:guest', 'registrations', 'posts', 'topics', 'logins', 'searches'] as const;
export type AnalyticsMetric = (typeof ANALYTICS_METRICS)[number];

/** The graph periods the dashboard offers: 24 hours by hour, 30 days by day, 12 months by month. */
export const DASHBOARD_PERIODS = ['hour', 'day', 'month'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

/** One row of NodeBB's dashboard `stats`: a counter's sums over windows and their change. */
export interface DashboardStat {
  name: string;
  /** The metric the row sums. */
  set: AnalyticsMetric;
  /** The sub-page with details, when there is one (admin/dashboard/users…). */
  href?: string;
  yesterday: number;
  today: number;
  lastweek: number;
  thisweek: number;
  lastmonth: number;
  thismonth: number;
  alltime: number;
  dayIncrease: string;
  dayTextClass: string;
  weekIncrease: string;
  weekTextClass: string;
  monthIncrease: string;
  monthTextClass: string;
}

/** A graph: the start of each bucket (ms, UTC) and each metric's count per bucket. */
export interface DashboardGraph {
  period: DashboardPeriod;
  labels: number[];
  series: Record<AnalyticsMetric, number[]>;
}

/** The system panel. */
export interface DashboardSystem {
  version: string;
  node: string;
  database: 'sqlite' | 'postgres';
  /** The database's size in bytes (0 when it cannot be read). */
  databaseSize: number;
  /** Seconds since this process started. */
  uptime: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
}

/** /admin (and /admin/dashboard): NodeBB's /api/admin/dashboard fields and Palaver's graph, online and system panels. */
export interface DashboardPage extends PageBase {
  graphTitle: string;
  version: string;
  /** NodeBB's version check: Palaver makes none (lookupFailed, no latest version). */
  lookupFailed: boolean;
  latestVersion: string | null;
  upgradeAvailable: boolean | null;
  currentPrerelease: boolean;
  hideAllTime: boolean;
  notices: { done: boolean; doneText?: string; notDoneText?: string; tooltip?: string; link?: string }[];
  canRestart: boolean;
  lastrestart: null;
  showSystemControls: boolean;
  stats: DashboardStat[];
  popularSearches: { value: string; score: number }[];
  graph: DashboardGraph;
  online: { members: number; guests: number };
  topTopics: TopicObject[];
  system: DashboardSystem;
  /** Whether the forum can send mail (an SMTP host is set), and the mails waiting in the outbox. */
  mail: MailStatus;
}

/** The forum's mail: whether it can send (an SMTP host is set), the mails waiting and the oldest one's time (ms; 0: none). */
export interface MailStatus {
  configured: boolean;
  waiting: number;
  oldest: number;
}

/** The sub-pages' common part: the counter's stats row, its graph and summary. */
export interface DashboardDetailBase extends PageBase {
  graphTitle: string;
  set: AnalyticsMetric;
  query: Record<string, string>;
  summary: { day: number; week: number; month: number };
  stats: DashboardStat[];
  graph: DashboardGraph;
}

/** /admin/dashboard/logins: recent logins (sessions) with their device. */
export interface DashboardLoginsPage extends DashboardDetailBase {
  sessions: (AccountSession & { user: UserSummary })[];
  loginDays: number;
}

/** /admin/dashboard/users: the newest registrations. */
export interface DashboardUsersPage extends DashboardDetailBase {
  users: (UserSummary & { joindate: number; joindateISO: string })[];
}

/** /admin/dashboard/topics: the newest topics. */
export interface DashboardTopicsPage extends DashboardDetailBase {
  topics: TopicObject[];
}

/** /admin/dashboard/searches: searches per day (the search domain keeps counts, not terms). */
export interface DashboardSearchesPage extends DashboardDetailBase {
  searches: { value: string; score: number }[];
  searchesPerDay: { day: number; count: number }[];
  startDate: string | null;
  endDate: string | null;
}
