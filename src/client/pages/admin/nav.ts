/**
 * The admin area's navigation: every page of spec §2's admin list, grouped as NodeBB groups
 * them. `mod`: a global moderator sees the entry too (the server's `access: 'moderator'`).
 * Labels are keys of the `admin` namespace.
 */
export interface AdminNavEntry {
  path: string;
  label: string;
  mod?: boolean;
}

export interface AdminNavSection {
  id: string;
  label: string;
  entries: AdminNavEntry[];
}

export const ADMIN_NAV: AdminNavSection[] = [
  {
    id: 'dashboard',
    label: 'admin:nav.dashboard',
    entries: [
      { path: '/admin', label: 'admin:nav.overview' },
      { path: '/admin/dashboard/logins', label: 'admin:nav.logins' },
      { path: '/admin/dashboard/users', label: 'admin:nav.users' },
      { path: '/admin/dashboard/topics', label: 'admin:nav.topics' },
      { path: '/admin/dashboard/searches', label: 'admin:nav.searches' },
    ],
  },
  {
    id: 'manage',
    label: 'admin:nav.manage',
    entries: [
      { path: '/admin/manage/categories', label: 'admin:nav.categories' },
      { path: '/admin/manage/privileges', label: 'admin:nav.privileges' },
      { path: '/admin/manage/users', label: 'admin:nav.users', mod: true },
      { path: '/admin/manage/registration', label: 'admin:nav.registration' },
      { path: '/admin/manage/admins-mods', label: 'admin:nav.admins-mods' },
      { path: '/admin/manage/groups', label: 'admin:nav.groups' },
      { path: '/admin/manage/tags', label: 'admin:nav.tags', mod: true },
      { path: '/admin/manage/uploads', label: 'admin:nav.uploads' },
      { path: '/admin/manage/users/custom-fields', label: 'admin:nav.custom-fields' },
      { path: '/admin/manage/digest', label: 'admin:nav.digest' },
    ],
  },
  {
    id: 'settings',
    label: 'admin:nav.settings',
    entries: [
      { path: '/admin/settings/general', label: 'admin:nav.general' },
      { path: '/admin/settings/navigation', label: 'admin:nav.navigation' },
      { path: '/admin/settings/user', label: 'admin:nav.user' },
      { path: '/admin/settings/post', label: 'admin:nav.post' },
      { path: '/admin/settings/chat', label: 'admin:nav.chat' },
      { path: '/admin/settings/email', label: 'admin:nav.email' },
      { path: '/admin/settings/notifications', label: 'admin:nav.notifications' },
      { path: '/admin/settings/uploads', label: 'admin:nav.uploads' },
      { path: '/admin/settings/tags', label: 'admin:nav.tags' },
      { path: '/admin/settings/reputation', label: 'admin:nav.reputation' },
      { path: '/admin/settings/group', label: 'admin:nav.group' },
      { path: '/admin/settings/pagination', label: 'admin:nav.pagination' },
      { path: '/admin/settings/guest', label: 'admin:nav.guest' },
      { path: '/admin/settings/cookies', label: 'admin:nav.cookies' },
      { path: '/admin/settings/web-crawler', label: 'admin:nav.web-crawler' },
      { path: '/admin/settings/api', label: 'admin:nav.api' },
      { path: '/admin/settings/advanced', label: 'admin:nav.advanced' },
    ],
  },
  {
    id: 'appearance',
    label: 'admin:nav.appearance',
    entries: [
      { path: '/admin/appearance/themes', label: 'admin:nav.themes' },
      { path: '/admin/appearance/skins', label: 'admin:nav.skins' },
      { path: '/admin/appearance/customise', label: 'admin:nav.customise' },
    ],
  },
  {
    id: 'extend',
    label: 'admin:nav.extend',
    entries: [
      { path: '/admin/extend/plugins', label: 'admin:nav.plugins' },
      { path: '/admin/extend/widgets', label: 'admin:nav.widgets' },
      { path: '/admin/extend/rewards', label: 'admin:nav.rewards' },
    ],
  },
  {
    id: 'plugins',
    label: 'admin:nav.plugin-pages',
    entries: [
      { path: '/admin/plugins/markdown', label: 'admin:nav.markdown' },
      { path: '/admin/plugins/mentions', label: 'admin:nav.mentions' },
      { path: '/admin/plugins/emoji', label: 'admin:nav.emoji' },
      { path: '/admin/plugins/composer-default', label: 'admin:nav.composer-default' },
      { path: '/admin/plugins/dbsearch', label: 'admin:nav.dbsearch' },
      { path: '/admin/plugins/spam-be-gone', label: 'admin:nav.spam-be-gone' },
      { path: '/admin/plugins/web-push', label: 'admin:nav.web-push' },
      { path: '/admin/plugins/2factor', label: 'admin:nav.2factor' },
      { path: '/admin/plugins/harmony', label: 'admin:nav.harmony' },
    ],
  },
  {
    id: 'advanced',
    label: 'admin:nav.advanced-section',
    entries: [
      { path: '/admin/advanced/database', label: 'admin:nav.database' },
      { path: '/admin/advanced/backups', label: 'admin:nav.backups' },
      { path: '/admin/advanced/events', label: 'admin:nav.events' },
      { path: '/admin/advanced/logs', label: 'admin:nav.logs' },
      { path: '/admin/advanced/errors', label: 'admin:nav.errors' },
      { path: '/admin/advanced/cache', label: 'admin:nav.cache' },
    ],
  },
];

/** The sections and entries a viewer sees: everything for administrators, the `mod` entries for global moderators. */
export function adminNavFor(isAdmin: boolean): AdminNavSection[] {
  if (isAdmin) return ADMIN_NAV;
  return ADMIN_NAV.map((s) => ({ ...s, entries: s.entries.filter((e) => e.mod) })).filter((s) => s.entries.length);
}

/** The entry a path belongs to: the longest entry path that equals it or is its parent. */
export function activeEntry(path: string): string | undefined {
  const p = path.split(/[?#]/)[0]!.replace(/\/$/, '') || '/';
  let best: string | undefined;
  for (const s of ADMIN_NAV) {
    for (const e of s.entries) {
      if ((p === e.path || (e.path !== '/admin' && p.startsWith(`${e.path}/`))) && (!best || e.path.length > best.length)) best = e.path;
    }
  }
  return best;
}
