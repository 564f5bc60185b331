import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { realtimeOf } from './index.js';
import { ADMINS } from './rooms.js';

/**
 * `event:livereload` (NodeBB's): administrators' open pages outside the admin area reload
 * (the client handles the event). Sent to the `admins` room of every process (the Redis
 * adapter carries it). Returns false when this process has no live layer (CLI, tests without it).
 */
export function requestLiveReload(ctx: AppContext): boolean {
  const rt = realtimeOf(ctx);
  if (!rt) return false;
  rt.liveReload();
  return true;
}

/** The settings whose change alters how every page looks: the appearance pages' keys. */
export const APPEARANCE_SETTINGS: readonly string[] = ['bootswatchSkin', 'allowedSkins', 'customCSS', 'useCustomCSS', 'customHTML', 'useCustomHTML', 'customJS', 'useCustomJS'];

/**
 * For the appearance pages: after saving settings, reloads administrators' open forum pages
 * when one of the changed keys is an appearance one (skin, custom CSS/HTML/JS).
 */
export function liveReloadAfterSettings(ctx: AppContext, changedKeys: readonly string[]): boolean {
  return changedKeys.some((k) => APPEARANCE_SETTINGS.includes(k)) && requestLiveReload(ctx);
}

/**
 * Development (`npm run dev` sets PALAVER_LIVERELOAD=1): after the client is rebuilt,
 * administrators' pages reload. A rebuild either leaves this process running (it sees the
 * manifest change and announces it) or restarts it (the server-render bundle changed too):
 * then the new process finds a build newer than the last one announced (a marker file
 * beside the manifest) and sends the event to the first administrator's socket that
 * connects, once. Returns a function that stops watching.
 */
export function watchClientBuild(ctx: AppContext, distDir: string, delayMs = 1000): () => void {
  const manifest = path.join(distDir, 'client', '.vite', 'manifest.json');
  const marker = path.join(distDir, 'client', '.vite', 'livereload.json');
  const built = () => (existsSync(manifest) ? statSync(manifest).mtimeMs : 0);
  const announced = () => {
    try {
      return Number((JSON.parse(readFileSync(marker, 'utf8')) as { built?: unknown }).built) || 0;
    } catch {
      return 0;
    }
  };
  const remember = (mtime: number) => {
    try {
      writeFileSync(marker, JSON.stringify({ built: mtime }));
    } catch {
      // A read-only dist/: the reload still happens, a restart may repeat it once.
    }
  };
  let timer: NodeJS.Timeout | undefined;
  // A fresh start after a rebuild: the first administrator's socket gets the event.
  const rt = realtimeOf(ctx);
  const bootBuild = built();
  let pending = bootBuild > announced() && announced() > 0;
  if (!announced()) remember(bootBuild);
  const onConnection = (socket: { rooms: Set<string>; emit(ev: string): void }) => {
    if (!pending) return;
    // The admins room is joined once the socket's viewer has loaded.
    setTimeout(() => {
      if (!pending || !socket.rooms.has(ADMINS)) return;
      pending = false;
      remember(bootBuild);
      socket.emit('event:livereload');
    }, 500).unref();
  };
  rt?.io.on('connection', onConnection as never);
  // A plain poll of the manifest's time (fs.watch misses files replaced by rename on some systems).
  let seen = bootBuild;
  const poll = setInterval(() => {
    const now = built();
    if (!now || now === seen) return;
    seen = now;
    clearTimeout(timer);
    // Vite writes its files in a burst: announce once it is done.
    timer = setTimeout(() => {
      pending = false;
      remember(built());
      requestLiveReload(ctx);
    }, delayMs).unref();
  }, 250).unref();
  return () => {
    clearTimeout(timer);
    clearInterval(poll);
    rt?.io.off('connection', onConnection as never);
  };
}
