import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum, type TestMember } from '../test/harness.js';
import { call, connectLive } from '../test/live-client.js';
import { makeCategory, postTopic } from '../domains/topics/testing.js';
import { MAINTENANCE_RETRY_AFTER } from './maintenance.js';

describe('maintenance mode (the admin switch)', () => {
  let forum: TestForum;
  let admin: TestMember;
  let member: TestMember;
  let crew: TestMember;
  let cid: number;

  beforeAll(async () => {
    forum = await startTestForum();
    admin = await forum.member({ admin: true });
    member = await forum.member();
    crew = await forum.member();
    cid = await makeCategory(forum.ctx, 'Open during works');
    await forum.ctx.groups.create(admin.viewer, { name: 'Crew' });
    await forum.ctx.groups.join('Crew', crew.user.uid);
  });
  afterAll(async () => forum?.close());

  /** Changes settings as the admin does, through the admin API. */
  async function set(values: Record<string, unknown>) {
    const res = await admin.client.put('/api/v3/admin/settings', { values });
    expect(res.status).toBe(200);
  }

  it('off: everyone uses the forum', async () => {
    expect((await forum.client().get('/recent')).status).toBe(200);
    expect((await member.client.get('/api/recent')).status).toBe(200);
  });

  it('on: guests and members get the maintenance page with the admin message and Retry-After; the API answers 503 error:maintenance-mode', async () => {
    await set({ maintenanceMode: true, maintenanceModeMessage: 'Moving to a new server, back by 18:00 UTC.', groupsExemptFromMaintenanceMode: 'Crew' });
    try {
      const html = await forum.client().get('/recent');
      expect(html.status).toBe(503);
      expect(html.headers.get('retry-after')).toBe(String(MAINTENANCE_RETRY_AFTER));
      expect(html.text).toContain('Moving to a new server, back by 18:00 UTC.');
      const page = await member.client.get('/api/recent');
      expect(page.status).toBe(503);
      expect(page.body).toMatchObject({ status: 503, message: 'Moving to a new server, back by 18:00 UTC.' });
      const write = await member.client.post('/api/v3/topics', { cid, title: 'During the works', content: 'Refused while it runs.' });
      expect(write.status).toBe(503);
      expect(write.body.status.key).toBe('error:maintenance-mode');
      // Sign-in stays reachable, so an administrator can come in.
      expect((await forum.client().get('/login')).status).toBe(200);
    } finally {
      await set({ maintenanceMode: false });
    }
  });

  it('on: administrators and the listed groups still use the forum, over HTTP and sockets; others\' socket calls are refused', async () => {
    const sockets = await Promise.all([connectLive(member.client), connectLive(crew.client), connectLive(admin.client)]);
    const [memberLive, crewLive, adminLive] = sockets;
    await set({ maintenanceMode: true, maintenanceModeMessage: '', groupsExemptFromMaintenanceMode: 'Crew' });
    try {
      expect((await admin.client.get('/api/recent')).status).toBe(200);
      expect((await crew.client.get('/api/recent')).status).toBe(200);
      expect((await postTopic(crew.client, cid, { title: 'Crew works on it' })).tid).toBeGreaterThan(0);
      // With no message of the admin's, the standard text.
      const html = await member.client.get('/recent');
      expect(html.status).toBe(503);
      expect(html.text).toContain('undergoing maintenance');
      await expect(call(memberLive!, 'plugins.mentions.listGroups')).rejects.toMatchObject({ key: 'error:maintenance-mode' });
      expect(await call(crewLive!, 'plugins.mentions.listGroups')).toEqual(expect.arrayContaining(['Crew']));
      expect(await call(adminLive!, 'plugins.mentions.listGroups')).toEqual(expect.arrayContaining(['administrators']));
    } finally {
      await set({ maintenanceMode: false });
      for (const s of sockets) s.close();
    }
    expect((await member.client.get('/api/recent')).status).toBe(200);
  });
});
