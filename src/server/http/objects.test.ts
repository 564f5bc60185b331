import { describe, expect, it } from 'vitest';
import { copyWithout, withFields } from './objects.js';

describe('copies without the spread', () => {
  it('withFields gives the fields and order of { ...base, ...extra }, extra winning', () => {
    const base = { a: 1, b: 2, c: 3 };
    const extra = { b: 20, d: 4 };
    const copy = withFields(base, extra);
    expect(copy).toEqual({ ...base, ...extra });
    expect(Object.keys(copy)).toEqual(Object.keys({ ...base, ...extra }));
    expect(copy).not.toBe(base);
    expect(base).toEqual({ a: 1, b: 2, c: 3 });
    // A frozen base gives a copy that can change.
    const frozen = withFields(Object.freeze({ x: 1 }), { y: 2 });
    (frozen as { x: number }).x = 3;
    expect(frozen).toEqual({ x: 3, y: 2 });
  });

  it('copyWithout gives the fields and order of a rest destructuring', () => {
    const source = { meta: [1], title: 't', link: [], posts: [2], template: 'x', url: '/u' };
    const { meta: _m, link: _l, template: _t, ...rest } = source;
    const copy = copyWithout(source, new Set(['meta', 'link', 'template']));
    expect(copy).toEqual(rest);
    expect(Object.keys(copy)).toEqual(Object.keys(rest));
  });
});
