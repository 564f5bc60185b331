import { createRequire } from 'node:module';
import type { Io } from './server.js';

/**
 * One write per socket for a batch of packets. engine.io's WebSocket transport sends the
 * packets it has queued for a socket (those that came while its previous write was under way)
 * one frame at a time, and each frame is its own write on the TCP socket: one system call per
 * packet per socket. Corking the TCP socket around the batch makes it a single write. A busy
 * chat room is where this counts: 200 members, many messages a second (bench/chat.mjs).
 * Applied once per process; with another engine.io shape (an upgrade) it does nothing.
 */
let applied = false;

interface WsTransport {
  socket?: { _socket?: { cork?: () => void; uncork?: () => void } };
  send(packets: unknown[]): void;
}

export function coalesceWebSocketWrites(): boolean {
  if (applied) return true;
  const require = createRequire(import.meta.url);
  let proto: WsTransport | undefined;
  try {
    const engine = require('engine.io') as { transports?: { websocket?: { prototype?: WsTransport } } };
    proto = engine.transports?.websocket?.prototype;
  } catch {
    return false;
  }
  if (!proto || typeof proto.send !== 'function') return false;
  const send = proto.send;
  proto.send = function (this: WsTransport, packets: unknown[]) {
    const tcp = packets.length > 1 ? this.socket?._socket : undefined;
    if (!tcp || typeof tcp.cork !== 'function' || typeof tcp.uncork !== 'function') return send.call(this, packets);
    tcp.cork();
    try {
      send.call(this, packets);
    } finally {
      tcp.uncork();
    }
  };
  applied = true;
  return true;
}

interface EngineSocket {
  transport?: { name?: string; writable?: boolean };
  flush?: () => void;
}

/**
 * Runs `emit` (several broadcasts to these rooms, at once) so that each local WebSocket they
 * reach gets all of them in one write: its transport holds the packets (not writable) while
 * they are queued, then sends them as one batch. Without that, the first packet goes out alone
 * and the others follow in a second write.
 */
export function writeTogether(io: Io, rooms: Iterable<string>, emit: () => void): void {
  const nsp = io.of('/');
  const held: EngineSocket[] = [];
  const seen = new Set<string>();
  for (const room of rooms) {
    for (const sid of nsp.adapter.rooms.get(room) ?? []) {
      if (seen.has(sid)) continue;
      seen.add(sid);
      const conn = nsp.sockets.get(sid)?.conn as EngineSocket | undefined;
      const transport = conn?.transport;
      if (!conn || typeof conn.flush !== 'function' || transport?.name !== 'websocket' || transport.writable !== true) continue;
      transport.writable = false;
      held.push(conn);
    }
  }
  try {
    emit();
  } finally {
    for (const conn of held) {
      conn.transport!.writable = true;
      conn.flush!();
    }
  }
}
