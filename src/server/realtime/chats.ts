import { Type } from 'typebox';
import { Id } from '../http/input.js';
import type { Viewer } from '../domains/privileges/service.js';
import type { Call, Calls } from './calls.js';
import { chatRoom, publicChatRoom } from './rooms.js';

/** Which of the chat rooms the member may follow live; the chats domain supplies the real rule. */
export type ChatAccess = (viewer: Viewer, roomIds: number[]) => Promise<boolean[]>;

// Until the chats domain says who is in which room, only administrators (as in NodeBB) may listen.
const adminsOnly: ChatAccess = async (viewer, roomIds) => roomIds.map(() => viewer.isAdmin);

const RoomId = Id();
const RoomIds = Type.Union([RoomId, Type.Array(RoomId, { maxItems: 100 })]);

/** modules.chats.enter / enterPublic / leave / leavePublic: rooms for live chat, joined only where allowed. */
export function registerChatCalls(calls: Calls, access: () => ChatAccess | null): void {
  const move =
    (prefix: (id: number) => string, join: boolean) =>
    async ({ socket, viewer, payload }: Call<number | number[]>) => {
      const ids = Array.isArray(payload) ? payload : [payload];
      if (!join) {
        await Promise.all(ids.map(async (id) => socket.leave(prefix(id))));
        return;
      }
      // Rooms the member may not follow are skipped, as NodeBB does, rather than failing the others.
      const allowed = await (access() ?? adminsOnly)(viewer, ids);
      await Promise.all(ids.filter((_, i) => allowed[i]).map(async (id) => socket.join(prefix(id))));
    };
  calls.add('modules.chats.enter', RoomIds, move(chatRoom, true));
  calls.add('modules.chats.enterPublic', RoomIds, move(publicChatRoom, true));
  calls.add('modules.chats.leave', RoomIds, move(chatRoom, false));
  calls.add('modules.chats.leavePublic', RoomIds, move(publicChatRoom, false));
}
