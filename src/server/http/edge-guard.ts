import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, notFound } from './errors.js';

/**
 * True when any value inside (itself, array items, object keys and values) passes `bad`.
 * Iterative, because a JSON body may nest 10,000 levels deep.
 */
function holdsAny(value: unknown, bad: (v: unknown) => boolean): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (bad(v)) return true;
    if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        if (bad(k)) return true;
        stack.push(item);
      }
    }
  }
  return false;
}

/** True when a string, or any key or string inside arrays and objects, holds NUL. */
export function holdsNul(value: unknown): boolean {
  return holdsAny(value, (v) => typeof v === 'string' && v.includes('\u0000'));
}

/** True when a number inside is ±Infinity or NaN. */
export function holdsNonFinite(value: unknown): boolean {
  return holdsAny(value, (v) => typeof v === 'number' && !Number.isFinite(v));
}

/**
 * preValidation hook: PostgreSQL refuses NUL in text, so a request carrying one in its path,
 * query or body is refused here (400 error:invalid-data; a page answers 404) before any
 * service reads it.
 */
export async function refuseNul(req: FastifyRequest): Promise<void> {
  if (holdsNul(req.params) || holdsNul(req.query) || holdsNul(req.body)) refuse(req);
}

/**
 * preHandler hook, after validation: ajv coerces the text "Infinity" (or "1e309") in a path
 * or query to Infinity and then skips `maximum` for it, so a bounded integer schema lets it
 * through; PostgreSQL refuses it. Refused here, whatever the schema says.
 */
export async function refuseNonFinite(req: FastifyRequest): Promise<void> {
  if (holdsNonFinite(req.params) || holdsNonFinite(req.query) || holdsNonFinite(req.body)) refuse(req);
}

// Code units, not code points (no u flag): a high surrogate without its low one, or the reverse.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * Replaces lone surrogates with U+FFFD in every string of a parsed value, in place (keys too).
 * PostgreSQL's driver already sends them so; better-sqlite3 writes them as bytes that are not
 * UTF-8 and read back as three U+FFFD, so both databases now store the same text.
 */
export function wellFormed<T>(value: T): T {
  const fix = (v: string) => (LONE_SURROGATE.test(v) ? v.replace(LONE_SURROGATES, '\ufffd') : v);
  if (typeof value === 'string') return fix(value) as T;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    for (const [k, item] of Object.entries(v)) {
      const key = fix(k);
      const fixed = typeof item === 'string' ? fix(item) : item;
      if (key !== k) delete (v as Record<string, unknown>)[k];
      if (key !== k || fixed !== item) (v as Record<string, unknown>)[key] = fixed;
      if (typeof item === 'object') stack.push(item);
    }
  }
  return value;
}

/** preValidation hook: lone surrogates in params, query and body become U+FFFD (see wellFormed). */
export async function replaceLoneSurrogates(req: FastifyRequest): Promise<void> {
  wellFormed(req.params);
  wellFormed(req.query);
  req.body = wellFormed(req.body);
}

/** The deepest nesting a body may have; no route needs more than a few levels. */
export const MAX_BODY_DEPTH = 32;

/** True when arrays and objects nest deeper than `max` levels (iterative: bodies may nest 10,000 deep). */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const item of Object.values(v)) stack.push([item, depth + 1]);
  }
  return false;
}

/**
 * preValidation hook: a body nested deeper than MAX_BODY_DEPTH is refused (400). JSON.parse
 * takes 10,000 levels, but anything recursive after it (JSON.stringify of an echo, a
 * serializer, Number() of an array) overflows the stack and answers 500.
 */
export async function refuseDeep(req: FastifyRequest): Promise<void> {
  if (deeperThan(req.body, MAX_BODY_DEPTH)) refuse(req);
}

function refuse(req: FastifyRequest): never {
  throw req.routeOptions.config?.page ? notFound() : badRequest('error:invalid-data');
}

/** Adds the guards to a scope; call right after authentication is registered. */
export function registerEdgeGuards(app: FastifyInstance): void {
  app.addHook('preValidation', refuseDeep);
  app.addHook('preValidation', refuseNul);
  app.addHook('preValidation', replaceLoneSurrogates);
  app.addHook('preHandler', refuseNonFinite);
}
