import { hostname } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../domains/auth/service.js';
import { call, connect, connectLive, disconnected, liveSocket, nextEvent, type LiveClient } from '../test/live-client.js';
import { startTestForum, type TestForum } from '../test/harness.js';

let forum: TestForum;
const open: LiveClient[] = [];
const track = (s: LiveClient) => (open.push(s), s);

beforeAll(async () => {
  forum = await startTestForum();
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => {
  await forum.close();
});

describe('socket connection', () => {
  it('connects a member over websocket and tells them their uid and the server host', async () => {
    const { client, user } = await forum.loginAs();
    const socket = track(await liveSocket(client));
    const uid = nextEvent<number>(socket, 'checkSession');
    const host = nextEvent<string>(socket, 'setHostname');
    await connect(socket);
    expect(socket.io.engine.transport.name).toBe('websocket');
    expect(await uid).toBe(user.uid);
    expect(await host).toBe(hostname());
  });

  it('connects over long-polling when websockets are unavailable', async () => {
    const { client, user } = await forum.loginAs();
    const socket = track(await liveSocket(client, { transports: ['polling'] }));
    const uid = nextEvent<number>(socket, 'checkSession');
    await connect(socket);
    expect(socket.io.engine.transport.name).toBe('polling');
    expect(await uid).toBe(user.uid);
    expect(await call(socket, 'meta.reconnected')).toEqual({ 'cache-buster': forum.ctx.config.cacheBuster, hostname: hostname() });
  });

  it('refuses a guest', async () => {
    const guest = forum.client();
    await guest.get('/api/config');
    const err = await connectLive(guest, { csrf: await guest.refreshCsrf() }).then(
      () => null,
      (e: Error & { data?: unknown }) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toBe('[[error:not-logged-in]]');
    expect(err!.data).toMatchObject({ key: 'error:not-logged-in', status: 401 });
  });

  it('refuses a member whose _csrf is wrong or missing', async () => {
    const { client } = await forum.loginAs();
    for (const csrf of ['not-the-token', null]) {
      const err = await connectLive(client, { csrf }).catch((e: Error) => e);
      expect((err as Error).message).toBe('[[error:invalid-csrf]]');
    }
  });

  it('refuses a banned member', async () => {
    const { client, user } = await forum.loginAs();
    const sid = client.cookies.get('palaver.sid')!;
    await forum.ctx.users.ban({ uid: 0, groups: ['administrators'], isAdmin: true, isGlobalMod: true }, user.uid, 0, 'spam');
    // The ban ended the session; a session of the same member made afterwards is still refused.
    const newSid = await forum.ctx.auth.createSession(user.uid, '127.0.0.1', 'test', 1);
    client.cookies.set('palaver.sid', newSid);
    const err = await connectLive(client, { csrf: forum.ctx.auth.csrfFor('session', newSid) }).catch((e: Error) => e);
    expect((err as Error).message).toBe('[[error:user-banned-reason, spam]]');
    expect(sid).not.toBe(newSid);
  });

  it('tells a socket whose session has ended that it is invalid, then closes it', async () => {
    const { client } = await forum.loginAs();
    const csrf = await client.refreshCsrf();
    const sid = client.cookies.get('palaver.sid')!;
    await forum.ctx.auth.destroySession(hashSecret(sid));
    const socket = track(await liveSocket(client, { csrf }));
    const invalid = nextEvent(socket, 'event:invalid_session');
    const gone = nextEvent<string>(socket, 'disconnect');
    const checked: unknown[] = [];
    socket.on('checkSession', (uid) => checked.push(uid));
    await connect(socket);
    await invalid;
    expect(await gone).toBe('io server disconnect');
    expect(checked).toEqual([]);
  });
});

describe('socket calls', () => {
  it('answers a call once the session has ended with error:revalidate-failure', async () => {
    const { client } = await forum.loginAs();
    const socket = track(await connectLive(client));
    await call(socket, 'meta.rooms.enter', { enter: 'recent_topics' });
    await forum.ctx.auth.destroySession(hashSecret(client.cookies.get('palaver.sid')!));
    await expect(call(socket, 'meta.rooms.leaveCurrent')).rejects.toMatchObject({ key: 'error:revalidate-failure', message: '[[error:revalidate-failure]]' });
  });

  it('answers an unknown call with error:invalid-event and a bad payload with error:invalid-data', async () => {
    const { client } = await forum.loginAs();
    const socket = track(await connectLive(client));
    await expect(call(socket, 'admin.deleteEverything', {})).rejects.toMatchObject({ key: 'error:invalid-event', params: ['admin.deleteEverything'] });
    await expect(call(socket, 'meta.rooms.enter', { enter: 42 })).rejects.toMatchObject({ key: 'error:invalid-data' });
    await expect(call(socket, 'modules.chats.enter', 'abc')).rejects.toMatchObject({ key: 'error:invalid-data' });
    // The socket is still usable after refused calls.
    expect(await call(socket, 'meta.reconnected', {})).toMatchObject({ hostname: hostname() });
  });

  it('sends event:deprecated_call for user.setStatus and still does it', async () => {
    const { client, user } = await forum.loginAs();
    const socket = track(await connectLive(client));
    const deprecated = nextEvent(socket, 'event:deprecated_call');
    expect(await call(socket, 'user.setStatus', 'dnd')).toEqual({ uid: user.uid, status: 'dnd' });
    expect(await deprecated).toEqual({ eventName: 'user.setStatus', replacement: 'PUT /api/v3/users/:uid/status/:status' });
    expect((await forum.ctx.users.get(user.uid))!.status).toBe('dnd');
  });
});

describe('socket.io under a sub-path, websocket only', () => {
  it('serves {relative_path}/socket.io, refuses long-polling when told to, and closes cleanly with sockets open', async () => {
    const sub = await startTestForum({ relativePath: '/forum', env: { PALAVER_SOCKET_TRANSPORTS: 'websocket' } });
    try {
      const { client, user } = await sub.loginAs();
      expect((await client.get('/api/config')).body.socketioTransports).toEqual(['websocket']);
      await expect(connectLive(client, { transports: ['polling'] })).rejects.toThrow();
      const socket = await liveSocket(client);
      const uid = nextEvent<number>(socket, 'checkSession');
      await connect(socket);
      expect(await uid).toBe(user.uid);
      const gone = disconnected(socket);
      const started = Date.now();
      await sub.close();
      expect(Date.now() - started).toBeLessThan(5000);
      expect(await gone).toMatch(/io server disconnect|transport close/);
    } finally {
      await sub.close().catch(() => undefined);
    }
  });
});
