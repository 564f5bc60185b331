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
  outgoing: () => import('./outgoing'),
  'account/profile': () => import('./account/profile'),
  'account/settings': () => import('./account/settings'),
  'account/watched': () => import('./account/watched'),
  'account/categories': () => import('./account/categories'),
  'account/tags': () => import('./account/tags'),
  'account/web-push': () => import('./account/web-push'),
  'account/uploads': () => import('./account/uploads'),
  login: () => import('./login'),
  register: () => import('./register'),
  reset: () => import('./reset'),
  'reset-code': () => import('./reset-code'),
  'mail-result': () => import('./mail-result'),
  compose: () => import('./compose'),
  notifications: () => import('./notifications'),
  'post-queue': () => import('./post-queue'),
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

/** Loads (once) the component of a template, failing with ChunkLoadError after 120 s. */
export async function loadPageComponent(template: string): Promise<PageComponent> {
  const mod = moduleFor(template);
  const hit = loaded.get(mod);
  if (hit) return hit;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChunkLoadError(mod)), CHUNK_LOAD_TIMEOUT_MS);
  });
  try {
    const m = await Promise.race([LOADERS[mod]!(), timeout]);
    loaded.set(mod, m.default);
    return m.default;
  } finally {
    clearTimeout(timer);
  }
}

/** The component of a template if it is already loaded (render path: synchronous). */
export function getLoadedComponent(template: string): PageComponent | undefined {
  return loaded.get(moduleFor(template));
}
