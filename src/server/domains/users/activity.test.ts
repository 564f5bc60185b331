import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, connect, liveSocket, type LiveClient } from '../../test/live-client.js';
import { startTestForum, type TestForum, type TestMember } from '../../test/harness.js';

let forum: TestForum;
let admin: TestMember;
const sockets: LiveClient[] = [];
const HOUR = 3_600_000;

beforeAll(async () => {
  forum = await startTestForum();
  admin = await forum.member({ admin: true });
  await admin.client.put('/api/v3/admin/widgets', { template: 'global', areas: { sidebar: [{ type: 'onlineusers', title: 'Who is here', count: 20 }] } });
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => forum?.close());

/** Puts a member's last activity (and their sessions') an hour back: as if they had been away. */
async function away(uid: number): Promise<number> {
  const at = Date.now() - HOUR;
  await forum.ctx.db.updateTable('users').set({ lastonline: at }).where('uid', '=', uid).execute();
  await forum.ctx.db.updateTable('sessions').set({ last_seen: at }).where('uid', '=', uid).execute();
  return at;
}

const lastOnline = async (uid: number) => Number((await forum.ctx.db.selectFrom('users').select('lastonline').where('uid', '=', uid).executeTakeFirstOrThrow()).lastonline);
const sessionSeen = async (uid: number) => Number((await forum.ctx.db.selectFrom('sessions').select('last_seen').where('uid', '=', uid).executeTakeFirstOrThrow()).last_seen);

async function widgetNames(): Promise<string> {
  const page = await forum.client().get<{ widgets: Record<string, { html: string }[]> }>('/api/recent');
  return page.body.widgets.sidebar!.map((w) => w.html).join('');
}

describe('presence follows activity', () => {
  it('a page load moves "last online" and the session\'s last activity, in a batch after the request; the member then shows online', async () => {
    const member = await forum.member();
    const at = await away(member.user.uid);
    await vi.waitFor(async () => expect(await widgetNames()).not.toContain(member.user.username), { timeout: 10_000, interval: 200 });

    const before = Date.now();
    expect((await member.client.get('/api/recent')).status).toBe(200);
    // Not written in the request: noted, then written by the recorder's batch.
    expect(forum.ctx.activity.pending()).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(await lastOnline(member.user.uid)).toBeGreaterThanOrEqual(before), { timeout: 10_000, interval: 100 });
    expect(await sessionSeen(member.user.uid)).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThan(before);

    // The online-members widget lists them, the members list's "online" section puts them first among the quiet ones,
    // and the admin dashboard counts them.
    await vi.waitFor(async () => expect(await widgetNames()).toContain(member.user.username), { timeout: 10_000, interval: 200 });
    const dashboard = await admin.client.get<{ online: { members: number } }>('/api/admin');
    expect(dashboard.body.online.members).toBeGreaterThanOrEqual(2);
    const sessions = await member.client.get<{ sessions: { lastSeen: number; current: boolean }[] }>(`/api/user/${member.user.userslug}/sessions`);
    expect(sessions.body.sessions.find((s) => s.current)!.lastSeen).toBeGreaterThanOrEqual(before);
  });

  it('writes a busy member at most once per interval: requests right after a write queue nothing', async () => {
    const member = await forum.member();
    await away(member.user.uid);
    await member.client.get('/api/recent');
    await forum.ctx.activity.flush();
    const written = await lastOnline(member.user.uid);
    for (let i = 0; i < 10; i++) expect((await member.client.get('/api/recent')).status).toBe(200);
    expect(forum.ctx.activity.pending()).toBe(0);
    await forum.ctx.activity.flush();
    expect(await lastOnline(member.user.uid)).toBe(written);
  });

  it('socket activity counts too: a member with only a socket open shows online', async () => {
    const member = await forum.member();
    await away(member.user.uid);
    await forum.ctx.activity.flush();
    const before = Date.now();
    const socket = await liveSocket(member.client);
    sockets.push(socket);
    await connect(socket);
    await call(socket, 'meta.reconnected');
    await vi.waitFor(async () => expect(await lastOnline(member.user.uid)).toBeGreaterThanOrEqual(before), { timeout: 10_000, interval: 100 });
  });
});
