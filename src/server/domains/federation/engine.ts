import { Temporal } from '@js-temporal/polyfill';
import {
  createFederation,
  exportJwk,
  FetchError,
  generateCryptoKeyPair,
  preloadedContexts,
  type Context,
  type DocumentLoader,
  type Federation,
  type RemoteDocument,
} from '@fedify/fedify';
import {
  Accept,
  Activity,
  Announce,
  Application,
  Create,
  Delete,
  Endpoints,
  Follow,
  Group,
  Hashtag,
  Note,
  OrderedCollection,
  Person,
  PUBLIC_COLLECTION,
  type Recipient,
  Tombstone,
  Undo,
  Update,
} from '@fedify/vocab';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PostRow } from '../posts/store.js';
import type { TopicRow } from '../topics/store.js';
import { DbKvStore } from './kv.js';
import { deniedHosts, parseIdentifier, type PostEvent } from './names.js';
import type { JobsMessageQueue } from './queue.js';
import type { FederationDeps } from './deps.js';
import * as store from './store.js';

const FETCH_TIMEOUT_MS = 10_000;
const FETCH_MAX_BYTES = 1024 * 1024;
// Items of a topic's collection served at once (FEP-7888 context).
const TOPIC_ITEMS = 500;

let version: string | null = null;

/** Palaver's version (NodeInfo's software.version) from the package.json above this file. */
function palaverVersion(): string {
  if (version !== null) return version;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string };
      if (pkg.version) return (version = pkg.version);
    } catch {
      // not here: one level up
    }
    dir = dirname(dir);
  }
  return (version = '0.0.0');
}

// Node 20 has no global `navigator` (Node 21 and later have one): Fedify reads
// `navigator.userAgent` whenever it imports an Ed25519 key (its queued deliveries carry the keys),
// and throws on Node 20 without it. The shim has the shape of Node 22's own object.
if (typeof (globalThis as { navigator?: unknown }).navigator === 'undefined') {
  Object.defineProperty(globalThis, 'navigator', {
    value: { userAgent: `Node.js/${process.versions.node.split('.')[0]}`, language: 'en-US', hardwareConcurrency: availableParallelism(), platform: process.platform },
    configurable: true,
    writable: true,
  });
}

/**
 * A stored JWK as a CryptoKey, as Fedify's importJwk makes it. Not Fedify's own: on Node 20 it
 * reads the global `navigator` (Node 21+) for an Ed25519 key and throws.
 */
async function importKey(jwk: JsonWebKey, type: 'public' | 'private'): Promise<CryptoKey> {
  const usages: KeyUsage[] = type === 'public' ? ['verify'] : ['sign'];
  if (jwk.kty === 'RSA') return crypto.subtle.importKey('jwk', jwk, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, true, usages);
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return crypto.subtle.importKey('jwk', jwk, 'Ed25519', true, usages);
  throw new TypeError('unsupported key');
}

/**
 * Federation's engine, loaded on first use (service.ts imports it when federation is on: Fedify
 * is some 60 MB and 2 s a process need not pay while it is off). Federation (ActivityPub) with Fedify: the forum's actors (members as `Person`, categories as
 * `Group`, the forum as `Application`), their key pairs, WebFinger, NodeInfo, posts as `Note`s
 * and topics as their context (FEP-7888), the inboxes (signatures verified by Fedify; `Follow`
 * and `Undo(Follow)` kept as followers; every other activity stored as received) and the
 * deliveries of posts to followers (the category `Announce`s, FEP-1b12) through Fedify's queue
 * on our jobs. Off unless the setting `activitypubEnabled` is on (routes.ts answers 404 then).
 */
export class FederationEngine {
  readonly federation: Federation<void>;
  private readonly queueAbort = new AbortController();
  private queueStarted = false;

