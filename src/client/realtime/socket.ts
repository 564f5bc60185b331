import { io, type Socket } from 'socket.io-client';
import { SOCKET_RECONNECTION_DELAY_MS } from '../../shared/constants';
import type { Runtime } from '../app/runtime';
import type { AlertInput } from '../state/alerts';
import { errorText, translate } from '../i18n';
import { isAdminPath, pagePath } from '../navigation/url';
import { templateName } from '../pages/registry';
import { showOwnStatus, statusOf } from '../components/UserMenu';
import { receiveCount, receiveLive, refreshCount } from '../components/notifications/actions';
import { watchTitleCount } from '../navigation/title-count';
import { isForumUpdated, nextIndicator, roomFor, type IndicatorEvent } from './indicator';
import { startChatLive } from './chats';
import { setSocketCaller } from '../components/composer/socket-call';
import { createEmit, isRevalidateFailure, socketOptions } from './connection';
import { formatAbsolute } from '../util/timeago';

/** Live events forwarded to the runtime's bus for pages to apply. */
export const LIVE_CONTENT_EVENTS = [
  'event:new_post', 'event:post_edited', 'event:post_deleted', 'event:post_restored', 'event:post_purged', 'event:new_topic',
  // Votes: the voter's own sockets hear posts.*, the topic's readers event:voted.
  'posts.upvote', 'posts.downvote', 'posts.unvote', 'event:voted',
] as const;

/**
 * The live connection for logged-in members (spec §4, §6, §7): reconnection with backoff,
 * rooms per page, session checks, ban events, live reload and the connection indicator.
 */
