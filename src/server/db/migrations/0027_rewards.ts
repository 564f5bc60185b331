import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Rewards (NodeBB's admin/extend/rewards): a rule "when a member's <postcount | reputation |
 * topiccount | days since joining> reaches `value`, add them to `group_name`". `reward_claims`
 * keeps who got each rule's reward, so a member an admin removes from the group is not added
 * back, and a rule is applied once per member.
 */
export function rewards(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      const serial = dialect === 'postgres' ? 'serial' : 'integer';
      const pk = (c: any) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
      await db.schema
        .createTable('rewards')
        .addColumn('id', serial, pk)
        .addColumn('condition', 'text', (c) => c.notNull())
        .addColumn('value', 'integer', (c) => c.notNull())
        .addColumn('group_name', 'text', (c) => c.notNull().references('groups.name').onDelete('cascade').onUpdate('cascade'))
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('reward_claims')
        .addColumn('rid', 'integer', (c) => c.notNull().references('rewards.id').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('claimed', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('reward_claims_pk', ['rid', 'uid'])
        .execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('reward_claims').ifExists().execute();
      await db.schema.dropTable('rewards').ifExists().execute();
    },
  };
}
