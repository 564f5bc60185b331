import { generateCryptoKeyPair, signRequest } from '@fedify/fedify';
import { Follow } from '@fedify/vocab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../setup.js';
import { startTestForum, type TestForum } from '../../test/harness.js';
import { freePort } from '../../test/net.js';

// Two forums on loopback, each with its own database and port (the forum's URL names the port,
// as its actors' ids do). PALAVER_OUTGOING_ALLOW=127.0.0.1 (the harness's) lets them fetch each
// other's documents and deliver to each other; a production forum leaves it empty.
const AP = 'application/activity+json';
let a: TestForum;
let b: TestForum;
let cid: number;
let handle: string;
let bUid: number;

async function forumOn(): Promise<TestForum> {
  const port = await freePort();
  return startTestForum({ port, settings: { activitypubEnabled: true } });
}

/** Runs both forums' due jobs (Fedify's queue) until neither has any left. */
async function drain(): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await Promise.all([a.ctx.hooks.idle(), b.ctx.hooks.idle()]);
    const ran = (await a.ctx.jobs.runDue()) + (await b.ctx.jobs.runDue());
    if (!ran) return;
  }
}

beforeAll(async () => {
  [a, b] = await Promise.all([forumOn(), forumOn()]);
  const cat = await a.ctx.categories.create(SYSTEM, { name: 'Fediverse talk' });
  cid = cat.cid;
  handle = cat.handle;
  bUid = (await b.createUser({ username: 'bob' })).uid;
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
}, 60_000);