  constructor(
    private readonly ctx: FederationDeps,
    private readonly queue: JobsMessageQueue,
  ) {
    const loader = this.documentLoader();
    this.federation = createFederation<void>({
      kv: new DbKvStore(ctx.db),
      queue: { outbox: this.queue, fanout: this.queue },
      manuallyStartQueue: true,
      origin: new URL(ctx.config.url).origin,
      documentLoaderFactory: () => loader,
      contextLoaderFactory: () => loader,
      // Fetches that the remote server answers only when signed are not made yet (authorized fetch).
      authenticatedDocumentLoaderFactory: () => loader,
    });
    this.setup();
  }

  /** True when the host is on the instance deny list. */
  async denied(host: string): Promise<boolean> {
    return deniedHosts((await this.ctx.settings.get()).activitypubDenyList).has(host.toLowerCase());
  }

  /** Lets the queue's jobs run Fedify's handler (called before the first queued message runs). */
  startQueue(): void {
    if (this.queueStarted) return;
    this.queueStarted = true;
    void this.federation.startQueue(undefined, { signal: this.queueAbort.signal });
  }

  stop(): void {
    this.queueAbort.abort();
  }

  /** A context for work outside a request (deliveries from the hooks). */
  private context(): Context<void> {
    return this.federation.createContext(new URL(this.ctx.config.url), undefined);
  }

