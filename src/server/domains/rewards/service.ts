import type { AppContext } from '../../context.js';
import type { Writer } from '../../core/action.js';
import type { Cache } from '../../core/cache.js';
import { REWARDS } from '../../core/tags.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { RewardCondition, RewardRule } from '../../../shared/schemas/admin-privileges.js';
import { ADMINISTRATORS, GUESTS, REGISTERED } from '../groups/service.js';
import { assertAdmin, type Viewer } from '../privileges/service.js';
import type { UserRow } from '../users/store.js';
import * as store from './store.js';
import type { RewardRow } from './store.js';

/** What rewards use of the application. */
export type RewardsDeps = Pick<AppContext, 'db' | 'actions' | 'cacheRegistry' | 'events' | 'groups' | 'hooks' | 'jobs' | 'log' | 'users'>;

export const REWARD_CONDITIONS: RewardCondition[] = ['postcount', 'reputation', 'topiccount', 'days'];
const MAX_VALUE = 1_000_000_000;
const TTL_MS = 5000;
const BATCH = 500;
const HOUR = 3600_000;
const DAY = 24 * HOUR;
// Groups a reward may not hand out: everyone is in registered-users, nobody joins guests, and
// administrators are made by hand only.
const NOT_REWARDS = [ADMINISTRATORS, GUESTS, REGISTERED];

export interface RewardInput {
  condition?: string;
  value?: number;
  group?: string;
  disabled?: boolean;
}

/** The counter a condition compares (days: whole days since joining). */
function counter(u: UserRow, condition: string, now: number): number {
  if (condition === 'days') return Math.floor((now - Number(u.joindate)) / DAY);
  if (condition === 'postcount') return Number(u.postcount);
  if (condition === 'topiccount') return Number(u.topiccount);
  if (condition === 'reputation') return Number(u.reputation);
  return -Infinity;
}

const present = (r: RewardRow & { awarded: number }): RewardRule => ({
  id: r.id,
  condition: r.condition as RewardCondition,
  value: r.value,
  group: r.group_name,
  disabled: r.disabled === 1,
  awarded: r.awarded,
});

/**
 * Rewards (NodeBB's admin/extend/rewards): a member whose post count, reputation, topic count
 * or days since joining reaches a rule's value joins its group, once. Checked after a post is
 * saved or voted on (the enabled rules are kept in memory: nothing is read when there are none)
 * and by an hourly job for the time-based condition and members who already qualified.
 */
export class RewardsService {
  /** The enabled rules, dropped by any rule change (REWARDS; a group renamed or deleted too). */
  private readonly rules: Cache<0, RewardRow[]>;

  constructor(private readonly deps: RewardsDeps) {
    this.rules = deps.cacheRegistry.create({
      name: 'rewards',
      keeps: 'the enabled reward rules',
      droppedBy: "a rule made, changed or deleted, or its group renamed or deleted (REWARDS)",
      ttlMs: TTL_MS,
      max: 1,
      tags: () => [REWARDS],
    });
  }

  /** Listeners and jobs (called once when the app is built). */
  wire(): void {
    const { hooks, jobs } = this.deps;
    const check = async (uid: number): Promise<void> => {
      if (uid > 0) await this.check(uid);
    };
    hooks.action('action:post.save', 'rewards', ({ post }) => check(post.uid));
    hooks.action('action:post.vote', 'rewards', ({ post }) => check(post.uid));
    jobs.define('rewards.apply', async () => void (await this.sweep()), { every: HOUR, leaseMs: 10 * 60_000 });
    jobs.define('rewards.sweep', async () => void (await this.sweep()), { leaseMs: 10 * 60_000 });
  }

  private enabled(): Promise<RewardRow[]> {
    return this.rules.get(0, async () => (await store.allRules(this.deps.db)).filter((r) => r.disabled === 0));
  }

  /** Gives a member every reward they now qualify for (one read of the member when rules exist). */
  async check(uid: number, now = Date.now()): Promise<number> {
    const rules = await this.enabled();
    if (!rules.length) return 0;
    const user = await this.deps.users.get(uid);
    if (!user) return 0;
    const met = rules.filter((r) => counter(user, r.condition, now) >= r.value);
    if (!met.length) return 0;
    const claimed = await store.claimedBy(this.deps.db, uid, met.map((r) => r.id));
    let given = 0;
    for (const r of met) if (!claimed.has(r.id) && (await this.give(r, uid))) given += 1;
    return given;
  }

