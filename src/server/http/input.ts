import { Type, type TNumberOptions, type TStringOptions } from 'typebox';

/**
 * Shared bounds for request schemas (issue 17, defect 2). Ids, counts and page numbers land
 * in PostgreSQL `integer` (int4) columns and timestamps in `bigint`; a value past those
 * ranges makes PostgreSQL refuse the query (a 500), so the schema refuses it first (a 400).
 */

/** The largest value of a PostgreSQL `integer` column (and of SQLite's identity ids we hand out). */
export const INT4_MAX = 2147483647;
/**
 * The largest millisecond timestamp we accept: the last instant a JS Date can hold (below
 * Number.MAX_SAFE_INTEGER, so exact in a bigint, and `toISOString()` never throws on it).
 */
export const TIMESTAMP_MAX = 8_640_000_000_000_000;

/** A row id: an integer from 1 to 2^31-1. */
export const Id = (opts: TNumberOptions = {}) => Type.Integer({ minimum: 1, maximum: INT4_MAX, ...opts });

/** A reference that may be 0 for "none" (parentCid, toPid): 0 to 2^31-1. */
export const IdOrZero = (opts: TNumberOptions = {}) => Type.Integer({ minimum: 0, maximum: INT4_MAX, ...opts });

/** Any integer that fits an int4 column (order, a vote's delta); narrower bounds may be given. */
export const Int = (opts: TNumberOptions = {}) => Type.Integer({ minimum: -INT4_MAX - 1, maximum: INT4_MAX, ...opts });

/** A finite number within an int4's range, for fields that accept fractions. */
export const Num = (opts: TNumberOptions = {}) => Type.Number({ minimum: -INT4_MAX - 1, maximum: INT4_MAX, ...opts });

/** A millisecond timestamp (or 0 for "never"): 0 to the last instant a Date can hold. */
export const Timestamp = (opts: TNumberOptions = {}) => Type.Integer({ minimum: 0, maximum: TIMESTAMP_MAX, ...opts });

/** ajv pattern: no NUL anywhere (PostgreSQL text cannot hold one). */
export const NO_NUL = '^[^\\u0000]*$';

/** A string without NUL. The edge guard refuses NUL everywhere; this documents it in the schema too. */
export const Str = (opts: TStringOptions = {}) => Type.String({ pattern: NO_NUL, ...opts });

/**
 * A numeric id taken from a page path ('/topic/:tid'): the number, or null when the segment
 * is not a plain decimal within 1..2^31-1 (the caller answers 404 then).
 */
export function pathId(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d{1,10}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= INT4_MAX ? n : null;
}
