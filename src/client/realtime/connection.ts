import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';
import {
  SOCKET_CONNECT_TIMEOUT_MS, SOCKET_RANDOMIZATION_FACTOR, SOCKET_RECONNECTION_DELAY_MAX_MS, SOCKET_RECONNECTION_DELAY_MS,
} from '../../shared/constants';
import type { ClientConfig } from '../../shared/types';

/** The part of the client config the live connection is made from. */
export type SocketConfig = Pick<ClientConfig, 'relative_path' | 'csrf_token' | 'socketioTransports' | 'maxReconnectionAttempts' | 'reconnectionDelay'>;

/**
 * socket.io's options for the forum (spec §7, §9): connect timeout 20 s; reconnection after
 * the forum's `reconnectionDelay` (1000 ms when unset) growing up to 5000 ms with a jitter of
 * 0.5; the forum's `maxReconnectionAttempts` attempts, 0 meaning no limit (the default).
 */
export function socketOptions(c: SocketConfig): Partial<ManagerOptions & SocketOptions> {
  return {
    path: `${c.relative_path}/socket.io`,
    query: { _csrf: c.csrf_token },
    transports: (c.socketioTransports?.length ? c.socketioTransports : ['websocket', 'polling']) as ('websocket' | 'polling')[],
    reconnectionAttempts: c.maxReconnectionAttempts > 0 ? c.maxReconnectionAttempts : Infinity,
    reconnectionDelay: c.reconnectionDelay > 0 ? c.reconnectionDelay : SOCKET_RECONNECTION_DELAY_MS,
    reconnectionDelayMax: Math.max(SOCKET_RECONNECTION_DELAY_MAX_MS, c.reconnectionDelay || 0),
    randomizationFactor: SOCKET_RANDOMIZATION_FACTOR,
    timeout: SOCKET_CONNECT_TIMEOUT_MS,
    withCredentials: true,
    // Websocket first, then long-polling when it cannot connect (spec §7).
    tryAllTransports: true,
  };
}

/** The error key the server answers a call with once the socket's session is no longer valid. */
const REVALIDATE_FAILURE = 'error:revalidate-failure';

/** A call's error as the client sees it: the server's message, with its key and params. */
export type CallError = Error & { key?: string; params?: (string | number)[]; dates?: number[] };

/** True for the session revalidation failure, which reconnects instead of showing an alert (spec §9). */
export function isRevalidateFailure(err: unknown): boolean {
  const e = err as { key?: string; message?: string } | null;
  return e?.key === REVALIDATE_FAILURE || e?.message === `[[${REVALIDATE_FAILURE}]]`;
}

type Callback = (err: CallError | null, data?: unknown) => void;
type Ack = (err: { message?: string; key?: string; params?: (string | number)[]; dates?: number[] } | null, data?: unknown) => void;

/**
 * A call: `emit(event, ...args)` returns a promise of the answer; with a function as the last
 * argument that function gets the answer instead, error first (spec §7 "Emit accepts a
 * callback or returns a promise"), and the promise only tells that the answer came.
 */
export type Emit = (event: string, ...args: unknown[]) => Promise<unknown>;

/**
 * Makes the emit of a socket. A call answered with the revalidation failure disconnects the
 * socket and connects it again (the new handshake reads the session afresh) instead of being
 * shown: the error still reaches the caller, and isRevalidateFailure tells alerts to stay quiet.
 */
export function createEmit(socket: Socket): Emit {
  let reconnecting = false;
  const revalidate = () => {
    if (reconnecting || !socket.connected) return;
    reconnecting = true;
    socket.once('connect', () => {
      reconnecting = false;
    });
    socket.disconnect();
    socket.connect();
  };
  return (event, ...args) => {
    const callback = typeof args.at(-1) === 'function' ? (args.pop() as Callback) : null;
    const answer = new Promise<unknown>((resolve, reject) => {
      socket.emit(event, ...args, ((err, data) => {
        if (!err) return resolve(data);
        const error: CallError = Object.assign(new Error(err.message ?? String(err)), { key: err.key, params: err.params, dates: err.dates });
        if (isRevalidateFailure(error)) revalidate();
        reject(error);
      }) as Ack);
    });
    if (!callback) return answer;
    return answer.then(
      (data) => callback(null, data),
      (err: CallError) => callback(err),
    );
  };
}
