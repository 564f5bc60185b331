import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Chats: rooms, their members (owner flag, the member's notification setting, the last
 * message they read and the last one before they joined, which they never see), messages
 * (raw text and the HTML rendered at write time; `idx` is the message's 0-based position in
 * its room, given out under the room row's lock so it is dense and unique), and members'
 * blocks. `chat_rooms.last_mid` is the newest non-system message: a member's room is unread
 * while `last_mid > last_read_mid`. `dm_key` ('<low uid>:<high uid>') finds the direct
 * message room of two members, so a second "chat with" reuses it; it is cleared once the room
 * has another member.
 */
export function chats(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      const ts = dialect === 'postgres' ? 'bigint' : 'integer';
      const serial = dialect === 'postgres' ? 'serial' : 'integer';
      const pk = (c: any) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
      await db.schema
        .createTable('chat_rooms')
        .addColumn('room_id', serial, pk)
        .addColumn('owner', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('groups', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('join_leave_messages', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('dm_key', 'text')
        .addColumn('created', ts, (c) => c.notNull())
        .addColumn('last_activity', ts, (c) => c.notNull())
        .addColumn('last_mid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('message_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('user_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`create unique index chat_rooms_dm_key on chat_rooms (dm_key)`.execute(db);
      await sql`create index chat_rooms_public on chat_rooms (public, last_activity desc)`.execute(db);
      await db.schema
        .createTable('chat_room_members')
        .addColumn('room_id', 'integer', (c) => c.notNull().references('chat_rooms.room_id').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('is_owner', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('notify', 'integer', (c) => c.notNull().defaultTo(2))
        .addColumn('last_read_mid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('joined_mid', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('joined', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('chat_room_members_pk', ['room_id', 'uid'])
        .execute();
      await db.schema.createIndex('chat_room_members_uid').on('chat_room_members').columns(['uid', 'room_id']).execute();
      await db.schema
        .createTable('chat_messages')
        .addColumn('mid', serial, pk)
        .addColumn('room_id', 'integer', (c) => c.notNull().references('chat_rooms.room_id').onDelete('cascade'))
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('idx', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('content_html', 'text', (c) => c.notNull())
        .addColumn('system', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created', ts, (c) => c.notNull())
        .addColumn('edited', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('pinned', ts, (c) => c.notNull().defaultTo(0))
        .addColumn('to_mid', 'integer')
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await sql`create unique index chat_messages_room_idx on chat_messages (room_id, idx)`.execute(db);
      await sql`create index chat_messages_room_mid on chat_messages (room_id, mid)`.execute(db);
      await sql`create index chat_messages_room_pinned on chat_messages (room_id, pinned) where pinned > 0`.execute(db);
      await db.schema
        .createTable('user_blocks')
        .addColumn('uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('blocked_uid', 'integer', (c) => c.notNull().references('users.uid').onDelete('cascade'))
        .addColumn('created', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('user_blocks_pk', ['uid', 'blocked_uid'])
        .execute();
      await db.schema.createIndex('user_blocks_blocked').on('user_blocks').column('blocked_uid').execute();
    },
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('user_blocks').execute();
      await db.schema.dropTable('chat_messages').execute();
      await db.schema.dropTable('chat_room_members').execute();
      await db.schema.dropTable('chat_rooms').execute();
    },
  };
}
