import { describe, expect, it } from 'vitest';
import { migrationOrder, migrations } from './index.js';

describe('migration order', () => {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    it(`runs ${dialect}'s migrations in the order their names sort by the runtime's collation (Kysely's former default)`, () => {
      const names = Object.keys(migrations(dialect));
      // Four digits, an underscore, lowercase words: the form every name has had.
      for (const name of names) expect(name).toMatch(/^\d{4}_[a-z_]+$/);
      const byCollation = [...names].sort((a, b) => a.localeCompare(b));
      expect([...names].reverse().sort(migrationOrder)).toEqual(byCollation);
      // The record lists them in that order too, so a reader sees the order they run in.
      expect(names).toEqual(byCollation);
    });
  }

  it('compares by code unit', () => {
    expect(['0010_b', '0002_a', '0010_a'].sort(migrationOrder)).toEqual(['0002_a', '0010_a', '0010_b']);
    expect(migrationOrder('0001_x', '0001_x')).toBe(0);
  });
});
