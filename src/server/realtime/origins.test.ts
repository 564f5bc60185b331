import { io as ioClient, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { startTestForum, type TestForum, type TestMember } from '../test/harness.js';
import { socketOriginAllowed } from './origins.js';

/** A socket for the member's session whose requests carry the Origin header a browser page on `origin` would send. */
async function socketFrom(forum: TestForum, member: TestMember, origin: string | null, transport: 'websocket' | 'polling'): Promise<Socket> {
  const csrf = await member.client.refreshCsrf();
  const base = new URL(forum.baseUrl);
  const cookie = [...member.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return ioClient(base.origin, {
    path: `${base.pathname.replace(/\/$/, '')}/socket.io`,
    query: { _csrf: csrf },
    extraHeaders: { cookie, ...(origin ? { origin } : {}) },
    transports: [transport],
    reconnection: false,
    forceNew: true,
  });
}

/** 'connected', or the refusal's message. */
async function outcome(pending: Promise<Socket>): Promise<string> {
  const socket = await pending;
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (err) => resolve(err.message));
  }).finally(() => socket.close()) as Promise<string>;
}

describe('socket origins (socketioOrigins)', () => {
  let forum: TestForum;
  let member: TestMember;

  beforeAll(async () => {
    forum = await startTestForum({ env: { PALAVER_SOCKET_ORIGINS: 'https://forum.example.org, http://127.0.0.1:*' } });
    member = await forum.member();
  });
  afterAll(async () => forum?.close());

  it('admits a listed origin and refuses another site, over websocket and polling', async () => {
    for (const transport of ['websocket', 'polling'] as const) {
      expect(await outcome(socketFrom(forum, member, 'https://forum.example.org', transport))).toBe('connected');
      expect(await outcome(socketFrom(forum, member, `http://127.0.0.1:${new URL(forum.baseUrl).port}`, transport))).toBe('connected');
      // A page on another site opening a socket with the member's cookies.
      expect(await outcome(socketFrom(forum, member, 'https://evil.example.net', transport))).not.toBe('connected');
      expect(await outcome(socketFrom(forum, member, 'http://forum.example.org', transport))).not.toBe('connected');
      // No Origin: not a browser page (a native client).
      expect(await outcome(socketFrom(forum, member, null, transport))).toBe('connected');
    }
  });

  it('the client config reports the list the server applies', async () => {
    const config = await member.client.get('/api/config');
    expect(config.body.socketioOrigins).toBe('https://forum.example.org,http://127.0.0.1:*');
  });

  it('matches scheme, host and port; the page\'s own origin always passes; a bad list is a config error', () => {
    const list = ['https://forum.example.org', 'http://localhost:*'];
    expect(socketOriginAllowed('https://forum.example.org', 'x', list)).toBe(true);
    expect(socketOriginAllowed('https://forum.example.org:443', 'x', list)).toBe(true);
    expect(socketOriginAllowed('https://forum.example.org:8443', 'x', list)).toBe(false);
    expect(socketOriginAllowed('http://localhost:5173', 'x', list)).toBe(true);
    expect(socketOriginAllowed('https://other.example', 'other.example', list)).toBe(true);
    expect(socketOriginAllowed('https://other.example', 'forum.example.org', list)).toBe(false);
    expect(socketOriginAllowed('null', 'forum.example.org', list)).toBe(false);
    expect(socketOriginAllowed('https://any.example', 'x', ['*'])).toBe(true);
    // The default: the configured URL's host on any port.
    expect(loadConfig({ PALAVER_URL: 'https://forum.example.org/f', PALAVER_SECRET: 'x'.repeat(16) }, '/tmp').socketOrigins).toBeNull();
    expect(() => loadConfig({ PALAVER_SOCKET_ORIGINS: 'forum.example.org', PALAVER_SECRET: 'x'.repeat(16) }, '/tmp')).toThrow(ConfigError);
  });
});
