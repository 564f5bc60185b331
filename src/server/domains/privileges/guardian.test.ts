import { describe, expect, it } from 'vitest';
import { Guardian, type GrantTable } from './guardian.js';
import type { Viewer } from './service.js';

const table = (grants: Record<string, string[]>): GrantTable => new Map(Object.entries(grants).map(([k, v]) => [k, new Set(v)]));
const member = (uid: number, groups = ['registered-users']): Viewer => ({ uid, groups, isAdmin: false, isGlobalMod: false });
const guest: Viewer = { uid: 0, groups: ['guests'], isAdmin: false, isGlobalMod: false };
const admin: Viewer = { uid: 1, groups: ['administrators'], isAdmin: true, isGlobalMod: false };
const settings = { postEditDuration: 60, postDeleteDuration: 0 };
const grants = table({
  '1:read': ['registered-users', 'guests'],
  '1:topics:read': ['registered-users', 'guests'],
  '1:topics:reply': ['registered-users'],
  '1:posts:edit': ['registered-users'],
  '1:posts:delete': ['registered-users'],
  '1:moderate': ['uid:9'],
  '2:read': ['registered-users'],
  '2:topics:read': ['registered-users'],
});
const topic = { cid: 1, uid: 5, deleted: 0, locked: 0, scheduled: 0, main_pid: 100 };
const g = (v: Viewer) => new Guardian(v, grants, settings);

describe('the guardian', () => {
  it('lets readers of a category read its topics, and 404s the others so a topic cannot be probed', () => {
    expect(g(guest).canReadTopic(topic)).toBe(true);
    expect(g(guest).canReadTopic({ ...topic, cid: 2 })).toBe(false);
    expect(() => g(guest).assertReadTopic({ ...topic, cid: 2 })).toThrow(expect.objectContaining({ status: 404, key: 'error:no-topic' }));
    expect(g(member(5)).canReadCategory(2)).toBe(true);
  });

  it('shows a deleted topic to its author and moderators only, a scheduled one to its author while they may schedule, and admins', () => {
    const deleted = { ...topic, deleted: 1 };
    expect(g(member(5)).canReadTopic(deleted)).toBe(true);
    expect(g(member(6)).canReadTopic(deleted)).toBe(false);
    expect(g(member(9)).canReadTopic(deleted)).toBe(true);
    const scheduled = { ...topic, scheduled: 1 };
    expect(g(member(5)).canReadTopic(scheduled)).toBe(false);
    expect(new Guardian(member(5), table({ ...Object.fromEntries([...grants].map(([k, v]) => [k, [...v]])), '1:topics:schedule': ['registered-users'] }), settings).canReadTopic(scheduled)).toBe(true);
    expect(g(admin).canReadTopic(scheduled)).toBe(true);
  });

  it('refuses replies to guests (401), locked topics to members (403) but not to moderators', () => {
    expect(() => g(guest).assertReply(topic)).toThrow(expect.objectContaining({ status: 401 }));
    expect(() => g(member(6)).assertReply({ ...topic, locked: 1 })).toThrow(expect.objectContaining({ status: 403, key: 'error:topic-locked' }));
    expect(() => g(member(9)).assertReply({ ...topic, locked: 1 })).not.toThrow();
    expect(() => g(member(6)).assertReply({ ...topic, cid: 2 })).toThrow(expect.objectContaining({ status: 403 }));
  });

  it('gives authors their post tools within the edit duration, moderators always, and never the main post delete', () => {
    const post = { pid: 101, uid: 6, created: Date.now(), deleted: 0, deleter_uid: 0 };
    expect(g(member(6)).postTools(topic)(post)).toEqual({ edit: true, delete: true, moderate: false });
    expect(g(member(6)).postTools(topic)({ ...post, created: Date.now() - 120_000 })).toMatchObject({ edit: false, delete: true });
    expect(g(member(7)).postTools(topic)(post)).toEqual({ edit: false, delete: false, moderate: false });
    expect(g(member(9)).postTools(topic)({ ...post, pid: 100 })).toEqual({ edit: true, delete: false, moderate: true });
    expect(g(guest).postTools(topic)(post)).toEqual({ edit: false, delete: false, moderate: false });
  });

  it('shares one frozen answer of category privileges between viewers alike', () => {
    const byGroups = table({ '1:read': ['registered-users'], '1:topics:read': ['registered-users'] });
    const shared = new Map();
    const a = new Guardian(member(6), byGroups, settings, shared).categoryPrivileges(1);
    expect(new Guardian(member(7), byGroups, settings, shared).categoryPrivileges(1)).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    // A table that grants to member 9 alone keys answers by member: theirs is their own.
    const perMember = new Map();
    const nine = new Guardian(member(9), grants, settings, perMember).categoryPrivileges(1);
    expect(nine).toMatchObject({ isAdminOrMod: true });
    expect(new Guardian(member(6), grants, settings, perMember).categoryPrivileges(1)).not.toBe(nine);
  });
});
