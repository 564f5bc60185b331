import type { ActionRunner } from '../../core/action.js';
import type { Cache, CacheRegistry } from '../../core/cache.js';
import { IP_BLACKLIST } from '../../core/tags.js';
import type { Db } from '../../db/index.js';
import { badRequest, forbidden } from '../../http/errors.js';
import type { BlacklistRuleView, BlacklistTest } from '../../../shared/schemas/moderation.js';
import type { EventsService } from '../events/service.js';
import { matchRule, parseAddress, parseBlacklist, type ParsedBlacklist } from './blacklist.js';
import * as store from './store.js';

// A safety net behind the cross-process drop (a message lost while Redis reconnects).
const TTL_MS = 30_000;
/** The longest blacklist text accepted (about 20,000 rules). */
export const BLACKLIST_MAX_LENGTH = 500_000;

/**
 * The IP blacklist: the admin's text, parsed once per process and kept until any process
 * saves a new one (IP_BLACKLIST). Every refusal counts a hit on its rule.
 */
export class IpBlacklist {
  private readonly cache: Cache<0, ParsedBlacklist>;

  constructor(
    private readonly db: Db,
    private readonly actions: ActionRunner,
    registry: CacheRegistry,
    private readonly events: EventsService,
  ) {
    this.cache = registry.create({
      name: 'ip-blacklist',
      keeps: "the IP blacklist's rules, parsed",
      droppedBy: 'the blacklist saved (IP_BLACKLIST)',
      ttlMs: TTL_MS,
      max: 1,
      tags: () => [IP_BLACKLIST],
    });
  }

  private rules(): Promise<ParsedBlacklist> {
    return this.cache.get(0, async () => parseBlacklist(await store.blacklistText(this.db)));
  }

  /** Throws 403 error:blacklisted-ip when a rule covers the address (and counts the hit). */
  async assertAllowed(ip: string): Promise<void> {
    const { rules } = await this.rules();
    if (!rules.length) return;
    const hit = matchRule(rules, ip);
    if (!hit) return;
    await this.actions.run('ip-blacklist.hit', (w) => store.countHit(w, hit.rule, Date.now()));
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
    await this.actions.run('ip-blacklist.save', async (w) => {
      await store.saveBlacklist(w, text, Date.now());
      await this.events.log('ip-blacklist-save', actorUid, { rules: parsed.rules.length }, ip, w);
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
