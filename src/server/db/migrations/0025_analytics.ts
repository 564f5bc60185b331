import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The dashboard's counters (NodeBB's `analytics:<metric>` sorted sets per hour): one row per
 * metric and UTC hour. Days and months are sums of hours. Each process adds its own counts
 * with additive upserts, so several processes never overwrite each other.
 */
export function analytics(dialect: Dialect) {
  const ts = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('analytics_counts')
        .addColumn('metric', 'text', (c) => c.notNull())
        .addColumn('hour', ts, (c) => c.notNull())
        .addColumn('count', ts, (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('analytics_counts_pk', ['metric', 'hour'])
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('analytics_counts').ifExists().execute();
    },
  };
}
