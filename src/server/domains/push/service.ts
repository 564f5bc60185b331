import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { PUSH_LIMITS, type PushDevice, type PushMessage } from '../../../shared/schemas/push.js';
import type { AppContext } from '../../context.js';
import type { NotificationRow } from '../../hooks/types.js';
import { badRequest, notAuthorised, notFound, tooMany } from '../../http/errors.js';
import { forumLanguage, memberLanguage } from '../../http/language.js';
import { OutgoingRefused } from '../../http/outgoing.js';
import { translate, translateText } from '../../i18n.js';
import { bodyShort, senders } from '../notifications/presenter.js';
import type { Viewer } from '../privileges/service.js';
import type { UserRow } from '../users/store.js';
import * as store from './store.js';
import type { PushSubscriptionRow } from './store.js';
import { newVapidKeys, sendPush, type VapidDetails } from './transport.js';

/** What the push service uses of the application. */
export type PushDeps = Pick<AppContext, 'actions' | 'config' | 'db' | 'jobs' | 'limiter' | 'log' | 'outgoing' | 'settings' | 'users'>;

/** A subscription as a browser's `PushSubscription.toJSON()` gives it. */
export interface SubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** The job that fans one notification out to its readers' browsers. */
export const SEND_JOB = 'push.send';
/** The job that retries one browser whose push service failed. */
export const RETRY_JOB = 'push.retry';

/** Payload of `push.send`. */
export interface SendJob {
  notification: NotificationRow;
  uids: number[];
}

/** The job that sends a member's test push. */
export const TEST_JOB = 'push.test';
/** Payload of `push.test`. */
export interface TestJob {
  uid: number;
}
// Test pushes a member may ask for a minute.
const TEST_LIMIT = 5;

/** Payload of `push.retry`: the message as rendered for that browser's member. */
export interface RetryJob {
  subscriptionId: number;
  endpoint: string;
  p256dh: string;
  message: string;
  topic: string;
}

// Sends in flight at once during a fan-out (push services answer in tens of ms; a thousand readers take seconds, not minutes).
const CONCURRENCY = 16;

const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const decodeKey = (s: string) => Buffer.from(s.replace(/=+$/, ''), 'base64url');

/**
 * A notification's push tag and Topic header, from its merge key: a later event of the same
 * merge (another reply in the topic) replaces the one still shown, or still waiting at the
 * push service, instead of piling up. (base64url, 22 characters: a Topic header allows 32.)
 */
export function pushTag(mergeKey: string): string {
  return createHash('sha256').update(mergeKey).digest('base64url').slice(0, 22);
}

/** The first 16 hex characters of the endpoint's sha-256: how the page recognises "this browser" without showing endpoints. */
export function endpointId(endpoint: string): string {
  return createHash('sha256').update(endpoint).digest('hex').slice(0, 16);
}

