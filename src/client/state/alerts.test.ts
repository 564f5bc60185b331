import { describe, expect, it } from 'vitest';
import { normaliseAlert, removeAlert, upsertAlert } from './alerts';

describe('alerts', () => {
  it('closes after 5 s, errors after 10 s', () => {
    expect(normaliseAlert({ message: 'a', type: 'success' }).timeout).toBe(5000);
    expect(normaliseAlert({ message: 'a', type: 'warning' }).timeout).toBe(5000);
    expect(normaliseAlert({ message: 'a', type: 'error' })).toMatchObject({ type: 'danger', timeout: 10000 });
    expect(normaliseAlert({ message: 'a', timeout: 0 }).timeout).toBe(0);
  });
  it('updates in place when the id is reused', () => {
    let list = upsertAlert([], { alert_id: 'a', message: 'one' });
    list = upsertAlert(list, { alert_id: 'b', message: 'two' });
    list = upsertAlert(list, { alert_id: 'a', message: 'three', type: 'success' });
    expect(list.map((a) => [a.alert_id, a.message, a.version])).toEqual([
      ['a', 'three', 1],
      ['b', 'two', 0],
    ]);
  });
  it('removes by id', () => {
    const list = upsertAlert([], { alert_id: 'a', message: 'one' });
    expect(removeAlert(list, 'a')).toEqual([]);
  });
});
