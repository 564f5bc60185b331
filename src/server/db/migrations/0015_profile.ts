import type { Kysely } from 'kysely';

/**
 * Profile fields (issue 13): the cover photo and its position, website, location, birthday and
 * the signature (as written and as sanitised HTML rendered when written, like the about-me),
 * all on `users` since every profile read wants them; and `user_fields`, the values of the
 * custom fields an admin defines (setting `customUserFields`), one row per member and field,
 * so a field removed from the definitions leaves rows nothing shows.
 */
export const profile = {
  async up(db: Kysely<any>): Promise<void> {
    for (const [name, dflt] of [
      ['cover_url', ''],
      ['cover_position', '50% 50%'],
      ['website', ''],
      ['location', ''],
      ['birthday', ''],
      ['signature', ''],
      ['signature_html', ''],
    ] as const) {
      await db.schema.alterTable('users').addColumn(name, 'text', (c) => c.notNull().defaultTo(dflt)).execute();
    }
    await db.schema
      .createTable('user_fields')
      .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
      .addColumn('field_key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('user_fields_pk', ['uid', 'field_key'])
      .execute();
  },
  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('user_fields').execute();
    for (const name of ['cover_url', 'cover_position', 'website', 'location', 'birthday', 'signature', 'signature_html']) {
      await db.schema.alterTable('users').dropColumn(name).execute();
    }
  },
};