export function startSocket(rt: Runtime): Socket {
  const c = rt.config;
  const t = (key: string, ...args: string[]) => translate(rt.i18n, key, args);
  const socket = io(c.websocketAddress || undefined, socketOptions(c));
  const uid = rt.page.get().page.loggedInUser?.uid ?? 0;
  let hostname = '';
  let room = '';
  let everConnected = false;
  // Set when the session ended on purpose (ban, logout, invalid session): no reconnecting then.
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const indicate = (e: IndicatorEvent['type']) => rt.connection.set((s) => nextIndicator(s, { type: e, at: Date.now() } as IndicatorEvent));
  const ticker = setInterval(() => indicate('tick'), 500);
  const emit = createEmit(socket);
  // The composer's calls (mentions, tag suggestions) go through this socket.
  setSocketCaller(rt, emit);
  // A revalidation failure reconnects (createEmit) instead of alerting (spec §9).
  const errorAlert = (err: Error) => {
    if (!isRevalidateFailure(err)) rt.alert({ type: 'danger', title: t('global:alert.error'), message: errorText(rt.i18n, err) });
  };
  const goHome = () => {
    location.href = `${c.relative_path}/`;
  };

  // The page room, also shown on <html data-socket-room> (styling hooks and browser tests).
  const setRoom = (name: string) => {
    room = name;
    document.documentElement.setAttribute('data-socket-room', name);
  };
  const enter = (next: string) => {
    if (next === room) return;
    const previous = room;
    setRoom(next);
    if (!next) {
      if (c.maintenanceMode || !previous) return;
      emit('meta.rooms.leaveCurrent').catch((err: Error) => {
        setRoom(previous);
        errorAlert(err);
      });
      return;
    }
    emit('meta.rooms.enter', { enter: next }).catch((err: Error) => {
      setRoom(previous);
      errorAlert(err);
    });
  };
  const enterPageRoom = () => {
    const { page } = rt.page.get();
    if (uid > 0) enter(roomFor(templateName(page), page as { tid?: number; cid?: number }));
  };
  const unsubscribe = rt.page.subscribe(enterPageRoom);

  // Exposed on <html> for styling hooks and browser tests.
  const mark = (state: string) => document.documentElement.setAttribute('data-socket', state);
  socket.on('connect', () => {
    mark('connected');
    indicate('connect');
    // The unread count: read now, and again after a reconnection (events were missed).
    void refreshCount(rt);
    if (!everConnected) {
      everConnected = true;
      enterPageRoom();
      return;
    }
    // Reconnected: rooms were lost with the old connection.
    const current = room;
    setRoom('');
    enter(current);
    emit('meta.reconnected')
      .then((reply) => {
        if (isForumUpdated({ buster: c['cache-buster'], hostname }, reply as { 'cache-buster'?: string; hostname?: string })) {
          rt.alert({ alert_id: 'forum_updated', type: 'warning', title: t('global:updated.title'), message: t('global:updated.message'), timeout: 0, clickfn: () => location.reload() });
        }
      })
      .catch(() => undefined);
  });
  socket.on('disconnect', (reason) => {
    mark('disconnected');
    indicate('disconnect');
    // socket.io does not retry after the server closed the socket itself, which is what a
    // server does on shutdown or restart: retry here, then the manager's backoff takes over.
    if (reason === 'io server disconnect' && !stopped) {
      clearTimeout(retry);
      retry = setTimeout(() => !stopped && !socket.connected && socket.connect(), c.reconnectionDelay || SOCKET_RECONNECTION_DELAY_MS);
    }
  });
  socket.io.on('reconnect_failed', () => indicate('reconnect-failed'));
  socket.on('setHostname', (name: string) => {
    hostname = name;
  });

  const stop = () => {
    stopped = true;
    clearTimeout(retry);
  };
  const sessionLost = (message: string) => {
    stop();
    socket.disconnect();
    rt.dialog.set({ title: t('error:invalid-session'), message, closable: false, button: 'global:reload', onConfirm: () => location.reload() });
  };
  socket.on('checkSession', (serverUid: number) => {
    if (Number(serverUid) !== uid) sessionLost(t('error:session-mismatch-text'));
  });
  socket.on('event:invalid_session', () => sessionLost(t('error:invalid-session-text')));
  // A handshake refused for want of a session (its cookie went with the ended session): lost too.
  socket.on('connect_error', (err: Error & { data?: { key?: string } }) => {
    if (everConnected && err.data?.key === 'error:not-logged-in') sessionLost(t('error:invalid-session-text'));
    // Refused for a CSRF token of another session: the cookie is now another sign-in's (another
    // tab signed in again, perhaps as someone else), so the page's session no longer matches.
    // Without this the page would retry for ever with the old token, silently offline.
    else if (everConnected && err.data?.key === 'error:invalid-csrf') sessionLost(t('error:session-mismatch-text'));
  });
  socket.on('event:logout', () => {
    stop();
    goHome();
  });
  socket.on('event:banned', (data: { until?: number; reason?: string } | null) => {
    stop();
    const reason = data?.reason || '';
    const message = data?.until
      ? t('error:user-banned-reason-until', formatAbsolute(data.until, c.userLang), reason)
      : reason
        ? t('error:user-banned-reason', reason)
        : t('error:user-banned');
    rt.dialog.set({ title: t('error:user-banned'), message, closable: false, button: 'global:go-home', onConfirm: goHome });
  });
  socket.on('event:unbanned', () => {
    rt.dialog.set({ title: t('global:alert.unbanned'), message: t('global:alert.unbanned.message'), closable: true, button: 'global:go-home', onConfirm: goHome });
  });
  socket.on('event:muted', (data: { until?: number; reason?: string } | null) => {
    const reason = data?.reason || '';
    const message = data?.until ? t('global:alert.muted-until', new Date(data.until).toLocaleString(c.userLang), reason) : t('global:alert.muted-message', reason);
    rt.alert({ type: 'warning', title: t('global:alert.muted'), message });
  });
  socket.on('event:unmuted', () => rt.alert({ type: 'success', title: t('global:alert.unmuted'), message: t('global:alert.unmuted.message'), timeout: 10_000 }));
  socket.on('event:alert', (data: AlertInput) => rt.alert(data));
  // The member's status chosen in another tab or device.
  socket.on('event:user_status_change', (data: { uid?: number; status?: string } | null) => {
    if (data && Number(data.uid) === uid && data.status) showOwnStatus(rt, statusOf(data.status));
  });
  // Content changes go to the pages that show them (topic pages subscribe while mounted).
  for (const event of LIVE_CONTENT_EVENTS) socket.on(event, (data: unknown) => rt.live.emit(event, data));
  // Notifications reach every open tab of the member (the server sends to the member's room).
  socket.on('event:new_notification', (data: unknown) => {
    receiveLive(rt, data);
    rt.live.emit('event:new_notification', data);
  });
  socket.on('event:notifications.updateCount', (data: unknown) => receiveCount(rt, data));
  const unwatchTitle = watchTitleCount(rt);
  // Chat rooms, messages, typing and the unread chat count.
  startChatLive(rt, socket);
  socket.on('event:deprecated_call', (data: { eventName?: string; replacement?: string }) => {
    console.warn(`[socket] ${data?.eventName ?? 'call'} is deprecated${data?.replacement ? `, use ${data.replacement}` : ''}`);
  });
  socket.on('event:livereload', () => {
    const admin = rt.page.get().page.loggedInUser?.isAdmin;
    if (admin && !isAdminPath(pagePath(new URL(location.href), c.relative_path))) location.reload();
  });

  rt.reconnect = () => {
    if (socket.connected || stopped) return Promise.resolve(false);
    const back = new Promise<boolean>((resolve) => socket.once('connect', () => resolve(true)));
    socket.connect();
    return back;
  };
  // A failed connection retries on window focus (spec §2).
  window.addEventListener('focus', () => rt.connection.get().view === 'failed' && socket.connect());
  window.addEventListener('pagehide', () => {
    clearInterval(ticker);
    unsubscribe();
    unwatchTitle();
  });
  return socket;
}
