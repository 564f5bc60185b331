import { sql, type Kysely, type CreateTableBuilder } from 'kysely';
import type { Dialect } from '../dialect.js';

/** The first schema: every table of the walking skeleton, for SQLite and PostgreSQL alike. */
export function initial(dialect: Dialect) {
  // SQLite's rowid alias vs PostgreSQL identity; timestamps need 64 bits on PostgreSQL.
  const id = <T extends string>(t: CreateTableBuilder<T, never>, name: string) =>
    dialect === 'postgres'
      ? t.addColumn(name, 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : t.addColumn(name, 'integer', (c) => c.primaryKey().autoIncrement());
  const ts = dialect === 'postgres' ? 'bigint' : 'integer';

  return {
    async up(db: Kysely<any>): Promise<void> {
      await id(db.schema.createTable('users'), 'uid')
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('userslug', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text')
        .addColumn('email_confirmed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('password_hash', 'text')
        .addColumn('fullname', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('picture', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('about', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('online'))
        .addColumn('reputation', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('postcount', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('topiccount', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('joindate', ts, (c) => c.notNull())
        .addColumn('lastonline', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('lastposttime', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('banned', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('banned_until', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('ban_reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema.createIndex('users_email').on('users').column('email').unique().execute();
      await db.schema.createIndex('users_username_lower').on('users').expression(sql`lower(username)`).unique().execute();
      await db.schema.createIndex('users_joindate').on('users').column('joindate').execute();
      await db.schema.createIndex('users_reputation').on('users').columns(['reputation', 'uid']).execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('created', ts, (c) => c.notNull())
        .addColumn('expires', ts, (c) => c.notNull())
        .addColumn('last_seen', ts, (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('sessions_uid').on('sessions').column('uid').execute();

      await db.schema
        .createTable('groups')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('system', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('private', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('member_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('group_members')
        .addColumn('group_name', 'text', (c) => c.notNull().references('groups.name').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('joined', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('group_members_pk', ['group_name', 'uid'])
        .execute();
      await db.schema.createIndex('group_members_uid').on('group_members').column('uid').execute();

      await id(db.schema.createTable('categories'), 'cid')
        .addColumn('parent_cid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('handle', 'text', (c) => c.notNull().unique())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('description_parsed', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('icon', 'text', (c) => c.notNull().defaultTo('fa-comments'))
        .addColumn('bg_color', 'text', (c) => c.notNull().defaultTo('#0d6efd'))
        .addColumn('color', 'text', (c) => c.notNull().defaultTo('#ffffff'))
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('link', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('topic_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('post_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('categories_parent').on('categories').columns(['parent_cid', 'position']).execute();

      await id(db.schema.createTable('topics'), 'tid')
        .addColumn('cid', 'integer', (c) => c.notNull().references('categories.cid'))
        .addColumn('uid', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('main_pid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('teaser_pid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('post_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', ts, (c) => c.notNull())
        .addColumn('last_post_time', ts, (c) => c.notNull())
        .addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleter_uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('upvotes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('downvotes', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('topics_cid_list').on('topics').columns(['cid', 'pinned', 'last_post_time']).execute();
      await db.schema.createIndex('topics_recent').on('topics').columns(['last_post_time']).execute();
      await db.schema.createIndex('topics_popular').on('topics').columns(['post_count', 'last_post_time']).execute();
      await db.schema.createIndex('topics_top').on('topics').columns(['upvotes', 'last_post_time']).execute();
      await db.schema.createIndex('topics_uid').on('topics').columns(['uid', 'created']).execute();

      await id(db.schema.createTable('posts'), 'pid')
        .addColumn('tid', 'integer', (c) => c.notNull().references('topics.tid').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull())
        .addColumn('to_pid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('content_html', 'text', (c) => c.notNull())
        .addColumn('created', ts, (c) => c.notNull())
        .addColumn('edited', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('editor_uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleter_uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('upvotes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('downvotes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('bookmarks', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('posts_tid_created').on('posts').columns(['tid', 'created', 'pid']).execute();
      await db.schema.createIndex('posts_uid_created').on('posts').columns(['uid', 'created']).execute();

      await id(db.schema.createTable('post_edits'), 'id')
        .addColumn('pid', 'integer', (c) => c.notNull().references('posts.pid').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('title', 'text')
        .addColumn('edited', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('post_edits_pid').on('post_edits').columns(['pid', 'edited']).execute();

      await db.schema
        .createTable('votes')
        .addColumn('pid', 'integer', (c) => c.notNull().references('posts.pid').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull())
        .addColumn('value', 'integer', (c) => c.notNull())
        .addColumn('created', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('votes_pk', ['pid', 'uid'])
        .execute();
      await db.schema.createIndex('votes_uid').on('votes').columns(['uid', 'pid']).execute();
      await db.schema
        .createTable('bookmarks')
        .addColumn('pid', 'integer', (c) => c.notNull().references('posts.pid').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull())
        .addColumn('created', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('bookmarks_pk', ['pid', 'uid'])
        .execute();
      await db.schema.createIndex('bookmarks_uid').on('bookmarks').columns(['uid', 'created']).execute();

      await db.schema
        .createTable('tags')
        .addColumn('tag', 'text', (c) => c.primaryKey())
        .addColumn('topic_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('topic_tags')
        .addColumn('tid', 'integer', (c) => c.notNull().references('topics.tid').onDelete('cascade'))
        .addColumn('tag', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('topic_tags_pk', ['tid', 'tag'])
        .execute();
      await db.schema.createIndex('topic_tags_tag').on('topic_tags').columns(['tag', 'tid']).execute();

      await db.schema
        .createTable('topic_follows')
        .addColumn('tid', 'integer', (c) => c.notNull().references('topics.tid').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('topic_follows_pk', ['tid', 'uid'])
        .execute();
      await db.schema.createIndex('topic_follows_uid').on('topic_follows').columns(['uid', 'state']).execute();
      await db.schema
        .createTable('topic_reads')
        .addColumn('uid', 'integer', (c) => c.notNull())
        .addColumn('tid', 'integer', (c) => c.notNull().references('topics.tid').onDelete('cascade'))
        .addColumn('read_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('topic_reads_pk', ['uid', 'tid'])
        .execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('api_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('uid', 'integer', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created', ts, (c) => c.notNull())
        .addColumn('last_seen', ts, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('privileges')
        .addColumn('cid', 'integer', (c) => c.notNull())
        .addColumn('privilege', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('privileges_pk', ['cid', 'privilege', 'subject'])
        .execute();
      await db.schema.createIndex('privileges_subject').on('privileges').columns(['subject', 'cid']).execute();
      await id(db.schema.createTable('events'), 'id')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('uid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('events_created').on('events').columns(['type', 'created']).execute();
    },
  };
}
