import { Type } from 'typebox';
import { Id } from '../http/input.js';
import type { Viewer } from '../domains/privileges/service.js';
import type { Call, Calls } from './calls.js';
import { chatRoom, publicChatRoom } from './rooms.js';

/**
 * Which of the chat rooms the member may follow live: members of a room (`publicRoom` false),
 * or, for a public room, those the chats domain lets in (ChatsService.liveAccess supplies the rule).
 */
export type ChatAccess = (viewer: Viewer, roomIds: number[], publicRoom: boolean) => Promise<boolean[]>;

// Before the chats domain supplies its rule, nobody may listen.
const nobody: ChatAccess = async (_viewer, roomIds) => roomIds.map(() => false);

const RoomId = Id();
const RoomIds = Type.Union([RoomId, Type.Array(RoomId, { maxItems: 100 })]);

/** modules.chats.enter / enterPublic / leave / leavePublic: rooms for live chat, joined only where allowed. */
export function registerChatCalls(calls: Calls, access: () => ChatAccess | null): void {
  const move =
    (prefix: (id: number) => string, join: boolean, publicRoom = false) =>
    async ({ socket, viewer, payload }: Call<number | number[]>) => {
      const ids = Array.isArray(payload) ? payload : [payload];
      if (!join) {
        await Promise.all(ids.map(async (id) => socket.leave(prefix(id))));
        return;
      }
      // Rooms the member may not follow are skipped, as NodeBB does, rather than failing the others.
      const allowed = await (access() ?? nobody)(viewer, ids, publicRoom);
      await Promise.all(ids.filter((_, i) => allowed[i]).map(async (id) => socket.join(prefix(id))));
    };
  calls.add('modules.chats.enter', RoomIds, move(chatRoom, true));
  calls.add('modules.chats.enterPublic', RoomIds, move(publicChatRoom, true, true));
  calls.add('modules.chats.leave', RoomIds, move(chatRoom, false));
  calls.add('modules.chats.leavePublic', RoomIds, move(publicChatRoom, false));
}