  private async give(rule: RewardRow, uid: number): Promise<boolean> {
    return this.deps.actions.run('reward.give', async (w) => {
      if (!(await store.claim(w, rule.id, uid))) return false;
      await this.deps.groups.award(rule.group_name, uid, w);
      return true;
    });
  }

  /** Applies every enabled rule to the members who meet it (the recurring job); the rewards given. */
  async sweep(now = Date.now()): Promise<number> {
    let given = 0;
    for (const rule of await this.enabled()) {
      for (let batch = 0; batch < 20; batch++) {
        const uids = await store.dueMembers(this.deps.db, rule, now, BATCH);
        for (const uid of uids) if (await this.give(rule, uid)) given += 1;
        if (uids.length < BATCH) break;
      }
    }
    return given;
  }

  // ---- admin ----

  async list(actor: Viewer): Promise<RewardRule[]> {
    assertAdmin(actor);
    return (await store.allRules(this.deps.db)).map(present);
  }

  private async checkInput(input: RewardInput, partial: boolean): Promise<Partial<Pick<RewardRow, 'condition' | 'value' | 'group_name' | 'disabled'>>> {
    const out: Partial<Pick<RewardRow, 'condition' | 'value' | 'group_name' | 'disabled'>> = {};
    if (input.condition !== undefined || !partial) {
      if (!REWARD_CONDITIONS.includes(input.condition as RewardCondition)) throw badRequest('error:invalid-data', 'body/condition');
      out.condition = input.condition!;
    }
    if (input.value !== undefined || !partial) {
      const v = input.value;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_VALUE) throw badRequest('error:invalid-data', 'body/value');
      out.value = v;
    }
    if (input.group !== undefined || !partial) {
      const g = (input.group ?? '').trim();
      if (!g || NOT_REWARDS.includes(g) || !(await this.deps.groups.exists(g))) throw badRequest('error:invalid-data', 'body/group');
      out.group_name = g;
    }
    if (input.disabled !== undefined) out.disabled = input.disabled ? 1 : 0;
    return out;
  }

  private async changed(actor: Viewer, type: string, data: Record<string, unknown>, ip: string, write: (w: Writer) => Promise<unknown>): Promise<void> {
    await this.deps.actions.run(type.replace('-', '.'), async (w) => {
      await write(w);
      await this.deps.events.log(type, actor.uid, data, ip, w);
      // Members who already qualify get the reward without waiting for the hourly run.
      w.afterCommit(() => void this.deps.jobs.enqueue('rewards.sweep', {}).catch((err: unknown) => this.deps.log.error({ err }, 'rewards sweep not queued')));
    });
  }

  async create(actor: Viewer, input: RewardInput, ip = ''): Promise<RewardRule> {
    assertAdmin(actor);
    const f = await this.checkInput(input, false);
    let id = 0;
    await this.changed(actor, 'reward-create', { condition: f.condition, value: f.value, group: f.group_name }, ip, async (w) => {
      id = await store.insertRule(w, { condition: f.condition!, value: f.value!, group_name: f.group_name!, created: Date.now() });
      if (f.disabled) await store.updateRule(w, id, { disabled: 1 });
    });
    return (await this.list(actor)).find((r) => r.id === id)!;
  }

  async update(actor: Viewer, id: number, input: RewardInput, ip = ''): Promise<RewardRule> {
    assertAdmin(actor);
    const f = await this.checkInput(input, true);
    if (!(await store.allRules(this.deps.db)).some((r) => r.id === id)) throw notFound('error:invalid-data');
    await this.changed(actor, 'reward-update', { rid: id, ...f }, ip, (w) => (Object.keys(f).length ? store.updateRule(w, id, f) : Promise.resolve(true)));
    return (await this.list(actor)).find((r) => r.id === id)!;
  }

  async delete(actor: Viewer, id: number, ip = ''): Promise<void> {
    assertAdmin(actor);
    if (!(await store.allRules(this.deps.db)).some((r) => r.id === id)) throw notFound('error:invalid-data');
    await this.changed(actor, 'reward-delete', { rid: id }, ip, (w) => store.deleteRule(w, id));
  }
}

const services = new WeakMap<object, RewardsService>();

/** The forum's rewards service (made and wired once per application context). */
export function rewardsOf(ctx: RewardsDeps): RewardsService {
  let s = services.get(ctx);
  if (!s) {
    s = new RewardsService(ctx);
    services.set(ctx, s);
    s.wire();
  }
  return s;
}
