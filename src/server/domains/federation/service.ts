import type { FederationEngine } from './engine.js';
import { deniedHosts, type PostEvent } from './names.js';
import { JobsMessageQueue } from './queue.js';
import type { FederationDeps } from './deps.js';
import * as store from './store.js';

export type { FederationDeps } from './deps.js';
export type { PostEvent } from './names.js';

/**
 * Federation (ActivityPub, docs/federation.md): off unless the setting `activitypubEnabled` is on.
 * This light part answers whether it is on, keeps the queue's job and the followers; the engine
 * (engine.ts: Fedify, the actors, the inboxes, the deliveries) is imported the first time it is
 * needed, so a forum that does not federate never loads Fedify.
 */
export class FederationService {
  private readonly queue: JobsMessageQueue;
  private loading: Promise<FederationEngine> | null = null;
  private loaded: FederationEngine | null = null;

  constructor(private readonly ctx: FederationDeps) {
    this.queue = new JobsMessageQueue(ctx.jobs);
    this.queue.onStart = async () => (await this.engine()).startQueue();
    ctx.jobs.define('federation.kv-prune', async () => void (await store.kvPrune(ctx.db, Date.now())), { every: 6 * 3600_000 });
  }

  /** Fedify and everything built on it, loaded once. */
  engine(): Promise<FederationEngine> {
    return (this.loading ??= import('./engine.js').then(({ FederationEngine }) => (this.loaded = new FederationEngine(this.ctx, this.queue))));
  }

  /** True when the admin turned federation on. */
  async enabled(): Promise<boolean> {
    return (await this.ctx.settings.get()).activitypubEnabled;
  }

  /** True when the host is on the instance deny list. */
  async denied(host: string): Promise<boolean> {
    return deniedHosts((await this.ctx.settings.get()).activitypubDenyList).has(host.toLowerCase());
  }

  /**
   * Delivers a post's change to its author's and its category's remote followers (engine.ts);
   * nothing, and Fedify not loaded, while federation is off or nobody follows them.
   */
  async deliverPost(event: PostEvent, pid: number, tid: number, cid: number, uid: number, at: number): Promise<number> {
    if (!(await this.enabled())) return 0;
    const [author, group] = await Promise.all([store.followerCount(this.ctx.db, `uid/${uid}`), store.followerCount(this.ctx.db, `category/${cid}`)]);
    if (!author && !group) return 0;
    return (await this.engine()).deliverPost(event, pid, tid, cid, uid, at);
  }

  /** The last activities received (newest first). */
  async received(limit = 50) {
    return store.received(this.ctx.db, limit);
  }

  /** A local actor's followers (remote actor ids). */
  async followers(identifier: string): Promise<string[]> {
    return (await store.followersOf(this.ctx.db, identifier)).map((r) => r.follower);
  }

  stop(): void {
    this.loaded?.stop();
  }
}
