import { CHUNK_LOAD_TIMEOUT_MS } from '../../shared/constants';
import { moduleFor, type PageComponent } from './registry';

type Loader = () => Promise<{ default: PageComponent }>;

// One lazily loaded chunk per page module, fetched the first time it is needed.
const LOADERS: Record<string, Loader> = {
  categories: () => import('./categories'),
  category: () => import('./category'),
  topic: () => import('./topic'),
  'topic-list': () => import('./topic-list'),
  users: () => import('./users'),
  tags: () => import('./tags'),
  search: () => import('./search'),
  'admin-dbsearch': () => import('./admin-dbsearch'),
  'admin/appearance/skins': () => import('./admin/appearance/skins'),
  'admin/appearance/customise': () => import('./admin/appearance/customise'),
  'admin/appearance/themes': () => import('./admin/appearance/themes'),
  'admin/plugins/list': () => import('./admin/plugins/list'),
  'admin/plugins/settings': () => import('./admin/plugins/settings'),
  outgoing: () => import('./outgoing'),
  tos: () => import('./tos'),
  'account/profile': () => import('./account/profile'),
  'account/settings': () => import('./account/settings'),
  'account/watched': () => import('./account/watched'),
  'account/categories': () => import('./account/categories'),
  'account/tags': () => import('./account/tags'),
  'account/web-push': () => import('./account/web-push'),
  'account/consent': () => import('./account/consent'),
  'registration-queue': () => import('./registration-queue'),
  'admin/users/manage': () => import('./admin/users/manage'),
  'admin/users/custom-fields': () => import('./admin/users/custom-fields'),
  'admin/users/custom-reasons': () => import('./admin/users/custom-reasons'),
  'admin/tags': () => import('./admin/tags'),
  'admin/categories/list': () => import('./admin/categories/list'),
  'admin/categories/edit': () => import('./admin/categories/edit'),
  'admin/categories/analytics': () => import('./admin/categories/analytics'),
  'admin/categories/federation': () => import('./admin/categories/federation'),
  'admin/dashboard': () => import('./admin/dashboard'),
  'admin/dashboard/details': () => import('./admin/dashboard/details'),
  'admin/privileges/index': () => import('./admin/privileges/index'),
  'admin/groups/list': () => import('./admin/groups/list'),
  'admin/groups/edit': () => import('./admin/groups/edit'),
  'admin/rewards': () => import('./admin/rewards'),
  'admin/uploads': () => import('./admin/uploads'),
  'admin/digest': () => import('./admin/digest'),
  'admin/widgets': () => import('./admin/widgets'),
  'admin/advanced/cache': () => import('./admin/advanced/cache'),
  'admin/advanced/errors': () => import('./admin/advanced/errors'),
  'admin/advanced/events': () => import('./admin/advanced/events'),
  'admin/advanced/logs': () => import('./admin/advanced/logs'),
  'admin/advanced/backups': () => import('./admin/advanced/backups'),
  'admin/advanced/database': () => import('./admin/advanced/database'),
  'admin/settings/index': () => import('./admin/settings/index'),
  'admin/settings/navigation': () => import('./admin/settings/navigation'),
  'account/uploads': () => import('./account/uploads'),
  'account/groups': () => import('./account/groups'),
  'groups/list': () => import('./groups/list'),
  'groups/details': () => import('./groups/details'),
  'groups/members': () => import('./groups/members'),
  'account/blocks': () => import('./account/blocks'),
  'account/data': () => import('./account/data'),
  'account/edit': () => import('./account/edit'),
  'account/theme': () => import('./account/theme'),
  'account/posts': () => import('./account/posts'),
  'account/topics': () => import('./account/topics'),
  'account/follows': () => import('./account/follows'),
  'account/info': () => import('./account/info'),
  'ip-blacklist': () => import('./ip-blacklist'),
  login: () => import('./login'),
  'login-2fa': () => import('./login-2fa'),
  'account/sessions': () => import('./account/sessions'),
  'account/2factor': () => import('./account/2factor'),
  'account/tokens': () => import('./account/tokens'),
  'account/edit-password': () => import('./account/edit-password'),
  'account/edit-username': () => import('./account/edit-username'),
  'account/edit-email': () => import('./account/edit-email'),
  register: () => import('./register'),
  setup: () => import('./setup'),
  'admin/admins-mods': () => import('./admin/admins-mods'),
  reset: () => import('./reset'),
  'reset-code': () => import('./reset-code'),
  'mail-result': () => import('./mail-result'),
  compose: () => import('./compose'),
  notifications: () => import('./notifications'),
  'post-queue': () => import('./post-queue'),
  'flags/list': () => import('./flags/list'),
  'flags/detail': () => import('./flags/detail'),
  chats: () => import('./chats'),
  error: () => import('./error'),
};

const loaded = new Map<string, PageComponent>();

/** Error thrown when a page chunk has not arrived within the spec's 120 s. */
export class ChunkLoadError extends Error {
  constructor(module: string) {
    super(`Loading chunk ${module} failed (timeout)`);
    this.name = 'ChunkLoadError';
  }
}

/** A chunk's import, failing with ChunkLoadError when it has not arrived within 120 s (spec §9). */
export async function withChunkTimeout<T>(load: Promise<T>, module: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChunkLoadError(module)), CHUNK_LOAD_TIMEOUT_MS);
  });
  try {
    return await Promise.race([load, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Loads (once) the component of a template, failing with ChunkLoadError after 120 s. */
export async function loadPageComponent(template: string): Promise<PageComponent> {
  const mod = moduleFor(template);
  const hit = loaded.get(mod);
  if (hit) return hit;
  const m = await withChunkTimeout(LOADERS[mod]!(), mod);
  loaded.set(mod, m.default);
  return m.default;
}

/** The component of a template if it is already loaded (render path: synchronous). */
export function getLoadedComponent(template: string): PageComponent | undefined {
  return loaded.get(moduleFor(template));
}
