import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { emojiIndex } from './table.js';

/** Where the client loads the emoji index for `:` autocomplete and the picker (public, cacheable). */
export const EMOJI_TABLE_PATH = '/plugins/emoji/table.json';

/** Serves the compact emoji index: one JSON file, cached a day, revalidated by ETag. */
export function registerEmojiRoutes(app: FastifyInstance): void {
  app.get(EMOJI_TABLE_PATH, { schema: { response: { 200: Type.String(), 304: Type.Null() }, hide: true } }, async (req, reply) => {
    const { body, etag } = emojiIndex();
    void reply.header('cache-control', 'public, max-age=86400').header('etag', etag).type('application/json; charset=utf-8');
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(body);
  });
}
