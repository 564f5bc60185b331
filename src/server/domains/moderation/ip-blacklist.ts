import type { SharedCaches } from '../../cache/shared.js';
import type { Db } from '../../db/index.js';
import { onCommit, runAction } from '../../hooks/action.js';
import { badRequest, forbidden } from '../../http/errors.js';
import type { BlacklistRuleView, BlacklistTest } from '../../../shared/schemas/moderation.js';
import type { EventsService } from '../events/service.js';
import { matchRule, parseAddress, parseBlacklist, type ParsedBlacklist } from './blacklist.js';
import * as store from './store.js';

// A safety net behind the cross-process clear (a message lost while Redis reconnects).
const TTL_MS = 30_000;
/** The longest blacklist text accepted (about 20,000 rules). */
export const BLACKLIST_MAX_LENGTH = 500_000;

/**
 * The IP blacklist: the admin's text, parsed once per process and kept until any process
 * saves a new one (SharedCaches 'ipBlacklist'). Every refusal counts a hit on its rule.
 */
export class IpBlacklist {
  private cached: { parsed: ParsedBlacklist; at: number } | null = null;
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly caches: SharedCaches,
    private readonly events: EventsService,
  ) {
    caches.register('ipBlacklist', () => {
      this.cached = null;
      this.generation += 1;
    });
  }

  private async rules(): Promise<ParsedBlacklist> {
    if (this.cached && Date.now() - this.cached.at < TTL_MS) return this.cached.parsed;
    const generation = this.generation;
    const parsed = parseBlacklist(await store.blacklistText(this.db));
    // A save that cleared the cache while this read ran must not be undone by it.
    if (generation === this.generation) this.cached = { parsed, at: Date.now() };
    return parsed;
  }

  /** Throws 403 error:blacklisted-ip when a rule covers the address (and counts the hit). */
  async assertAllowed(ip: string): Promise<void> {
    const { rules } = await this.rules();
    if (!rules.length) return;
    const hit = matchRule(rules, ip);
    if (!hit) return;
    await store.countHit(this.db, hit.rule, Date.now());
    throw forbidden('error:blacklisted-ip');
  }

  /** The saved text and each rule with its hit count. */
  async view(): Promise<{ rules: string; parsed: BlacklistRuleView[] }> {
    const text = await store.blacklistText(this.db);
    const { rules } = parseBlacklist(text);
    const hits = await store.hitsOf(
      this.db,
      rules.map((r) => r.rule),
    );
    return { rules: text, parsed: rules.map((r) => ({ rule: r.rule, line: r.line, hits: hits.get(r.rule)?.hits ?? 0, lastHit: hits.get(r.rule)?.lastHit ?? 0 })) };
  }

  /** Saves new rules; a line that does not parse refuses the whole text (400, nothing saved). */
  async save(actorUid: number, text: string, ip: string): Promise<{ rules: string; parsed: BlacklistRuleView[] }> {
    if (text.length > BLACKLIST_MAX_LENGTH) throw badRequest('error:invalid-data');
    const parsed = parseBlacklist(text);
    const bad = parsed.invalid[0];
    if (bad) throw badRequest('error:invalid-blacklist-rule', bad.line, bad.text);
    await runAction(this.db, {
      write: async (tx) => {
        await store.saveBlacklist(tx, text, Date.now());
        await this.events.log('ip-blacklist-save', actorUid, { rules: parsed.rules.length }, ip, tx);
      },
      after: () => onCommit(() => this.caches.clear('ipBlacklist')),
    });
    return this.view();
  }

  /** Tests an address against the saved rules (or against `text` when given, before saving). */
  async test(ip: string, text?: string): Promise<BlacklistTest> {
    const addr = parseAddress(ip);
    if (!addr) return { ip, valid: false, blocked: false, rule: null, line: 0 };
    const { rules } = text === undefined ? await this.rules() : parseBlacklist(text);
    const hit = matchRule(rules, ip);
    return { ip, valid: true, blocked: hit !== null, rule: hit?.rule ?? null, line: hit?.line ?? 0 };
  }
}