// A notification's translated text marks names up (<strong>) and its parameters escape their commas and brackets;
// a push is plain text. Titles are stored as typed, so only the language files' own tags are removed.
function plainText(s: string): string {
  return s
    .replace(/<\/?(?:strong|b|em|i)>/g, '')
    .replace(/&#(\d{1,6});/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]{1,6});/gi, (_m, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&(quot|apos|lt|gt|amp);/g, (_m, e: string) => ({ quot: '"', apos: "'", lt: '<', gt: '>', amp: '&' })[e]!);
}

/**
 * Web push: the forum's VAPID key pair (made on first use, kept in the database, the private
 * key never leaves the server), members' subscriptions (one per browser), and delivery of
 * notifications as jobs: a browser whose push service answers 404/410 is forgotten, any other
 * failure is retried by the job runner.
 */
export class PushService {
  private keys: VapidDetails | null = null;

  constructor(private readonly ctx: PushDeps) {}

  /** The forum's VAPID identity; the key pair is made and stored on first use (once across processes). */
  private async vapid(): Promise<VapidDetails> {
    if (this.keys) return this.keys;
    let row = await store.vapid(this.ctx.db);
    if (!row) {
      await this.ctx.actions.run('push.vapid', (w) => store.insertVapid(w, newVapidKeys(), Date.now()));
      row = await store.vapid(this.ctx.db);
      if (!row) throw new Error('VAPID keys could not be stored');
      this.ctx.log.info('web push: VAPID key pair made');
    }
    const url = new URL(this.ctx.config.url);
    // The push service may contact this address about the forum's pushes; an http forum gives a mail address instead.
    const subject = url.protocol === 'https:' ? url.origin : `mailto:push@${url.hostname.replace(/^\[|\]$/g, '') || 'localhost'}`;
    this.keys = { subject, publicKey: row.public_key, privateKey: row.private_key };
    return this.keys;
  }

  /** Makes the key pair now if there is none (setup calls it, so the first subscriber does not wait). */
  async ensureKeys(): Promise<void> {
    await this.vapid();
  }

  /** The public VAPID key browsers subscribe with (base64url). */
  async publicKey(): Promise<string> {
    return (await this.vapid()).publicKey;
  }

  /**
   * Why an endpoint is refused, or null: https to a host whose every address is public (resolved
   * now; the send resolves and checks again), or a host the configuration allows (tests' loopback
   * receivers, http allowed there: http/outgoing.ts).
   */
  private async endpointProblem(raw: string): Promise<string | null> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return 'not a URL';
    }
    if (url.username || url.password) return 'credentials';
    if (this.ctx.outgoing.isAllowedHost(url)) return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'not http';
    if (url.protocol !== 'https:') return 'not https';
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (!isIP(host) && (!host.includes('.') || host.endsWith('.local') || host.endsWith('.internal') || host.endsWith('.localhost'))) return 'local name';
    try {
      await this.ctx.outgoing.assertPublic(url);
    } catch (err) {
      if (err instanceof OutgoingRefused) return err.reason;
      throw err;
    }
    return null;
  }

  /** Saves the viewer's browser subscription (replacing an earlier one of that browser); returns its id. */
  async subscribe(viewer: Viewer, input: SubscriptionInput, userAgent: string): Promise<number> {
    const uid = member(viewer);
    const { endpoint } = input;
    const { p256dh, auth } = input.keys;
    if (endpoint.length > PUSH_LIMITS.endpoint || (await this.endpointProblem(endpoint))) throw badRequest('error:push-endpoint-invalid');
    // The browser's public key is an uncompressed P-256 point; the auth secret 16 bytes. Anything else could never be encrypted to.
    const key = B64URL.test(p256dh) ? decodeKey(p256dh) : null;
    const secret = B64URL.test(auth) ? decodeKey(auth) : null;
    if (!key || key.length !== 65 || key[0] !== 4 || !secret || secret.length !== 16) throw badRequest('error:push-keys-invalid');
    return this.ctx.actions.run('push.subscribe', async (w) => {
      const id = await store.upsert(w, { uid, endpoint, p256dh, auth, userAgent: userAgent.slice(0, 255), now: Date.now() });
      await store.trim(w, uid, PUSH_LIMITS.perMember);
      return id;
    });
  }

  /** Forgets the viewer's subscription of one browser (by its endpoint); 404 when they have none there. */
  async unsubscribe(viewer: Viewer, endpoint: string): Promise<void> {
    const uid = member(viewer);
    if (!(await this.ctx.actions.run('push.unsubscribe', (w) => store.removeByEndpoint(w, uid, endpoint)))) throw notFound('error:push-subscription-not-found');
  }

  /** Removes a subscription from the device list: the member's own, or any for an admin; 404 otherwise (ids are not to be probed). */
  async remove(viewer: Viewer, id: number): Promise<void> {
    const uid = member(viewer);
    const row = await store.byId(this.ctx.db, id);
    if (!row || (row.uid !== uid && !viewer.isAdmin)) throw notFound('error:push-subscription-not-found');
    await this.ctx.actions.run('push.remove', (w) => store.remove(w, row.uid, id));
  }

  /** The viewer's own browsers. */
  async ownDevices(viewer: Viewer): Promise<PushDevice[]> {
    return this.devices(member(viewer));
  }

  /** A member's browsers as the account page lists them (the caller checked who may see them). */
  async devices(uid: number): Promise<PushDevice[]> {
    return (await store.ofMember(this.ctx.db, uid)).map((r) => ({
      id: r.id,
      userAgent: r.user_agent,
      service: hostOf(r.endpoint),
      endpointId: endpointId(r.endpoint),
      created: Number(r.created),
      createdISO: new Date(Number(r.created)).toISOString(),
    }));
  }

  /**
   * Queues the push of a stored notification to these members' browsers (the `push.send` job);
   * with `key` (a durable listener's run), once however often it is asked.
   */
  async enqueue(notification: NotificationRow, uids: number[], key?: string): Promise<void> {
    const readers = [...new Set(uids)].filter((u) => Number.isInteger(u) && u > 0);
    if (readers.length) await this.ctx.actions.run('push.enqueue', (w) => this.ctx.jobs.enqueueIn<SendJob>(w, SEND_JOB, { notification, uids: readers }, { key }));
  }

  /** The push a member's browser shows for a notification: the forum's title, the text in their language, the absolute URL. */
  private message(n: NotificationRow, reader: UserRow | undefined, users: Map<number, UserRow>, s: { siteTitle: string; defaultLang: string }): PushMessage {
    const lang = reader ? memberLanguage(reader, s) : forumLanguage(s);
    const path = n.path.startsWith('/') ? n.path : `/${n.path}`;
    return { title: s.siteTitle, body: plainText(translateText(bodyShort(n, users), lang)), url: `${this.ctx.config.url}${path}`, tag: pushTag(n.merge_key) };
  }

  /**
   * Sends a notification to every browser of its readers (the `push.send` job): subscriptions
   * and members are read in one query each; a gone browser is forgotten; a failing one gets a
   * `push.retry` job of its own, so the others are not sent twice. Returns how many were sent.
   */
  async deliver(job: SendJob): Promise<number> {
    const n = job.notification;
    const subs = await store.ofMembers(this.ctx.db, job.uids);
    if (!subs.length) return 0;
    const [vapid, s, users] = await Promise.all([this.vapid(), this.ctx.settings.get(), this.ctx.users.getMany([...job.uids, ...senders(n).slice(0, 2)])]);
    const messages = new Map<number, string>();
    const messageFor = (uid: number) => {
      let m = messages.get(uid);
      if (m === undefined) messages.set(uid, (m = JSON.stringify(this.message(n, users.get(uid), users, s))));
      return m;
    };
    return this.fanOut(subs, vapid, messageFor, pushTag(n.merge_key));
  }

  /** Sends each browser its member's message; returns how many were delivered now. */
  private async fanOut(subs: PushSubscriptionRow[], vapid: VapidDetails, messageFor: (uid: number) => string, topic: string): Promise<number> {
    let sent = 0;
    await eachLimited(subs, CONCURRENCY, async (sub) => {
      const message = messageFor(sub.uid);
      const outcome = await sendPush(this.ctx.outgoing, sub, message, vapid, topic);
      if (outcome.kind === 'sent') sent += 1;
      else if (outcome.kind === 'gone') await this.forget(sub, outcome.status);
      else if (outcome.kind === 'refused') await this.refuse(sub, outcome.error);
      else {
        this.ctx.log.warn({ subscriptionId: sub.id, uid: sub.uid, err: outcome.error }, 'push failed; will retry');
        await this.ctx.jobs.enqueue<RetryJob>(RETRY_JOB, { subscriptionId: sub.id, endpoint: sub.endpoint, p256dh: sub.p256dh, message, topic });
      }
    });
    return sent;
  }

  /** Queues a test push to the viewer's browsers (at most 5 a minute); returns how many browsers they have. */
  async sendTest(viewer: Viewer): Promise<number> {
    const uid = member(viewer);
    const wait = await this.ctx.limiter.hit(`push-test:${uid}`, TEST_LIMIT, 60);
    if (wait > 0) throw tooMany('error:too-many-requests');
    const count = (await store.ofMember(this.ctx.db, uid)).length;
    if (count) await this.ctx.jobs.enqueue<TestJob>(TEST_JOB, { uid });
    return count;
  }

  /** Sends the test push (the `push.test` job): "push notifications work", opening the web-push page. */
  async deliverTest(job: TestJob): Promise<number> {
    const [subs, user] = await Promise.all([store.ofMember(this.ctx.db, job.uid), this.ctx.users.get(job.uid)]);
    if (!subs.length || !user) return 0;
    const [vapid, s] = await Promise.all([this.vapid(), this.ctx.settings.get()]);
    const lang = memberLanguage(user, s);
    const message: PushMessage = {
      title: s.siteTitle,
      body: translate('user:web-push.test-body', [s.siteTitle], lang),
      url: `${this.ctx.config.url}/user/${user.userslug}/web-push`,
      tag: 'test',
    };
    return this.fanOut(subs, vapid, () => JSON.stringify(message), 'test');
  }

  /** Sends one push again (the `push.retry` job); throws on failure so that the runner retries with back-off. */
  async retry(job: RetryJob): Promise<void> {
    const sub = await store.byId(this.ctx.db, job.subscriptionId);
    // Unsubscribed, or the browser subscribed again with new keys since: the old message cannot be read there.
    if (!sub || sub.endpoint !== job.endpoint || sub.p256dh !== job.p256dh) return;
    const outcome = await sendPush(this.ctx.outgoing, sub, job.message, await this.vapid(), job.topic);
    if (outcome.kind === 'gone') await this.forget(sub, outcome.status);
    else if (outcome.kind === 'refused') await this.refuse(sub, outcome.error);
    else if (outcome.kind === 'failed') throw new Error(outcome.error);
  }

  /** An endpoint whose host now resolves to an address the forum may not reach: nothing was sent, and the subscription goes. */
  private async refuse(sub: PushSubscriptionRow, reason: string): Promise<void> {
    await this.ctx.actions.run('push.refuse', (w) => store.removeStale(w, sub));
    this.ctx.log.warn({ subscriptionId: sub.id, uid: sub.uid, reason }, 'push endpoint refused by the outgoing guard: subscription removed');
  }

  private async forget(sub: PushSubscriptionRow, status: number): Promise<void> {
    await this.ctx.actions.run('push.forget', (w) => store.removeStale(w, sub));
    this.ctx.log.info({ subscriptionId: sub.id, uid: sub.uid, status }, 'push subscription gone: removed');
  }
}

function member(viewer: Viewer): number {
  if (viewer.uid <= 0) throw notAuthorised();
  return viewer.uid;
}

function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return '';
  }
}

/** Runs `fn` over the items, at most `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
