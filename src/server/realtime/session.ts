import type { Socket } from 'socket.io';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { safeEqual } from '../domains/auth/service.js';
import { SESSION_COOKIE } from '../http/auth.js';
import { AppError, notAuthorised } from '../http/errors.js';
import type { ClientToServerEvents, ServerToClientEvents, SocketData } from './events.js';

/** A connected socket with Palaver's event maps. */
export type LiveSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** The member behind a handshake, or `invalid` when the session it names has ended. */
export type HandshakeResult = { uid: number; sessionHash: string } | { invalid: true };

function sessionCookie(app: FastifyInstance, socket: Pick<LiveSocket, 'handshake'>): string | undefined {
  const header = socket.handshake.headers.cookie;
  return header ? app.parseCookie(header)[SESSION_COOKIE] : undefined;
}

/**
 * Checks a handshake: only a member's session cookie with its own CSRF token in the `_csrf`
 * query connects. A session that has ended (with a token that was right for it) connects
 * only to be told `event:invalid_session`, so the client can say why.
 */
export async function checkHandshake(app: FastifyInstance, ctx: AppContext, socket: Pick<LiveSocket, 'handshake'>): Promise<HandshakeResult> {
  const sid = sessionCookie(app, socket);
  if (!sid) throw notAuthorised();
  const sent = socket.handshake.query._csrf;
  if (typeof sent !== 'string' || !safeEqual(sent, ctx.auth.csrfFor('session', sid))) throw new AppError('error:invalid-csrf', 403);
  const settings = await ctx.settings.get();
  const session = await ctx.auth.resolveSessionWithUser(sid, settings.sessionDays);
  if (!session) return { invalid: true };
  await ctx.users.assertNotBanned(session.user);
  return { uid: session.uid, sessionHash: session.idHash };
}

/** Before each call: the socket's session must still be the one it connected with. */
export async function revalidate(app: FastifyInstance, ctx: AppContext, socket: LiveSocket): Promise<void> {
  const sid = sessionCookie(app, socket);
  const settings = await ctx.settings.get();
  const session = sid ? await ctx.auth.resolveSession(sid, settings.sessionDays) : null;
  if (!session || session.uid !== socket.data.uid) throw new AppError('error:revalidate-failure', 401);
}

/** The handshake refusal a client sees as `connect_error`: NodeBB's text, with key and status as data. */
export function connectError(err: unknown): Error & { data?: unknown } {
  const appErr = err instanceof AppError ? err : new AppError('error:api.500', 500);
  return Object.assign(new Error(appErr.message), { data: { key: appErr.key, params: appErr.params, status: appErr.status } });
}
