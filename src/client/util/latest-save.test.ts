import { describe, expect, it } from 'vitest';
import { latestSaver } from './latest-save';

/** A save whose requests the test answers by hand, in any order. */
function manualSave() {
  const sent: { value: number; done: () => void }[] = [];
  const stored: number[] = [];
  const save = (value: number) =>
    new Promise<void>((resolve) => {
      sent.push({ value, done: () => (stored.push(value), resolve()) });
    });
  return { sent, stored, save };
}

describe('latestSaver', () => {
  it('sends one value at a time and then only the newest one waiting', async () => {
    const m = manualSave();
    const errors: unknown[] = [];
    const saveLatest = latestSaver(m.save, (e) => errors.push(e));
    const done = [49, 48, 47, 46, 45].map((v) => saveLatest(v));
    await Promise.resolve();
    expect(m.sent.map((s) => s.value)).toEqual([49]);
    m.sent[0]!.done();
    await new Promise((r) => setTimeout(r, 0));
    expect(m.sent.map((s) => s.value)).toEqual([49, 45]);
    m.sent[1]!.done();
    await Promise.all(done);
    expect(m.stored).toEqual([49, 45]);
    expect(errors).toEqual([]);
  });

  it('reports a failed request and goes on with the next value', async () => {
    const stored: number[] = [];
    const errors: unknown[] = [];
    let fail = true;
    const saveLatest = latestSaver(
      async (v: number) => {
        if (fail) {
          fail = false;
          throw new Error('offline');
        }
        stored.push(v);
      },
      (e) => errors.push((e as Error).message),
    );
    const a = saveLatest(1);
    const b = saveLatest(2);
    await Promise.all([a, b]);
    expect(errors).toEqual(['offline']);
    expect(stored).toEqual([2]);
    await saveLatest(3);
    expect(stored).toEqual([2, 3]);
  });
});
