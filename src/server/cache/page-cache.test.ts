import { describe, expect, it } from 'vitest';
import { pagination } from '../http/pagination.js';
import { deepFreeze, SharedValues } from './page-cache.js';

describe('values every reader is given alike', () => {
  it('are made once per owners and key, frozen to the bottom, and made anew for another owner or key', () => {
    const values = new SharedValues<{ crumbs: { text: string }[] }>(2);
    const topic = {};
    const part = {};
    let made = 0;
    const make = () => ({ crumbs: [{ text: `made ${++made}` }] });
    const first = values.of([topic, part], '1', make);
    expect(values.of([topic, part], '1', make)).toBe(first);
    expect(made).toBe(1);
    expect(Object.isFrozen(first) && Object.isFrozen(first.crumbs) && Object.isFrozen(first.crumbs[0])).toBe(true);
    expect(() => {
      (first.crumbs[0] as { text: string }).text = 'changed';
    }).toThrow(TypeError);
    // Another page number, another part (the cache rebuilt it), another topic row: made again.
    expect(values.of([topic, part], '2', make).crumbs[0]!.text).toBe('made 2');
    expect(values.of([topic, {}], '1', make).crumbs[0]!.text).toBe('made 3');
    expect(values.of([{}, part], '1', make).crumbs[0]!.text).toBe('made 4');
    expect(() => values.of([topic], '1', make)).toThrow(/2 owners/);
  });

  it('deepFreeze leaves what is already frozen, and primitives, as they are', () => {
    const shared = Object.freeze({ n: 1 });
    const value = deepFreeze({ shared, list: [1, 'two', null, { deep: [3] }] });
    expect(value.shared).toBe(shared);
    expect(Object.isFrozen(value.list[3]) && Object.isFrozen((value.list[3] as { deep: number[] }).deep)).toBe(true);
    expect(deepFreeze(5)).toBe(5);
  });
});

describe('pagination blocks', () => {
  it('are shared by pages whose query is only the page, and equal to the block made for them alone', () => {
    const a = pagination(3, 10);
    expect(pagination(3, 10, { page: '3', _: '123' })).toBe(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a.pages) && Object.isFrozen(a.pages[0])).toBe(true);
    expect(a.pages.map((p) => p.page)).toEqual([1, 2, 3, 4, 5]);
    expect(a.next).toEqual({ page: 4, active: true, qs: 'page=4' });
    expect(pagination(4, 10)).not.toBe(a);
  });

  it("keep a page's other query parameters in their links, and are not shared then", () => {
    const sorted = pagination(2, 5, { sort: 'oldest', page: '2' });
    expect(sorted.next.qs).toBe('sort=oldest&page=3');
    expect(sorted.rel).toEqual([
      { rel: 'next', href: '?sort=oldest&page=3' },
      { rel: 'prev', href: '?sort=oldest&page=1' },
    ]);
    expect(pagination(2, 5, { sort: 'oldest', page: '2' })).not.toBe(sorted);
    expect(Object.isFrozen(sorted)).toBe(false);
  });
});
