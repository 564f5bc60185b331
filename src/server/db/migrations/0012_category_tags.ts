import type { Kysely } from 'kysely';

/**
 * Per-category tag rules (NodeBB's `tagWhitelist`, `minTags`, `maxTags`): the whitelist is the
 * allowed tags joined by commas (empty: any tag); a null limit follows the forum's setting
 * (`minimumTagsPerTopic` / `maximumTagsPerTopic`).
 */
export const categoryTags = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('categories').addColumn('tag_whitelist', 'text', (c) => c.notNull().defaultTo('')).execute();
    await db.schema.alterTable('categories').addColumn('min_tags', 'integer').execute();
    await db.schema.alterTable('categories').addColumn('max_tags', 'integer').execute();
  },
  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('categories').dropColumn('max_tags').execute();
    await db.schema.alterTable('categories').dropColumn('min_tags').execute();
    await db.schema.alterTable('categories').dropColumn('tag_whitelist').execute();
  },
};
