import { SHELL_ONLY_FIELDS } from '../../shared/ssr.js';

/**
 * JSON safe to embed inside a <script> element: no `<` (so no `</script>` or `<!--`), and the
 * two line separators older parsers end a line at. Plain string replaces, not a regular
 * expression with a callback: a topic page's JSON holds a `<` per tag of every post's HTML,
 * hundreds of calls per page.
 */
export function scriptSafe(json: string): string {
  json = json.replaceAll('<', '\\u003c');
  if (json.includes('\u2028')) json = json.replaceAll('\u2028', '\\u2028');
  if (json.includes('\u2029')) json = json.replaceAll('\u2029', '\\u2029');
  return json;
}

/** A value's JSON made safe to embed in a <script> element (see scriptSafe). */
export function scriptJson(value: unknown): string {
  return scriptSafe(JSON.stringify(value));
}

/** The encoded JSON of objects that never change, by object: plain, and safe for a <script>. */
const plainBytes = new WeakMap<object, Buffer>();
const scriptBytes = new WeakMap<object, Buffer>();

const isFrozenObject = (v: unknown): v is object => typeof v === 'object' && v !== null && Object.isFrozen(v);

/**
 * A page's JSON as pieces of bytes, where each frozen object or array in it (a value of the
 * page, or an element of an array value) is encoded once per object and reused. A frozen object is one the
 * server shares between readers and never changes (a topic page's post views, see
 * posts/presenter.ts overlayPosts; the category tree): a member's topic page spent a tenth of
 * its CPU turning the same ten post views into JSON for every reader. The bytes are those of
 * `JSON.stringify(page)` (made safe for a <script> element with `script`).
 */
export function pageJsonPieces(page: object, script = false): Buffer[] {
  return build(page, script, false).pieces;
}

/**
 * pageJsonPieces, with the page's key for the server render's frame cache (the client's
 * ssr/frames.ts): the same JSON text, each frozen object by a stand-in of its own (a NUL and a
 * number no other object has), without the fields only the shell's bars and the head read
 * (SHELL_ONLY_FIELDS: the member, their counts, their feed token in the head's links; the render
 * keys by the member's roles and settings only). Made from the text the page data needs anyway,
 * so the render does not stringify the page a second time.
 */
export function pageJsonAndKey(page: object, script = false): { pieces: Buffer[]; key: string } {
  return build(page, script, true) as { pieces: Buffer[]; key: string };
}

const ids = new WeakMap<object, number>();
let lastId = 0;
function identity(value: object): string {
  let id = ids.get(value);
  if (id === undefined) ids.set(value, (id = ++lastId));
  return `\u0000${id}`;
}

/** Pages (and the loader content they are made from) whose first fields are those of a frozen shared object. */
const prefixes = new WeakMap<object, object>();
/** A frozen prefix's keys and the JSON of its fields without braces, plain and script-safe. */
const prefixParts = new WeakMap<object, { keys: string[]; plain?: Buffer; script?: Buffer }>();

/**
 * Says that `page` begins with the fields of `shared`, a frozen object every reader shares (a
 * topic's fields, a category's view), copied in first: the page's JSON then takes those
 * fields' text, made once per object, instead of stringifying them for each reader. Checked
 * when used: keys in the same order and the very same values, else the page is written as usual.
 */
export function beginsWith<T extends object>(page: T, shared: object): T {
  if (Object.isFrozen(shared)) prefixes.set(page, shared);
  return page;
}

/** Carries beginsWith from a loader's content to the page made from it (http/pages.ts buildPage). */
export function carryBeginning(from: object, to: object): void {
  const shared = prefixes.get(from);
  if (shared) prefixes.set(to, shared);
}

/** The number of the page's first `names` that are `shared`'s fields, in order and the same values; 0 when they are not. */
function sharedBeginning(page: Record<string, unknown>, names: string[], shared: object | undefined): number {
  if (!shared) return 0;
  let parts = prefixParts.get(shared);
  if (!parts) prefixParts.set(shared, (parts = { keys: Object.keys(shared) }));
  const { keys } = parts;
  if (keys.length === 0 || keys.length > names.length) return 0;
  for (let i = 0; i < keys.length; i++) {
    const name = names[i]!;
    if (name !== keys[i] || page[name] !== (shared as Record<string, unknown>)[name] || SHELL_ONLY_FIELDS.has(name)) return 0;
  }
  return keys.length;
}

