import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, collect, connect, connectLive, liveSocket, nextEvent, delivered, type LiveClient } from '../test/live-client.js';
import { startTestForum, type TestForum } from '../test/harness.js';
import type { HttpClient } from '../test/http-client.js';
import { realtimeOf } from './index.js';

let forum: TestForum;
let admin: HttpClient;
const open: LiveClient[] = [];

/** Closes a socket from the client and resolves once the server has let it go. */
async function closeOnServer(socket: LiveClient): Promise<void> {
  const id = socket.id!;
  socket.disconnect();
  await vi.waitFor(() => expect(realtimeOf(forum.ctx)!.io.of('/').sockets.has(id)).toBe(false), { timeout: 5000, interval: 10 });
}

/** A member with a connected socket, once the news of their own arrival has come back to them. */
async function online(opts: { admin?: boolean } = {}) {
  const { client, user } = await forum.loginAs(opts);
  const socket = await liveSocket(client);
  open.push(socket);
  const arrived = nextEvent<{ uid: number }>(socket, 'event:user_status_change', 5000, (d) => d.uid === user.uid);
  await connect(socket);
  await arrived;
  return { client, socket, uid: user.uid, user };
}

beforeAll(async () => {
  forum = await startTestForum();
  admin = (await forum.loginAs({ admin: true })).client;
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});
afterAll(async () => {
  await forum.close();
});

describe('bans and logouts', () => {
  it('tells a banned member why and until when, then closes every one of their sockets', async () => {
    const m = await online();
    const second = await connectLive(m.client);
    open.push(second);
    const banned = nextEvent(m.socket, 'event:banned');
    const closed = [nextEvent<string>(m.socket, 'disconnect'), nextEvent<string>(second, 'disconnect')];
    const until = Date.now() + 86_400_000;
    expect((await admin.put(`/api/v3/users/${m.uid}/ban`, { until, reason: 'Too much spam' })).status).toBe(200);
    expect(await banned).toEqual({ until, reason: 'Too much spam' });
    expect(await Promise.all(closed)).toEqual(['io server disconnect', 'io server disconnect']);
  });

  it('sends a permanent ban without an end date', async () => {
    const m = await online();
    const banned = nextEvent(m.socket, 'event:banned');
    await admin.put(`/api/v3/users/${m.uid}/ban`, { reason: 'Gone' });
    expect(await banned).toEqual({ reason: 'Gone' });
  });

  it('tells a member they were unbanned', async () => {
    const m = await online();
    const unbanned = nextEvent(m.socket, 'event:unbanned');
    // A connected member is never banned (the ban closes the socket), so the hook is fired as the service would.
    await forum.ctx.hooks.fire('action:user.unbanned', { uid: m.uid, by: 1 });
    await unbanned;
  });

  it('tells a muted member at once, until when and why, keeps their socket open, and tells them when it is lifted', async () => {
    const m = await online();
    const muted = nextEvent(m.socket, 'event:muted');
    const until = Date.now() + 3_600_000;
    expect((await admin.put(`/api/v3/users/${m.uid}/mute`, { until, reason: 'Cool down' })).status).toBe(200);
    expect(await muted).toEqual({ until, reason: 'Cool down' });
    const unmuted = nextEvent(m.socket, 'event:unmuted');
    expect((await admin.del(`/api/v3/users/${m.uid}/mute`)).status).toBe(200);
    await unmuted;
    expect(m.socket.connected).toBe(true);
  });

  it('logs out only the sockets of the session that logged out', async () => {
    const m = await online();
    const other = await forum.loginAs(m.user);
    const otherSocket = await connectLive(other.client);
    open.push(otherSocket);
    const otherLogouts = collect(otherSocket, 'event:logout');
    const logout = nextEvent(m.socket, 'event:logout');
    const closed = nextEvent<string>(m.socket, 'disconnect');
    expect((await m.client.post('/logout', {})).status).toBe(200);
    await logout;
    expect(await closed).toBe('io server disconnect');
    await delivered(forum, otherSocket);
    expect(otherLogouts).toEqual([]);
    expect(otherSocket.connected).toBe(true);
  });

  it('ends the sockets of a deleted account', async () => {
    const m = await online();
    const invalid = nextEvent(m.socket, 'event:invalid_session');
    const closed = nextEvent<string>(m.socket, 'disconnect');
    expect((await admin.del(`/api/v3/users/${m.uid}`, {})).status).toBe(200);
    await invalid;
    expect(await closed).toBe('io server disconnect');
  });
});

