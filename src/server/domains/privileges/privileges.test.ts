import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_OFF, startTestForum, type TestForum } from '../../test/harness.js';
import { REGISTERED } from '../groups/service.js';
import { makeCategory } from '../topics/testing.js';
import type { Viewer } from './service.js';

describe('privilege cache', () => {
  let forum: TestForum;
  let member: Viewer;
  beforeAll(async () => {
    forum = await startTestForum();
    member = await forum.ctx.privileges.viewer((await forum.createUser()).uid);
  });
  afterAll(async () => forum?.close());

  // Defect 5: the cache was dropped inside the open transaction, so a read made while the
  // grant was not yet committed cached the old grants for 5 s.
  it('does not keep grants read by a concurrent request while the grant was uncommitted', async () => {
    const { ctx } = forum;
    const cid = await makeCategory(ctx);
    await ctx.privileges.take(cid, ['find', 'read', 'topics:read'], REGISTERED);
    let granted!: () => void;
    const written = new Promise<void>((r) => (granted = r));
    let commit!: () => void;
    const held = new Promise<void>((r) => (commit = r));
    const tx = ctx.db.transaction().execute(async () => {
      await ctx.privileges.give(cid, ['find', 'read', 'topics:read'], REGISTERED);
      granted();
      await held;
    });
    await written;
    // Another request reads now: it sees the committed state (no grant yet) and caches it.
    expect(await ctx.privileges.can(member, 'read', cid)).toBe(false);
    commit();
    await tx;
    // Right after the commit, members see the new category.
    expect(await ctx.privileges.can(member, 'read', cid)).toBe(true);
  });

  // A viewer's privileges in a category are shared by every viewer alike (forCategory): a grant
  // to one member, or to a group, changes what they are at once, and only for those it names.
  it("follows a grant to one member or a group at once, and shows it only to whom it names", async () => {
    const { ctx } = forum;
    const cid = await makeCategory(ctx);
    const other = await ctx.privileges.viewer((await forum.createUser()).uid);
    const before = await ctx.privileges.forCategory(member, cid);
    expect(before).toMatchObject({ isAdminOrMod: false, 'topics:reply': true });
    // Kept for the other member (the same object), unless caches are off.
    if (CACHE_OFF) expect(await ctx.privileges.forCategory(other, cid)).toEqual(before);
    else expect(await ctx.privileges.forCategory(other, cid)).toBe(before);
    await ctx.privileges.give(cid, ['moderate'], `uid:${member.uid}`);
    expect(await ctx.privileges.forCategory(member, cid)).toMatchObject({ isAdminOrMod: true, view_deleted: true });
    expect(await ctx.privileges.forCategory(other, cid)).toMatchObject({ isAdminOrMod: false, view_deleted: false });
    await ctx.privileges.take(cid, ['topics:reply'], REGISTERED);
    expect((await ctx.privileges.forCategory(other, cid))['topics:reply']).toBe(false);
    await ctx.privileges.give(cid, ['topics:reply'], REGISTERED);
    expect((await ctx.privileges.forCategory(other, cid))['topics:reply']).toBe(true);
  });

  // Defect 10 (privileges): the grant and its audit event are one transaction.
  it('writes a grant and its audit event together, or neither', async () => {
    const { ctx } = forum;
    const cid = await makeCategory(ctx);
    await expect(
      ctx.privileges.change(true, cid, ['moderate'], REGISTERED, async (tx) => {
        await ctx.events.log('privilege-give', 1, { cid }, '', tx);
        throw new Error('audit failed');
      }),
    ).rejects.toThrow('audit failed');
    const audited = async () => (await ctx.events.recent(50, 'privilege-give')).filter((e) => e.data.cid === cid).length;
    expect((await ctx.privileges.list(cid)).moderate).not.toContain(REGISTERED);
    expect(await audited()).toBe(0);
    await ctx.privileges.change(true, cid, ['moderate'], REGISTERED, (tx) => ctx.events.log('privilege-give', 1, { cid }, '', tx));
    expect((await ctx.privileges.list(cid)).moderate).toContain(REGISTERED);
    expect(await audited()).toBe(1);
    expect(await ctx.privileges.isModerator(member, cid)).toBe(true);
  });

  it.skipIf(CACHE_OFF)('an administrator clears the grant table in every process; the next read loads it again', async () => {
    const { ctx } = forum;
    const admin = await forum.member({ admin: true });
    await ctx.privileges.can(member, 'chat');
    const grants = ctx.cacheRegistry.byName('privileges')!;
    expect(grants.size).toBe(1);
    expect((await admin.client.del('/api/v3/admin/cache/privileges')).status).toBe(200);
    expect(grants.size).toBe(0);
    expect(await ctx.privileges.can(member, 'chat')).toBe(true);
    expect(grants.size).toBe(1);
  });
});
