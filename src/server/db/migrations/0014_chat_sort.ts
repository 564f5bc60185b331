import type { Kysely } from 'kysely';

/**
 * The order of the public chat rooms (NodeBB's PUT /chats/sort): `chat_rooms.sort_order`, set
 * by an administrator; public rooms are listed by it, then by room id (0 for every room until
 * sorted, so the oldest room comes first).
 */
export const chatSort = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('chat_rooms').addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.createIndex('chat_rooms_public_order').on('chat_rooms').columns(['public', 'sort_order', 'room_id']).execute();
  },
  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex('chat_rooms_public_order').execute();
    await db.schema.alterTable('chat_rooms').dropColumn('sort_order').execute();
  },
};
