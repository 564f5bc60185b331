import { Compile } from 'typebox/compile';
import type { Static, TSchema } from 'typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { Viewer } from '../domains/privileges/service.js';
import { AppError, badRequest } from '../http/errors.js';
import { heldByMaintenance, maintenanceError } from '../http/maintenance.js';
import type { Viewers } from './audience.js';
import type { Ack, CallError, CallName, CallResults } from './events.js';
import { revalidate, type LiveSocket } from './session.js';

/** What a call handler gets: the socket, its member, and the payload that passed the schema. */
export interface Call<P> {
  socket: LiveSocket;
  viewer: Viewer;
  payload: P;
}

interface Registered {
  check: ReturnType<typeof Compile>;
  run: (call: Call<unknown>) => Promise<unknown>;
  /** The REST route or call that replaces a deprecated call. */
  replacement?: string;
}

/** Any thrown error as a typed one; an unexpected one is logged and becomes a 500. */
export function asAppError(err: unknown, log: FastifyBaseLogger): AppError {
  if (err instanceof AppError) return err;
  log.error({ err }, 'socket call failed');
  return new AppError('error:api.500', 500);
}

/** The error as a callback gets it. */
export function callError(err: AppError): CallError {
  return { message: err.message, key: err.key, ...(err.params.length ? { params: err.params } : {}), ...(err.dates.length ? { dates: err.dates } : {}) };
}

/**
 * The socket calls (spec §7), NodeBB-style: `emit(name, payload?, callback)`. Each payload
 * has a TypeBox schema (rule 6); the session is re-checked before each call; a name nobody
 * registered is answered with error:invalid-event rather than silence.
 */
export class Calls {
  private handlers = new Map<string, Registered>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly ctx: AppContext,
    private readonly viewers: Viewers,
  ) {}

  /** Registers a call; the handler's answer goes to the callback. */
  add<K extends CallName, S extends TSchema>(name: K, schema: S, run: (call: Call<Static<S>>) => Promise<CallResults[K]>, replacement?: string): void {
    this.handlers.set(name, { check: Compile(schema), run: run as Registered['run'], replacement });
  }

  /** Wires every registered call, and the unknown-call answer, onto a new socket. */
  attach(socket: LiveSocket): void {
    socket.use(([event, ...args], next) => {
      if (this.handlers.has(event)) return next();
      const ack = args.at(-1);
      if (typeof ack === 'function') (ack as Ack)(callError(badRequest('error:invalid-event', event)));
    });
    for (const [name, handler] of this.handlers) {
      socket.on(name as CallName, (...args: unknown[]) => void this.dispatch(socket, name, handler, args));
    }
  }

  private async dispatch(socket: LiveSocket, name: string, handler: Registered, args: unknown[]): Promise<void> {
    const ack = (typeof args.at(-1) === 'function' ? args.pop() : () => undefined) as Ack;
    try {
      await revalidate(this.app, this.ctx, socket);
      const payload = args[0];
      if (!handler.check.Check(payload)) throw badRequest('error:invalid-data');
      if (handler.replacement) socket.emit('event:deprecated_call', { eventName: name, replacement: handler.replacement });
      const viewer = await this.viewers.get(socket.data.uid);
      // In maintenance only administrators and the exempt groups may call (as over HTTP).
      if (heldByMaintenance(await this.ctx.settings.get(), viewer)) throw maintenanceError();
      const result = await handler.run({ socket, viewer, payload });
      ack(null, result);
    } catch (err) {
      ack(callError(asAppError(err, this.ctx.log)));
    }
  }
}
