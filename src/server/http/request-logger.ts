import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

/**
 * A request's logger (`req.log`), made into pino's child logger with the request's id only
 * when something logs through it. Fastify makes that child for every request; with request
 * logging off (every level but debug and trace) nearly all of them log nothing, and making
 * them was some 2% of a member's page read's allocation, which on PostgreSQL lived on through
 * the read's wait for the database into the old generation (docs/memory.md).
 */
class RequestLogger {
  #child: FastifyBaseLogger | null = null;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get #real(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }

  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#real.level = level;
  }

  fatal(...args: Parameters<FastifyBaseLogger['fatal']>): void {
    this.#real.fatal(...args);
  }
  error(...args: Parameters<FastifyBaseLogger['error']>): void {
    this.#real.error(...args);
  }
  warn(...args: Parameters<FastifyBaseLogger['warn']>): void {
    this.#real.warn(...args);
  }
  info(...args: Parameters<FastifyBaseLogger['info']>): void {
    this.#real.info(...args);
  }
  debug(...args: Parameters<FastifyBaseLogger['debug']>): void {
    this.#real.debug(...args);
  }
  trace(...args: Parameters<FastifyBaseLogger['trace']>): void {
    this.#real.trace(...args);
  }
  silent(...args: Parameters<FastifyBaseLogger['silent']>): void {
    this.#real.silent(...args);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger is a RequestLogger. */
export function requestLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
