import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { CHAT_LIMITS } from '../../../shared/schemas/chat.js';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { Id, Int, Str } from '../../http/input.js';
import { defaultBody, NoBody } from '../topics/schemas.js';
import {
  MessageListSchema as ChatMessageListSchema,
  MessageObjectSchema as ChatMessageSchema,
  RoomListSchema as ChatRoomListSchema,
  RoomObjectFullSchema as ChatRoomFullSchema,
  RoomObjectSchema as ChatRoomSchema,
  RoomUserListSchema as ChatRoomUsersSchema,
  RoomUserSearchSchema,
} from './schemas.js';

const tags = ['chats'];
const RoomParams = Type.Object({ roomId: Id() });
const MessageParams = Type.Object({ roomId: Id(), mid: Id() });
const RoomUserParams = Type.Object({ roomId: Id(), uid: Id() });
const Uids = Type.Array(Id(), { maxItems: CHAT_LIMITS.membersPerCall });
const Start = Int({ minimum: 0, maximum: 1_000_000 });
// A message body may be long; the forum's maximumChatMessageLength is checked by the service (a 400 with the limit).
const MessageText = Str({ maxLength: 100_000 });
// PUT /chats/sort: at most this many rooms (and scores) per call.
const SORT_MAX = 100;

/** /api/v3/chats routes, as NodeBB's write API documents them, plus the admin read of a room. */
export function registerChatRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v3/chats', {
    schema: {
      querystring: Type.Object({ start: Type.Optional(Start), perPage: Type.Optional(Int({ minimum: 1, maximum: 50 })), page: Type.Optional(Int({ minimum: 1, maximum: 10_000 })) }),
      response: { 200: Envelope(ChatRoomListSchema) },
      tags,
    },
    handler: async (req) => {
      const perPage = req.query.perPage ?? CHAT_LIMITS.roomsPerPage;
      const start = req.query.start ?? (req.query.page ? (req.query.page - 1) * perPage : 0);
      return ok(await ctx.chats.list(req.viewer, start, perPage));
    },
  });

  app.post('/api/v3/chats', {
    schema: {
      body: Type.Object({
        uids: Uids,
        roomName: Type.Optional(Str({ maxLength: 255 })),
        type: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('private')])),
        groups: Type.Optional(Type.Array(Str({ minLength: 1, maxLength: 255 }), { maxItems: 50 })),
      }),
      response: { 200: Envelope(ChatRoomSchema) },
      tags,
    },
    handler: async (req) => ok(await ctx.chats.create(req.viewer, req.body)),
  });

  app.get('/api/v3/chats/search', {
    schema: { querystring: Type.Object({ query: Type.Optional(Str({ maxLength: CHAT_LIMITS.searchQuery })) }), response: { 200: Envelope(ChatRoomListSchema) }, tags },
    handler: async (req) => ok(await ctx.chats.searchRooms(req.viewer, req.query.query ?? '')),
  });

  // NodeBB's PUT /chats/sort (administrators): the order of the public rooms.
  const SortList = (item: ReturnType<typeof Int>) => Type.Array(item, { maxItems: SORT_MAX });
  app.put('/api/v3/chats/sort', {
    schema: { body: Type.Object({ roomIds: SortList(Id()), scores: SortList(Int()) }), response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await ctx.chats.sortPublicRooms(req.viewer, req.body.roomIds, req.body.scores, req.ip);
      return ok({});
    },
  });

  app.get('/api/v3/chats/unread', {
    schema: { response: { 200: Envelope(Type.Object({ count: Type.Number() })) }, tags },
    handler: async (req) => ok({ count: await ctx.chats.unreadCount(req.viewer) }),
  });

  app.head('/api/v3/chats/:roomId', {
    schema: { params: RoomParams, tags },
    handler: async (req, reply) => reply.code((await ctx.chats.exists(req.params.roomId)) ? 200 : 404).send(),
  });

  app.get('/api/v3/chats/:roomId', {
    schema: { params: RoomParams, response: { 200: Envelope(ChatRoomFullSchema) }, tags },
    handler: async (req) => ok(await ctx.chats.load(req.viewer, req.params.roomId)),
  });

  app.post('/api/v3/chats/:roomId', {
    schema: { params: RoomParams, body: Type.Object({ message: MessageText, toMid: Type.Optional(Id()) }), response: { 200: Envelope(ChatMessageSchema) }, tags },
    handler: async (req) => ok(await ctx.chats.send(req.viewer, req.params.roomId, req.body.message, { toMid: req.body.toMid, ip: req.ip })),
  });

  app.put('/api/v3/chats/:roomId', {
    schema: { params: RoomParams, body: Type.Object({ name: Str({ maxLength: 1000 }) }), response: { 200: Envelope(ChatRoomFullSchema) }, tags },
    handler: async (req) => ok(await ctx.chats.rename(req.viewer, req.params.roomId, req.body.name)),
  });

  for (const [method, state] of [['put', 1], ['delete', 0]] as const) {
    app[method]('/api/v3/chats/:roomId/state', {
      schema: { params: RoomParams, body: NoBody, response: { 200: Envelope(ChatRoomFullSchema) }, tags },
      preValidation: defaultBody,
      handler: async (req) => ok(await ctx.chats.mark(req.viewer, req.params.roomId, state)),
    });
  }

  app.put('/api/v3/chats/:roomId/watch', {
    schema: { params: RoomParams, body: Type.Object({ value: Int({ minimum: -1, maximum: 2 }) }), response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await ctx.chats.watch(req.viewer, req.params.roomId, req.body.value);
      return ok({});
    },
  });
  app.delete('/api/v3/chats/:roomId/watch', {
    schema: { params: RoomParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.chats.watch(req.viewer, req.params.roomId, -1);
      return ok({});
    },
  });

  app.put('/api/v3/chats/:roomId/typing', {
    schema: { params: RoomParams, body: Type.Object({ typing: Type.Boolean() }), response: { 200: Envelope(Empty) }, tags },
    handler: async (req) => {
      await ctx.chats.typing(req.viewer, req.params.roomId, req.body.typing);
      return ok({});
    },
  });

  app.get('/api/v3/chats/:roomId/users', {
    schema: { params: RoomParams, response: { 200: Envelope(ChatRoomUsersSchema) }, tags },
    handler: async (req) => ok(await ctx.chats.users(req.viewer, req.params.roomId)),
  });
  app.post('/api/v3/chats/:roomId/users', {
    schema: { params: RoomParams, body: Type.Object({ uids: Uids }), response: { 200: Envelope(ChatRoomUsersSchema) }, tags },
    handler: async (req) => ok(await ctx.chats.addUsers(req.viewer, req.params.roomId, req.body.uids)),
  });
  app.delete('/api/v3/chats/:roomId/users', {
    schema: { params: RoomParams, body: Type.Object({ uids: Uids }), response: { 200: Envelope(ChatRoomUsersSchema) }, tags },
    handler: async (req) => ok(await ctx.chats.removeUsers(req.viewer, req.params.roomId, req.body.uids)),
  });
  app.delete('/api/v3/chats/:roomId/users/:uid', {
    schema: { params: RoomUserParams, body: NoBody, response: { 200: Envelope(ChatRoomUsersSchema) }, tags },
    preValidation: defaultBody,
    handler: async (req) => ok(await ctx.chats.removeUsers(req.viewer, req.params.roomId, [req.params.uid])),
  });

  for (const [method, on] of [['put', true], ['delete', false]] as const) {
    app[method]('/api/v3/chats/:roomId/owners/:uid', {
      schema: { params: RoomUserParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
      preValidation: defaultBody,
      handler: async (req) => {
        await ctx.chats.setOwner(req.viewer, req.params.roomId, req.params.uid, on);
        return ok({});
      },
    });
  }

  app.get('/api/v3/chats/:roomId/messages', {
    schema: { params: RoomParams, querystring: Type.Object({ uid: Type.Optional(Id()), start: Type.Optional(Start) }), response: { 200: Envelope(ChatMessageListSchema) }, tags },
    handler: async (req) => ok(await ctx.chats.messages(req.viewer, req.params.roomId, req.query.start ?? 0)),
  });

  app.get('/api/v3/chats/:roomId/messages/pinned', {
    schema: { params: RoomParams, querystring: Type.Object({ start: Type.Optional(Start) }), response: { 200: Envelope(ChatMessageListSchema) }, tags },
    handler: async (req) => ok(await ctx.chats.pinned(req.viewer, req.params.roomId, req.query.start ?? 0)),
  });

  app.get('/api/v3/chats/:roomId/messages/:mid', {
    schema: { params: MessageParams, response: { 200: Envelope(ChatMessageSchema) }, tags },
    handler: async (req) => ok(await ctx.chats.getMessage(req.viewer, req.params.roomId, req.params.mid)),
  });
  app.put('/api/v3/chats/:roomId/messages/:mid', {
    schema: { params: MessageParams, body: Type.Object({ message: MessageText }), response: { 200: Envelope(ChatMessageSchema) }, tags },
    handler: async (req) => ok(await ctx.chats.edit(req.viewer, req.params.roomId, req.params.mid, req.body.message)),
  });
  for (const [method, deleted] of [['delete', true], ['post', false]] as const) {
    app[method]('/api/v3/chats/:roomId/messages/:mid', {
      schema: { params: MessageParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
      preValidation: defaultBody,
      handler: async (req) => {
        await ctx.chats.setDeleted(req.viewer, req.params.roomId, req.params.mid, deleted);
        return ok({});
      },
    });
  }
  for (const [method, pinned] of [['put', true], ['delete', false]] as const) {
    app[method]('/api/v3/chats/:roomId/messages/:mid/pin', {
      schema: { params: MessageParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
      preValidation: defaultBody,
      handler: async (req) => {
        await ctx.chats.setPinned(req.viewer, req.params.roomId, req.params.mid, pinned);
        return ok({});
      },
    });
  }
  app.get('/api/v3/chats/:roomId/messages/:mid/raw', {
    schema: { params: MessageParams, response: { 200: Envelope(Type.Object({ content: Type.String() })) }, tags },
    handler: async (req) => ok(await ctx.chats.raw(req.viewer, req.params.roomId, req.params.mid)),
  });
  app.get('/api/v3/chats/:roomId/messages/:mid/ip', {
    schema: { params: MessageParams, response: { 200: Envelope(Type.Object({ ip: Type.String() })) }, tags },
    handler: async (req) => ok(await ctx.chats.ip(req.viewer, req.params.roomId, req.params.mid)),
  });

  const SearchQuery = Type.Object({ query: Type.Optional(Str({ maxLength: CHAT_LIMITS.searchQuery })) });
  app.get('/api/v3/search/chats/:roomId/messages', {
    schema: { params: RoomParams, querystring: SearchQuery, response: { 200: Envelope(ChatMessageListSchema) }, tags: ['search'] },
    handler: async (req) => ok(await ctx.chats.search(req.viewer, req.params.roomId, req.query.query ?? '')),
  });
  app.get('/api/v3/search/chats/:roomId/users', {
    schema: { params: RoomParams, querystring: SearchQuery, response: { 200: Envelope(RoomUserSearchSchema) }, tags: ['search'] },
    handler: async (req) => ok(await ctx.chats.searchUsers(req.viewer, req.params.roomId, req.query.query ?? '')),
  });

  app.get('/api/v3/users/:uid/chat', {
    schema: { params: Type.Object({ uid: Id() }), response: { 200: Envelope(Type.Object({ roomId: Type.Union([Type.Number(), Type.Null()]) })) }, tags: ['users'] },
    handler: async (req) => ok({ roomId: await ctx.chats.dmRoomWith(req.viewer, req.params.uid) }),
  });

  // Palaver's own (NodeBB blocks through a socket call): block or unblock a member.
  for (const [method, on] of [['put', true], ['delete', false]] as const) {
    app[method]('/api/v3/users/:uid/block', {
      schema: { params: Type.Object({ uid: Id() }), body: NoBody, response: { 200: Envelope(Empty) }, tags: ['users'] },
      preValidation: defaultBody,
      handler: async (req) => {
        await ctx.users.block(req.viewer, req.params.uid, on);
        return ok({});
      },
    });
  }

  // Palaver's own: an administrator reads any room; the access is logged (event chat-room-read).
  app.get('/api/v3/admin/chats/:roomId', {
    schema: { params: RoomParams, response: { 200: Envelope(ChatRoomFullSchema) }, tags: ['admin'] },
    handler: async (req) => ok(await ctx.chats.adminRead(req.viewer, req.params.roomId, req.ip)),
  });
  app.delete('/api/v3/admin/chats/:roomId', {
    schema: { params: RoomParams, body: NoBody, response: { 200: Envelope(Empty) }, tags: ['admin'] },
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.chats.adminDelete(req.viewer, req.params.roomId, req.ip);
      return ok({});
    },
  });
}
