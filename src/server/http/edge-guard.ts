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

/** True when a number inside is ±Infinity or NaN. */
export function holdsNonFinite(value: unknown): boolean {
  return holdsAny(value, (v) => typeof v === 'number' && !Number.isFinite(v));
}

/**
 * preHandler hook, after validation: ajv coerces the text "Infinity" (or "1e309") in a path
 * or query to Infinity and then skips `maximum` for it, so a bounded integer schema lets it
 * through; PostgreSQL refuses it. Refused here, whatever the schema says.
 */
export function refuseNonFinite(req: FastifyRequest): void {
  if (holdsNonFinite(req.params) || holdsNonFinite(req.query) || holdsNonFinite(req.body)) refuse(req);
}

// Code units, not code points (no u flag): a high surrogate without its low one, or the reverse.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

const fixSurrogates = (v: string) => (LONE_SURROGATE.test(v) ? v.replace(LONE_SURROGATES, '\ufffd') : v);

/** The deepest nesting a body may have; no route needs more than a few levels. */
export const MAX_BODY_DEPTH = 32;

/**
 * One walk over a parsed value (iterative: a JSON body may nest 10,000 levels deep). True when
 * it must be refused: it nests deeper than MAX_BODY_DEPTH (JSON.parse takes 10,000 levels, but
 * anything recursive after it, such as JSON.stringify of an echo, a serialiser or Number() of
 * an array, overflows the stack and answers 500), or a string or key holds NUL (PostgreSQL
 * refuses it in text). On the way, lone surrogates in strings and keys become U+FFFD in place:
 * PostgreSQL's driver already sends them so, while better-sqlite3 writes them as bytes that are
 * not UTF-8 and read back as three U+FFFD, so both databases now store the same text.
 */
export function mustRefuse(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) return true;
    for (const [k, item] of Object.entries(v)) {
      if (k.includes('\u0000') || (typeof item === 'string' && item.includes('\u0000'))) return true;
      const key = fixSurrogates(k);
      const fixed = typeof item === 'string' ? fixSurrogates(item) : item;
      if (key !== k) delete (v as Record<string, unknown>)[k];
      if (key !== k || fixed !== item) (v as Record<string, unknown>)[key] = fixed;
      if (typeof item === 'object') stack.push([item, depth + 1]);
    }
  }
  return false;
}

/**
 * preValidation hook: refuses params, query or a body that nest too deep or hold NUL (400
 * error:invalid-data; a page answers 404) before any service reads them, and makes their
 * strings well formed (see mustRefuse). One walk per value.
 */
export function guardInput(req: FastifyRequest): void {
  if (typeof req.body === 'string') {
    if (req.body.includes('\u0000')) refuse(req);
    req.body = fixSurrogates(req.body);
  }
  if (mustRefuse(req.params) || mustRefuse(req.query) || mustRefuse(req.body)) refuse(req);
}

function refuse(req: FastifyRequest): never {
  throw req.routeOptions.config?.page ? notFound() : badRequest('error:invalid-data');
}

/** Adds the guards to a scope; call right after authentication is registered. */
export function registerEdgeGuards(app: FastifyInstance): void {
  // Synchronous checks as callback-style hooks: no promise per request.
  app.addHook('preValidation', (req, _reply, done) => {
    try {
      guardInput(req);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
  app.addHook('preHandler', (req, _reply, done) => {
    try {
      refuseNonFinite(req);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
}
