import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestForum, type TestForum } from '../../test/harness.js';
import type { HttpClient } from '../../test/http-client.js';
import type { UserRow } from '../users/store.js';
import { makeCategory, postReply, postTopic } from './testing.js';

let forum: TestForum;
let member: { client: HttpClient; user: UserRow };
let tid: number;
let pid: number;

beforeAll(async () => {
  forum = await startTestForum();
  const cid = await makeCategory(forum.ctx, 'Matrix');
  member = await forum.loginAs();
  const author = await forum.loginAs();
  const t = await postTopic(author.client, cid);
  tid = t.tid;
  pid = (await postReply(author.client, tid)).pid;
});
afterAll(async () => {
  await forum.close();
});

const reply = { content: 'A reply long enough to pass' };
const edit = { content: 'An edit long enough to pass' };

/** Every write route: method, path (with :tid / :pid), body. */
const WRITES: [string, string, unknown][] = [
  ['POST', '/api/v3/topics/:tid', reply],
  ['DELETE', '/api/v3/topics/:tid', undefined],
  ['PUT', '/api/v3/topics/:tid/state', undefined],
  ['DELETE', '/api/v3/topics/:tid/state', undefined],
  ['PUT', '/api/v3/topics/:tid/lock', undefined],
  ['DELETE', '/api/v3/topics/:tid/lock', undefined],
  ['PUT', '/api/v3/topics/:tid/pin', undefined],
  ['DELETE', '/api/v3/topics/:tid/pin', undefined],
  ['PUT', '/api/v3/topics/:tid/follow', undefined],
  ['DELETE', '/api/v3/topics/:tid/follow', undefined],
  ['PUT', '/api/v3/topics/:tid/ignore', undefined],
  ['DELETE', '/api/v3/topics/:tid/ignore', undefined],
  ['PUT', '/api/v3/topics/:tid/tags', { tags: ['matrix'] }],
  ['DELETE', '/api/v3/topics/:tid/tags', undefined],
  ['PUT', '/api/v3/posts/:pid', edit],
  ['DELETE', '/api/v3/posts/:pid', undefined],
  ['PUT', '/api/v3/posts/:pid/state', undefined],
  ['DELETE', '/api/v3/posts/:pid/state', undefined],
  ['PUT', '/api/v3/posts/:pid/vote', { delta: 1 }],
  ['DELETE', '/api/v3/posts/:pid/vote', undefined],
  ['PUT', '/api/v3/posts/:pid/bookmark', undefined],
  ['DELETE', '/api/v3/posts/:pid/bookmark', undefined],
];
const path = (p: string, id?: number) => p.replace(':tid', String(id ?? tid)).replace(':pid', String(id ?? pid));

describe('write routes, each', () => {
  it.each(WRITES)('%s %s: 401 for guests', async (method, p, body) => {
    const res = await forum.client().request(method, path(p), body);
    expect(res.status).toBe(401);
    expect(res.body.status.key).toBe('error:not-logged-in');
  });

  it.each(WRITES)('%s %s: 403 without the CSRF token', async (method, p, body) => {
    const res = await member.client.request(method, path(p), body, { csrf: false });
    expect(res.status).toBe(403);
    expect(res.body.status.key).toBe('error:invalid-csrf');
  });

  it.each(WRITES)('%s %s: 404 for an unknown id', async (method, p, body) => {
    const res = await member.client.request(method, path(p, 999999), body);
    expect(res.status).toBe(404);
  });

  it.each(WRITES)('%s %s: 400 for a non-numeric id', async (method, p, body) => {
    const res = await member.client.request(method, p.replace(/:tid|:pid/, 'abc'), body);
    expect(res.status).toBe(400);
    expect(res.body.status.key).toBe('error:invalid-data');
  });

  it('POST /api/v3/topics/:tid: 403 for a member without topics:reply', async () => {
    const cid = await makeCategory(forum.ctx, 'Read only');
    const t = await postTopic((await forum.loginAs({ admin: true })).client, cid);
    await forum.ctx.privileges.take(cid, ['topics:reply'], 'registered-users');
    const res = await member.client.post(`/api/v3/topics/${t.tid}`, reply);
    expect(res.status).toBe(403);
    expect(res.body.status.key).toBe('error:no-privileges');
  });

  it('answers in the v3 envelope with a translated message', async () => {
    const res = await member.client.post(`/api/v3/topics/${tid}`, { content: 'x' });
    expect(res.body.status).toEqual({
      code: 'bad-request',
      message: 'Please enter a longer post. Posts should contain at least 8 characters.',
      key: 'error:content-too-short',
      params: [8],
    });
    expect(res.body.response).toEqual({});
  });
});