  /**
   * Every document federation fetches goes through the outgoing guard (http/outgoing.ts): public
   * addresses only (PALAVER_OUTGOING_ALLOW exempts tests' loopback hosts), no redirects, size and
   * time limits. The JSON-LD contexts Fedify knows are served from its own copies.
   */
  private documentLoader(): DocumentLoader {
    return async (url: string): Promise<RemoteDocument> => {
      if (url in preloadedContexts) return { contextUrl: null, documentUrl: url, document: preloadedContexts[url] };
      const res = await this.ctx.outgoing.request(url, {
        headers: { accept: 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"', 'user-agent': `Palaver (+${this.ctx.config.url})` },
        timeoutMs: FETCH_TIMEOUT_MS,
        maxBytes: FETCH_MAX_BYTES,
      });
      if (res.status !== 200) throw new FetchError(new URL(url), `HTTP ${res.status}: ${url}`);
      return { contextUrl: null, documentUrl: url, document: JSON.parse(res.body.toString('utf8')) as unknown };
    };
  }

  private async guest() {
    return this.ctx.privileges.guardian(await this.ctx.privileges.viewer(0));
  }

  /** The category of a handle, when guests may read it. */
  private async categoryByHandle(handle: string) {
    const guest = await this.ctx.privileges.viewer(0);
    return (await this.ctx.categories.list(guest)).find((c) => c.handle.toLowerCase() === handle.toLowerCase()) ?? null;
  }

  /** A member guests may see (not deleted, not banned), or null. */
  private async member(uid: number) {
    const [user, guardian] = await Promise.all([this.ctx.users.get(uid), this.guest()]);
    if (!user || user.deleted || user.banned || !guardian.can('view:users')) return null;
    return user;
  }

  private async category(cid: number) {
    const [cat, guardian] = await Promise.all([this.ctx.categories.get(cid), this.guest()]);
    if (!cat || cat.disabled || !guardian.canReadCategory(cid)) return null;
    return cat;
  }

  /** A post and its topic when guests may read them. */
  private async readablePost(pid: number): Promise<{ post: PostRow; topic: TopicRow } | null> {
    const post = await this.ctx.posts.get(pid);
    if (!post) return null;
    const topic = await this.ctx.topics.get(post.tid);
    if (!topic) return null;
    const guardian = await this.guest();
    if (!guardian.canReadTopic(topic) || !guardian.canReadPost(topic, post) || post.deleted) return null;
    return { post, topic };
  }

  /** The actor's key pairs (RSA for HTTP signatures, Ed25519 for object proofs), made once and stored. */
  private async keyPairs(identifier: string): Promise<CryptoKeyPair[]> {
    let rows = await store.keysOf(this.ctx.db, identifier);
    if (rows.length < 2) {
      const made: store.KeyRow[] = [];
      for (const algorithm of ['RSASSA-PKCS1-v1_5', 'Ed25519'] as const) {
        if (rows.some((r) => r.algorithm === algorithm)) continue;
        const pair = await generateCryptoKeyPair(algorithm);
        made.push({ actor: identifier, algorithm, private_jwk: JSON.stringify(await exportJwk(pair.privateKey)), public_jwk: JSON.stringify(await exportJwk(pair.publicKey)), created: Date.now() });
      }
      await store.insertKeys(this.ctx.db, made);
      rows = await store.keysOf(this.ctx.db, identifier);
    }
    // RSA first: Fedify signs HTTP requests with the first RSA key.
    rows.sort((a, b) => (a.algorithm === b.algorithm ? 0 : a.algorithm.startsWith('RSA') ? -1 : 1));
    return Promise.all(
      rows.map(async (r) => ({
        privateKey: await importKey(JSON.parse(r.private_jwk) as JsonWebKey, 'private'),
        publicKey: await importKey(JSON.parse(r.public_jwk) as JsonWebKey, 'public'),
      })),
    );
  }

  private setup(): void {
    const fed = this.federation;
    const base = () => this.ctx.config.url;

    fed
      .setActorDispatcher('/{+identifier}', async (c, identifier) => {
        const local = parseIdentifier(identifier);
        if (!local) return null;
        const keys = await c.getActorKeyPairs(identifier);
        const common = {
          id: c.getActorUri(identifier),
          inbox: c.getInboxUri(identifier),
          endpoints: new Endpoints({ sharedInbox: c.getInboxUri() }),
          followers: c.getFollowersUri(identifier),
          publicKey: keys[0]?.cryptographicKey,
          assertionMethods: keys.map((k) => k.multikey),
        };
        if (local.kind === 'member') {
          const user = await this.member(local.uid);
          if (!user) return null;
          return new Person({ ...common, preferredUsername: user.userslug, name: user.username, summary: user.about_html || null, url: new URL(`${base()}/user/${user.userslug}`), published: Temporal.Instant.fromEpochMilliseconds(user.joindate) });
        }
        if (local.kind === 'category') {
          const cat = await this.category(local.cid);
          if (!cat) return null;
          return new Group({ ...common, preferredUsername: cat.handle, name: cat.name, summary: cat.description_parsed || null, url: new URL(`${base()}/category/${cat.cid}/${cat.slug.replace(/^\d+\//, '')}`) });
        }
        const s = await this.ctx.settings.get();
        return new Application({ ...common, preferredUsername: new URL(base()).hostname, name: s.siteTitle, url: new URL(`${base()}/`) });
      })
      .setKeyPairsDispatcher(async (_c, identifier) => (parseIdentifier(identifier) ? this.keyPairs(identifier) : []))
      .mapHandle(async (_c, username) => {
        const user = await this.ctx.users.bySlug(username.toLowerCase());
        if (user && (await this.member(user.uid))) return `uid/${user.uid}`;
        const cat = await this.categoryByHandle(username);
        return cat ? `category/${cat.cid}` : null;
      });

    fed
      .setFollowersDispatcher('/{+identifier}/followers', async (_c, identifier) => {
        if (!parseIdentifier(identifier)) return null;
        const deny = deniedHosts((await this.ctx.settings.get()).activitypubDenyList);
        const rows = await store.followersOf(this.ctx.db, identifier);
        const items: Recipient[] = [];
        for (const r of rows) {
          if (deny.has(new URL(r.follower).hostname)) continue;
          items.push({ id: new URL(r.follower), inboxId: new URL(r.inbox), endpoints: r.shared_inbox ? { sharedInbox: new URL(r.shared_inbox) } : null });
        }
        return { items };
      })
      .setCounter(async (_c, identifier) => store.followerCount(this.ctx.db, identifier));

    fed.setObjectDispatcher(Note, '/post/{pid}', async (c, { pid }) => {
      if (!/^[1-9]\d{0,9}$/.test(pid)) return null;
      const found = await this.readablePost(Number(pid));
      return found ? this.note(c, found.post, found.topic) : null;
    });

    fed.setObjectDispatcher(OrderedCollection, '/topic/{tid}', async (c, { tid }) => {
      if (!/^[1-9]\d{0,9}$/.test(tid)) return null;
      const topic = await this.ctx.topics.get(Number(tid));
      if (!topic || topic.deleted || !(await this.guest()).canReadTopic(topic)) return null;
      const posts = (await this.ctx.posts.pageOfTopic(topic.tid, 0, TOPIC_ITEMS)).filter((p) => !p.deleted);
      return new OrderedCollection({
        id: c.getObjectUri(OrderedCollection, { tid }),
        name: topic.title,
        attribution: c.getActorUri(`uid/${topic.uid}`),
        audience: c.getActorUri(`category/${topic.cid}`),
        url: new URL(`${base()}/topic/${topic.slug}`),
        totalItems: posts.length,
        items: posts.map((p) => c.getObjectUri(Note, { pid: String(p.pid) })),
      });
    });

    fed.setNodeInfoDispatcher('/nodeinfo/2.1', async () => {
      const guest = await this.ctx.privileges.viewer(0);
      const [users, topics] = await Promise.all([this.ctx.users.list('joindate', 1, 1), this.ctx.topics.list(guest, { cids: await this.ctx.categories.readableCids(guest), sort: 'recent', page: 1, perPage: 1 })]);
      return {
        software: { name: 'palaver', version: palaverVersion() },
        protocols: ['activitypub'],
        usage: { users: { total: users.count }, localPosts: topics.count, localComments: 0 },
        openRegistrations: (await this.ctx.settings.get()).registrationType === 'normal',
      };
    });

    fed
      .setInboxListeners('/{+identifier}/inbox', '/inbox')
      .on(Follow, async (c, follow) => this.onFollow(c, follow))
      .on(Undo, async (c, undo) => this.onUndo(c, undo))
      .on(Activity, async (c, activity) => void (await this.keep(c, activity)));
  }

  /** Keeps a verified activity as received (once per id); false when it came before. */
  private async keep(c: Context<void>, activity: Activity, recipient = ''): Promise<boolean> {
    if (!activity.id || !activity.actorId) return false;
    if (await this.denied(activity.actorId.hostname)) return false;
    const body = JSON.stringify(await activity.toJsonLd({ contextLoader: c.contextLoader }));
    const type = (activity.constructor as { typeId?: URL }).typeId?.href.split('#').pop() ?? 'Activity';
    return this.ctx.actions.run('federation.receive', async (w) =>
      store.insertReceived(w, { activity_id: activity.id!.href, type, actor: activity.actorId!.href, recipient, body, received: Date.now() }),
    );
  }

  private async onFollow(c: Context<void>, follow: Follow): Promise<void> {
    if (!follow.id || !follow.actorId || !follow.objectId) return;
    const target = c.parseUri(follow.objectId);
    if (target?.type !== 'actor' || !parseIdentifier(target.identifier)) return;
    if (!(await this.keep(c, follow, target.identifier))) return;
    const follower = await follow.getActor(c);
    if (!follower?.id || !follower.inboxId) return;
    // The inbox deliveries will go to: public addresses only (a test's loopback hosts allowed).
    await this.ctx.outgoing.assertPublic(follower.inboxId);
    const shared = follower.endpoints?.sharedInbox ?? null;
    if (shared) await this.ctx.outgoing.assertPublic(shared);
    await this.ctx.actions.run('federation.follow', async (w) =>
      store.addFollower(w, { actor: target.identifier, follower: follower.id!.href, inbox: follower.inboxId!.href, shared_inbox: shared?.href ?? '', follow_id: follow.id!.href, created: Date.now() }),
    );
    await c.sendActivity(
      { identifier: target.identifier },
      follower,
      new Accept({ id: new URL(`#accept/${encodeURIComponent(follow.id.href)}`, c.getActorUri(target.identifier)), actor: c.getActorUri(target.identifier), object: follow }),
    );
  }

  private async onUndo(c: Context<void>, undo: Undo): Promise<void> {
    if (!undo.actorId) return;
    const object = await undo.getObject(c);
    if (!(object instanceof Follow) || !object.objectId) {
      await this.keep(c, undo);
      return;
    }
    // Only the follower may undo its follow.
    if (object.actorId?.href !== undo.actorId.href) return;
    const target = c.parseUri(object.objectId);
    if (target?.type !== 'actor') return;
    await this.keep(c, undo, target.identifier);
    await this.ctx.actions.run('federation.unfollow', async (w) => store.removeFollower(w, target.identifier, undo.actorId!.href));
  }

  /** A post as a Note: its author, its topic as context (FEP-7888), its category as audience, its tags. */
  private async note(c: Context<void>, post: PostRow, topic: TopicRow): Promise<Note> {
    const group = c.getActorUri(`category/${topic.cid}`);
    const author = c.getActorUri(`uid/${post.uid}`);
    const tags = await this.ctx.tags.namesOf(topic.tid);
    const isMain = post.pid === topic.main_pid;
    const replyTo = isMain ? null : c.getObjectUri(Note, { pid: String(post.to_pid || topic.main_pid) });
    return new Note({
      id: c.getObjectUri(Note, { pid: String(post.pid) }),
      attribution: author,
      name: isMain ? topic.title : null,
      content: post.content_html,
      published: Temporal.Instant.fromEpochMilliseconds(post.created),
      updated: post.edited ? Temporal.Instant.fromEpochMilliseconds(post.edited) : null,
      url: new URL(`${this.ctx.config.url}/post/${post.pid}`),
      to: PUBLIC_COLLECTION,
      ccs: [c.getFollowersUri(`uid/${post.uid}`), group],
      audience: group,
      contexts: [c.getObjectUri(OrderedCollection, { tid: String(topic.tid) })],
      replyTarget: replyTo,
      tags: tags.map((t) => new Hashtag({ name: `#${t}`, href: new URL(`${this.ctx.config.url}/tags/${encodeURIComponent(t)}`) })),
    });
  }

  /**
   * Delivers a post's change to the followers of its author and of its category (the category
   * announces it, FEP-1b12): queued through Fedify's queue (our jobs). Nothing when federation is
   * off (service.ts) or guests may not read the post.
   */
  async deliverPost(event: PostEvent, pid: number, tid: number, cid: number, uid: number, at: number): Promise<number> {
    const c = this.context();
    const authorId = `uid/${uid}`;
    const groupId = `category/${cid}`;
    const [authorFollowers, groupFollowers] = await Promise.all([store.followerCount(this.ctx.db, authorId), store.followerCount(this.ctx.db, groupId)]);
    if (!authorFollowers && !groupFollowers) return 0;
    const noteId = c.getObjectUri(Note, { pid: String(pid) });
    const author = c.getActorUri(authorId);
    let activity: Activity;
    if (event === 'delete') {
      // A deleted post goes out as a Tombstone whether or not guests could read it before.
      activity = new Delete({ id: new URL(`#delete/${at}`, noteId), actor: author, object: new Tombstone({ id: noteId }), to: PUBLIC_COLLECTION });
    } else {
      const found = await this.readablePost(pid);
      if (!found || (await this.member(uid)) === null) return 0;
      const note = await this.note(c, found.post, found.topic);
      const Kind = event === 'create' ? Create : Update;
      activity = new Kind({ id: new URL(`#${event}/${at}`, noteId), actor: author, object: note, to: PUBLIC_COLLECTION, ccs: [c.getFollowersUri(authorId), c.getActorUri(groupId)] });
    }
    let sent = 0;
    if (authorFollowers) {
      await c.sendActivity({ identifier: authorId }, 'followers', activity, { preferSharedInbox: true });
      sent += 1;
    }
    if (groupFollowers && (event === 'delete' || (await this.category(cid)))) {
      const group = c.getActorUri(groupId);
      const announce = new Announce({ id: new URL(`#announce/${event}/${pid}/${at}`, group), actor: group, object: activity, to: PUBLIC_COLLECTION, cc: c.getFollowersUri(groupId) });
      await c.sendActivity({ identifier: groupId }, 'followers', announce, { preferSharedInbox: true });
      sent += 1;
    }
    return sent;
  }
}
