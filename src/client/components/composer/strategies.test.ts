import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../app/runtime';
import { createI18n } from '../../i18n';
import type { AlertInput } from '../../state/alerts';
import { setSocketCaller } from './socket-call';
import { MENTION_ALERT_MS } from '../../../shared/constants';
import { mentionStrategy } from './strategies';

const i18n = createI18n('en-GB', { 'en-GB': { error: { 'no-privileges': 'You do not have enough privileges' }, global: { 'alert.error': 'Error' } } });

/** A runtime with only what the strategy uses, whose socket answers through `emit`. */
function runtime(emit: (name: string, ...args: unknown[]) => Promise<unknown>) {
  const alerts: AlertInput[] = [];
  const rt = { i18n, alert: (a: AlertInput) => (alerts.push(a), 'id') } as unknown as Runtime;
  setSocketCaller(rt, emit);
  return { rt, alerts };
}

const user = (uid: number, username: string) => ({ uid, username, userslug: username.toLowerCase() }) as never;

describe('@ mention suggestions', () => {
  it('lists topic posters first, then found members (each once), then matching groups', async () => {
    const { rt } = runtime(async (name) => {
      if (name === 'plugins.mentions.getTopicUsers') return [user(2, 'Anna'), user(3, 'bob')];
      if (name === 'plugins.mentions.userSearch') return [user(4, 'andy'), user(2, 'Anna')];
      return ['Analysts', 'Moderators'];
    });
    const found = await mentionStrategy(rt, 7).search('an');
    expect(found.map((m) => (m.kind === 'user' ? m.user.username : m.name))).toEqual(['Anna', 'andy', 'Analysts']);
    expect(mentionStrategy(rt, 7).replace(found[2]!)).toBe('@analysts ');
  });

  it('a failed member search shows a danger alert for 5 s and an empty list (spec §8)', async () => {
    const { rt, alerts } = runtime(async (name) => {
      if (name === 'plugins.mentions.userSearch') throw Object.assign(new Error('[[error:no-privileges]]'), { key: 'error:no-privileges' });
      return [];
    });
    expect(await mentionStrategy(rt, 0).search('zed')).toEqual([]);
    expect(alerts).toEqual([expect.objectContaining({ type: 'danger', timeout: MENTION_ALERT_MS, message: 'You do not have enough privileges' })]);
    expect(MENTION_ALERT_MS).toBe(5000);
  });

  it('triggers on @ after a space or at the start, not inside a word or an address', () => {
    const { match } = mentionStrategy(runtime(async () => []).rt, 0);
    expect(match.exec('hi @an')?.[1]).toBe('an');
    expect(match.exec('@')?.[1]).toBe('');
    expect(match.exec('mail me at x@an')).toBeNull();
  });
});