function build(page: object, script: boolean, keyed: boolean): { pieces: Buffer[]; key?: string } {
  const memo = script ? scriptBytes : plainBytes;
  const encode = (json: string) => Buffer.from(script ? scriptSafe(json) : json);
  const pieces: Buffer[] = [];
  let text = '{';
  let key = '';
  let first = true;
  const cached = (v: object) => {
    let bytes = memo.get(v);
    if (!bytes) memo.set(v, (bytes = encode(JSON.stringify(v))));
    if (text) pieces.push(encode(text));
    pieces.push(bytes);
    text = '';
  };
  // The page's names, and its values looked up by name: Object.entries made a pair for each of
  // some sixty fields on every answer, a twentieth of a member's topic read's allocation.
  const fields = page as Record<string, unknown>;
  const names = Object.keys(fields);
  const shared = prefixes.get(page);
  const skip = sharedBeginning(fields, names, shared);
  if (skip > 0) {
    // The shared fields' text, made once per object (its JSON without the braces).
    const parts = prefixParts.get(shared!)!;
    let bytes = script ? parts.script : parts.plain;
    if (!bytes) {
      const body = JSON.stringify(shared).slice(1, -1);
      bytes = encode(body);
      if (script) parts.script = bytes;
      else parts.plain = bytes;
    }
    if (bytes.length) {
      pieces.push(encode(text));
      pieces.push(bytes);
      text = '';
      first = false;
    }
    if (keyed) key += identity(shared!);
  }
  // The page's other values, in order, are stringified together, a run at a time: one call
  // instead of one per value (a topic page has some sixty). Null prototype: a "__proto__" key
  // is then a value like any other, as JSON.stringify(page) treats it.
  let run: Record<string, unknown> | null = null;
  const endRun = () => {
    if (!run) return;
    const json = JSON.stringify(run);
    run = null;
    if (json.length === 2) return;
    const body = `${first ? '' : ','}${json.slice(1, -1)}`;
    text += body;
    if (keyed) key += body;
    first = false;
  };
  for (let e = skip; e < names.length; e++) {
    const name = names[e]!;
    const value = fields[name];
    const frozen = isFrozenObject(value);
    const inKey = keyed && !SHELL_ONLY_FIELDS.has(name);
    const listOfFrozen = !frozen && Array.isArray(value) && value.some(isFrozenObject);
    if (!frozen && !listOfFrozen && (inKey || !keyed)) {
      (run ??= Object.create(null) as Record<string, unknown>)[name] = value;
      continue;
    }
    endRun();
    // (What JSON.stringify leaves out of an object.)
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    const head = `${first ? '' : ','}${JSON.stringify(name)}:`;
    text += head;
    first = false;
    if (inKey) key += head;
    if (!frozen && !listOfFrozen) {
      // A field only the shell reads: in the page data, not in the key.
      text += JSON.stringify(value);
    } else if (frozen) {
      cached(value);
      if (inKey) key += identity(value);
    } else {
      text += '[';
      if (inKey) key += '[';
      (value as unknown[]).forEach((item, i) => {
        if (i) text += ',';
        if (inKey && i) key += ',';
        if (isFrozenObject(item)) {
          cached(item);
          if (inKey) key += identity(item);
        } else {
          const json = JSON.stringify(item) ?? 'null';
          text += json;
          if (inKey) key += json;
        }
      });
      text += ']';
      if (inKey) key += ']';
    }
  }
  endRun();
  pieces.push(encode(`${text}}`));
  return keyed ? { pieces, key } : { pieces };
}

/** A value's JSON as bytes (safe for a <script> element with `script`), encoded once per object when the value is frozen. */
export function jsonBytes(value: object, script = false): Buffer {
  const memo = script ? scriptBytes : plainBytes;
  const frozen = isFrozenObject(value);
  let bytes = frozen ? memo.get(value) : undefined;
  if (!bytes) {
    const json = JSON.stringify(value);
    bytes = Buffer.from(script ? scriptSafe(json) : json);
    if (frozen) memo.set(value, bytes);
  }
  return bytes;
}