describe('presence and status', () => {
  it('announces arrivals and departures to connected members, and reports the status', async () => {
    const watcher = await online();
    const { client, user } = await forum.loginAs();
    const arrived = nextEvent(watcher.socket, 'event:user_status_change');
    const socket = await connectLive(client);
    expect(await arrived).toEqual({ uid: user.uid, status: 'online' });
    expect((await watcher.client.get(`/api/v3/users/${user.uid}/status`)).body.response).toEqual({ status: 'online' });

    // A second tab closing is not a departure; the last one is.
    const tab = await connectLive(client);
    const changes = collect(watcher.socket, 'event:user_status_change');
    await closeOnServer(tab);
    await delivered(forum, watcher.socket);
    expect(changes).toEqual([]);
    const left = nextEvent(watcher.socket, 'event:user_status_change');
    socket.disconnect();
    expect(await left).toEqual({ uid: user.uid, status: 'offline' });
    expect((await watcher.client.get(`/api/v3/users/${user.uid}/status`)).body.response.status).toBe('offline');
  });

  it('saves a chosen status, broadcasts it, and answers the HEAD check', async () => {
    const m = await online();
    const watcher = await online();
    const changed = nextEvent(watcher.socket, 'event:user_status_change');
    const res = await m.client.put(`/api/v3/users/${m.uid}/status/away`, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: { code: 'ok', message: 'OK' }, response: { uid: m.uid, status: 'away' } });
    expect(await changed).toEqual({ uid: m.uid, status: 'away' });
    expect((await forum.ctx.users.get(m.uid))!.status).toBe('away');
    expect((await watcher.client.request('HEAD', `/api/v3/users/${m.uid}/status/away`)).status).toBe(200);
    expect((await watcher.client.request('HEAD', `/api/v3/users/${m.uid}/status/online`)).status).toBe(404);

    // Choosing "offline" makes the member look offline, and their comings and goings silent.
    const hidden = nextEvent(watcher.socket, 'event:user_status_change');
    await m.client.put(`/api/v3/users/${m.uid}/status/offline`, {});
    expect(await hidden).toEqual({ uid: m.uid, status: 'offline' });
    const quiet = collect(watcher.socket, 'event:user_status_change');
    await closeOnServer(m.socket);
    await connectLive(m.client).then((s) => open.push(s));
    await delivered(forum, watcher.socket);
    expect(quiet).toEqual([]);
  });

  it('refuses a bad status, another member’s status, and guests', async () => {
    const m = await online();
    const other = await online();
    const bad = await m.client.put(`/api/v3/users/${m.uid}/status/sleeping`, {});
    expect(bad.status).toBe(400);
    expect(bad.body.status.key).toBe('error:invalid-user-status');
    expect((await other.client.put(`/api/v3/users/${m.uid}/status/dnd`, {})).status).toBe(403);
    expect((await forum.client().put(`/api/v3/users/${m.uid}/status/dnd`, {})).status).toBe(401);
    expect((await admin.put(`/api/v3/users/${m.uid}/status/dnd`, {})).body.response).toEqual({ uid: m.uid, status: 'dnd' });
    expect((await m.client.get('/api/v3/users/999999/status')).status).toBe(404);
  });
});

describe('alerts', () => {
  it('pushes event:alert to every socket of the member', async () => {
    const m = await online();
    const got = nextEvent(m.socket, 'event:alert');
    const alert = { alert_id: 'welcome', title: 'Hello', message: 'Welcome aboard', type: 'info' as const, timeout: 5000 };
    realtimeOf(forum.ctx)!.alert(m.uid, alert);
    expect(await got).toEqual(alert);
    expect(await call(m.socket, 'meta.reconnected')).toHaveProperty('cache-buster');
  });
});