describe('federation', () => {
  it('answers WebFinger, NodeInfo and the actors as ActivityPub JSON, and HTML to a browser', async () => {
    const wf = await fetch(`${a.baseUrl}/.well-known/webfinger?resource=acct:${handle}@${new URL(a.baseUrl).host}`);
    expect(wf.status).toBe(200);
    const links = ((await wf.json()) as { links: { rel: string; href: string }[] }).links;
    expect(links.find((l) => l.rel === 'self')?.href).toBe(`${a.baseUrl}/category/${cid}`);

    const group = await fetch(`${a.baseUrl}/category/${cid}`, { headers: { accept: AP } });
    expect(group.status).toBe(200);
    const json = (await group.json()) as Record<string, unknown>;
    expect(json.type).toBe('Group');
    expect(json.preferredUsername).toBe(handle);
    expect(json.inbox).toBe(`${a.baseUrl}/category/${cid}/inbox`);
    expect((json.publicKey as { publicKeyPem: string }).publicKeyPem).toMatch(/BEGIN PUBLIC KEY/);
    expect(JSON.stringify(json)).not.toMatch(/PRIVATE|"d":/);

    const html = await fetch(`${a.baseUrl}/category/${cid}`, { headers: { accept: 'text/html' } });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/text\/html/);

    const person = (await (await fetch(`${b.baseUrl}/uid/${bUid}`, { headers: { accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' } })).json()) as Record<string, unknown>;
    expect(person.type).toBe('Person');
    expect(person.preferredUsername).toBe('bob');

    const ni = await fetch(`${a.baseUrl}/nodeinfo/2.1`);
    expect(((await ni.json()) as { software: { name: string } }).software.name).toBe('palaver');
    const hostMeta = await fetch(`${a.baseUrl}/.well-known/host-meta`);
    expect(await hostMeta.text()).toContain(`${a.baseUrl}/.well-known/webfinger?resource={uri}`);
  });

  it("B's member follows A's category; A accepts; a post on A reaches B's inbox", async () => {
    const cb = (await b.ctx.federation.engine()).federation.createContext(new URL(b.baseUrl), undefined);
    const group = new URL(`${a.baseUrl}/category/${cid}`);
    const follow = new Follow({ id: new URL(`${b.baseUrl}/uid/${bUid}#follow/1`), actor: cb.getActorUri(`uid/${bUid}`), object: group });
    await cb.sendActivity({ identifier: `uid/${bUid}` }, { id: group, inboxId: new URL(`${a.baseUrl}/category/${cid}/inbox`) }, follow);
    await drain();
    expect(await a.ctx.federation.followers(`category/${cid}`)).toEqual([`${b.baseUrl}/uid/${bUid}`]);
    const followers = (await (await fetch(`${a.baseUrl}/category/${cid}/followers`, { headers: { accept: AP } })).json()) as { totalItems: number };
    expect(followers.totalItems).toBe(1);
    const accepted = (await b.ctx.federation.received()).find((r) => r.type === 'Accept');
    expect(accepted?.actor).toBe(group.href);

    const author = await a.createUser({ username: 'alice' });
    const { topic, post } = await a.ctx.topics.create(await a.ctx.privileges.viewer(author.uid), { cid, title: 'Hello from A', content: 'Greetings, fediverse.', tags: [] });
    await drain();
    const got = (await b.ctx.federation.received()).find((r) => r.type === 'Announce');
    expect(got).toBeDefined();
    const body = JSON.parse(got!.body) as { actor: string; object: { type: string; object: { id: string; content: string; context?: string; audience?: string } } };
    expect(body.actor).toBe(group.href);
    expect(body.object.type).toBe('Create');
    expect(body.object.object.id).toBe(`${a.baseUrl}/post/${post.pid}`);
    expect(body.object.object.content).toContain('Greetings, fediverse.');
    expect(body.object.object.audience).toBe(group.href);

    // The post and its topic as ActivityPub JSON; the topic's page as HTML to a browser.
    const note = (await (await fetch(`${a.baseUrl}/post/${post.pid}`, { headers: { accept: AP } })).json()) as Record<string, unknown>;
    expect(note.type).toBe('Note');
    expect(note.attributedTo).toBe(`${a.baseUrl}/uid/${author.uid}`);
    expect(note.context).toBe(`${a.baseUrl}/topic/${topic.tid}`);
    const ctxColl = (await (await fetch(`${a.baseUrl}/topic/${topic.tid}`, { headers: { accept: AP } })).json()) as Record<string, unknown>;
    expect(ctxColl.type).toBe('OrderedCollection');
    expect(ctxColl.totalItems).toBe(1);

    // A reply, its edit and its deletion follow it across.
    const viewer = await a.ctx.privileges.viewer(author.uid);
    const reply = await a.ctx.posts.reply(viewer, topic.tid, { content: 'A reply from A.' });
    const pid = (reply as { pid?: number; post?: { pid: number } }).pid ?? (reply as { post: { pid: number } }).post.pid;
    // Each step delivered before the next (a listener re-reads the post: a post deleted before
    // its creation went out is not sent as created).
    await drain();
    await a.ctx.posts.edit(viewer, pid, { content: 'A reply from A, edited.' });
    await drain();
    await a.ctx.posts.delete(viewer, pid);
    await drain();
    const announced = (await b.ctx.federation.received())
      .filter((r) => r.type === 'Announce')
      .map((r) => JSON.parse(r.body) as { object: { type: string; object: { id?: string; content?: string; inReplyTo?: string } | string } });
    const about = (type: string) => announced.find((x) => x.object.type === type && (typeof x.object.object === 'string' ? x.object.object : x.object.object.id) === `${a.baseUrl}/post/${pid}`);
    const created = about('Create')!.object.object as { content: string; inReplyTo: string };
    expect(created.content).toContain('A reply from A.');
    expect(created.inReplyTo).toBe(`${a.baseUrl}/post/${post.pid}`);
    expect((about('Update')!.object.object as { content: string }).content).toContain('A reply from A, edited.');
    expect(about('Delete')).toBeDefined();
    // A deleted post is not served as ActivityPub any more.
    expect((await fetch(`${a.baseUrl}/post/${pid}`, { headers: { accept: AP } })).status).toBe(404);
  }, 60_000);

  it('serves only what a guest may read', async () => {
    const hidden = await a.ctx.categories.create(SYSTEM, { name: 'Members only' });
    await a.ctx.categories.rescind(SYSTEM, hidden.cid, 'groups:read', 'guests');
    await a.ctx.categories.rescind(SYSTEM, hidden.cid, 'groups:topics:read', 'guests');
    const author = await a.createUser();
    const { topic, post } = await a.ctx.topics.create(await a.ctx.privileges.viewer(author.uid), { cid: hidden.cid, title: 'Not for guests', content: 'Members read this.' });
    for (const path of [`/category/${hidden.cid}`, `/post/${post.pid}`, `/topic/${topic.tid}`]) {
      expect((await fetch(`${a.baseUrl}${path}`, { headers: { accept: AP } })).status, path).toBe(404);
    }
  });

  it('refuses a forged signature (401)', async () => {
    // Signed with a key that is not the one B's actor publishes, under that actor's key id.
    const { privateKey } = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    const actor = `${b.baseUrl}/uid/${bUid}`;
    const body = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: `${actor}#forged`, type: 'Follow', actor, object: `${a.baseUrl}/category/${cid}` });
    const req = new Request(`${a.baseUrl}/inbox`, { method: 'POST', body, headers: { 'content-type': AP } });
    const signed = await signRequest(req, privateKey, new URL(`${actor}#main-key`));
    const res = await fetch(signed);
    expect(res.status).toBe(401);
    expect((await a.ctx.federation.received()).some((r) => r.activity_id === `${actor}#forged`)).toBe(false);
    // Unsigned: refused too.
    const unsigned = await fetch(`${a.baseUrl}/inbox`, { method: 'POST', body, headers: { 'content-type': AP } });
    expect(unsigned.status).toBe(401);
  });

  it('refuses a denied instance, and answers 404 everywhere while off', async () => {
    await a.ctx.settings.set({ activitypubDenyList: `example.org\n${new URL(b.baseUrl).hostname}` });
    const body = JSON.stringify({ id: `${b.baseUrl}/x`, type: 'Follow', actor: `${b.baseUrl}/uid/${bUid}`, object: `${a.baseUrl}/category/${cid}` });
    expect((await fetch(`${a.baseUrl}/inbox`, { method: 'POST', body, headers: { 'content-type': AP } })).status).toBe(403);
    await a.ctx.settings.set({ activitypubDenyList: '', activitypubEnabled: false });
    for (const path of ['/.well-known/webfinger?resource=acct:alice@127.0.0.1', '/.well-known/nodeinfo', '/nodeinfo/2.1', '/inbox', '/actor']) {
      expect((await fetch(`${a.baseUrl}${path}`, { headers: { accept: AP } })).status, path).toBe(404);
    }
    expect((await fetch(`${a.baseUrl}/category/${cid}`, { headers: { accept: AP } })).status).toBe(404);
    // The page itself still answers a browser.
    expect((await fetch(`${a.baseUrl}/category/${cid}`)).status).toBe(200);
  });
});
