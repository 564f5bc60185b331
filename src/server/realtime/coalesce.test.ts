import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coalesceWebSocketWrites, writeTogether } from './coalesce.js';
import type { Io } from './server.js';

// A real socket.io server and client over TCP; the server side's TCP writes are counted.
let http: HttpServer;
let io: Server;
let client: ClientSocket;
let writes = 0;

beforeAll(async () => {
  expect(coalesceWebSocketWrites()).toBe(true);
  http = createServer();
  io = new Server(http, { transports: ['websocket'] });
  io.on('connection', (s) => void s.join('room'));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  client = connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ['websocket'], forceNew: true, reconnection: false });
  await new Promise<void>((r) => client.once('connect', () => r()));
  await new Promise((r) => setTimeout(r, 50));
  const [socket] = await io.fetchSockets();
  type Write = (...args: unknown[]) => unknown;
  const tcp = (io.of('/').sockets.get(socket!.id)!.conn as unknown as { transport: { socket: { _socket: { _writev: Write; _write: Write } } } }).transport.socket._socket;
  for (const name of ['_writev', '_write'] as const) {
    const original = tcp[name];
    tcp[name] = function (this: unknown, ...args: unknown[]) {
      writes += 1;
      return original.apply(this, args);
    };
  }
});
afterAll(async () => {
  client?.close();
  await new Promise<void>((r) => {
    void io.close(() => r());
  });
});

async function receive(n: number, send: () => void): Promise<number[]> {
  const got: number[] = [];
  const all = new Promise<void>((resolve) => {
    const on = (i: number) => {
      got.push(i);
      if (got.length === n) {
        client.off('x', on);
        resolve();
      }
    };
    client.on('x', on);
  });
  writes = 0;
  send();
  await all;
  return got;
}

describe('coalesced WebSocket writes', () => {
  it('sends broadcasts made together to a socket in one TCP write, in order', async () => {
    const got = await receive(5, () => writeTogether(io as unknown as Io, ['room'], () => [0, 1, 2, 3, 4].forEach((i) => io.to('room').emit('x', i))));
    expect(got).toEqual([0, 1, 2, 3, 4]);
    expect(writes).toBe(1);
  });

  it('without it, the first broadcast goes out alone (the others follow in a second write)', async () => {
    const got = await receive(5, () => [0, 1, 2, 3, 4].forEach((i) => io.to('room').emit('x', i)));
    expect(got).toEqual([0, 1, 2, 3, 4]);
    expect(writes).toBe(2);
  });

  it('leaves a single broadcast as it was', async () => {
    expect(await receive(1, () => writeTogether(io as unknown as Io, ['room'], () => io.to('room').emit('x', 7)))).toEqual([7]);
    expect(writes).toBe(1);
  });
});
