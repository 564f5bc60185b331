import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Uploads: one row per member and stored file (`path` is the content-hashed name under the
 * uploads folder, so two members uploading the same bytes share one file and have a row
 * each); `upload_refs`, where a file is used (a post, a chat message, a profile picture),
 * kept by the uploads domain's listeners so the clean-up job finds orphans with an index;
 * and `topic_thumbs`, a topic's thumbnails in their order.
 */
export function uploads(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('uploads')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('uid', 'integer', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('height', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('thumb', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await sql`create index uploads_uid_created on uploads (uid, created)`.execute(db);
      await sql`create index uploads_path on uploads (path)`.execute(db);
      await sql`create index uploads_created on uploads (created)`.execute(db);
      await db.schema
        .createTable('upload_refs')
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('ref_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('upload_refs_pk', ['kind', 'ref_id', 'path'])
        .execute();
      await sql`create index upload_refs_path on upload_refs (path)`.execute(db);
      await db.schema
        .createTable('topic_thumbs')
        .addColumn('tid', 'integer', (c) => c.notNull().references('topics.tid').onDelete('cascade'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('topic_thumbs_pk', ['tid', 'path'])
        .execute();
      await sql`create index topic_thumbs_path on topic_thumbs (path)`.execute(db);
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('topic_thumbs').execute();
      await db.schema.dropTable('upload_refs').execute();
      await db.schema.dropTable('uploads').execute();
    },
  };
}
