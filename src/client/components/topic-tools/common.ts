import { api } from '../../app/api';
import type { useRuntime } from '../../app/runtime';
import { errorText } from '../../i18n';
import { slugify } from '../../../shared/slug';

type Runtime = ReturnType<typeof useRuntime>;

/** A topic as the tools' picker and answers name it. */
export interface TopicRef {
  tid: number;
  cid: number;
  title: string;
  slug: string;
}

/** One write of a tool: method, /api/v3 path, body. */
export type Write = [method: 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown];

/** Runs tool writes in order; alerts the first refusal and stops. True when all succeeded. */
export async function runWrites(rt: Runtime, writes: Write[]): Promise<boolean> {
  try {
    for (const [method, path, body] of writes) await api(rt.config, method, path, body ?? {});
    return true;
  } catch (err) {
    rt.alert({ type: 'danger', message: errorText(rt.i18n, err) });
    return false;
  }
}

/** Reloads the page shown (its data changed under it). */
export function reloadPage(rt: Runtime, url = window.location.pathname + window.location.search): void {
  rt.navigate(url, { replace: true, force: true });
}

/** The uid of a member by username (their profile's page data), or null. */
export async function uidOf(rt: Runtime, username: string): Promise<number | null> {
  const slug = slugify(username.trim());
  if (!slug) return null;
  const res = await fetch(`${rt.config.relative_path}/api/user/${encodeURIComponent(slug)}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (!res.ok) return null;
  const data = (await res.json()) as { uid?: number };
  return typeof data.uid === 'number' ? data.uid : null;
}
