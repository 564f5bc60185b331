import type { NotificationsDeps } from './service.js';
import { DIGEST_FREQS, parseSettings, type DigestFreq } from './schemas.js';
import * as store from './store.js';

const HOUR = 3600_000;
/** How long each frequency waits between two digests. */
export const DIGEST_PERIOD_MS: Record<Exclude<DigestFreq, 'off'>, number> = { day: 24 * HOUR, week: 7 * 24 * HOUR, month: 30 * 24 * HOUR };
// The job runs hourly: a digest due within this margin goes now rather than an hour late.
const SLACK_MS = HOUR / 2;
/** Topics a digest lists at most. */
export const DIGEST_TOPICS = 10;

/** A member's effective digest frequency: theirs, or the forum's default. */
export function digestFreqOf(settingsJson: string, forumDefault: string): DigestFreq {
  const own = parseSettings(settingsJson).dailyDigestFreq;
  const f = typeof own === 'string' ? own : forumDefault;
  return (DIGEST_FREQS as readonly string[]).includes(f) ? (f as DigestFreq) : 'off';
}

/**
 * Sends the digests that are due (the hourly `notifications.digest` job). A member is due when
 * their frequency's period has passed since their last digest (the first covers one period);
 * each is claimed by moving their last-digest time with a conditional write, so two processes
 * never send one twice. A digest lists the most active topics since the last one, of the
 * categories the member may read now; nothing new, no mail. Returns the digests queued.
 */
export async function sendDueDigests(ctx: NotificationsDeps, now = Date.now()): Promise<number> {
  const s = await ctx.settings.get();
  let sent = 0;
  let after = 0;
  for (;;) {
    const batch = await store.digestCandidates(ctx.db, after, s.dailyDigestFreq !== 'off', 500);
    if (!batch.length) break;
    after = batch[batch.length - 1]!.uid;
    for (const m of batch) {
      const freq = digestFreqOf(m.settings, s.dailyDigestFreq);
      if (freq === 'off') continue;
      const period = DIGEST_PERIOD_MS[freq];
      if (m.last_sent !== null && m.last_sent > now - period + SLACK_MS) continue;
      const since = m.last_sent ?? now - period;
      if (!(await ctx.actions.run('notifications.claim-digest', (w) => store.claimDigest(w, m.uid, now, now - period + SLACK_MS)))) continue;
      const viewer = await ctx.privileges.viewer(m.uid);
      const cids = await ctx.categories.readableCids(viewer);
      if (!cids.length) continue;
      const { topics } = await ctx.topics.list(viewer, { cids, sort: 'popular', page: 1, perPage: DIGEST_TOPICS, since });
      if (!topics.length) continue;
      const user = await ctx.users.get(m.uid);
      if (!user?.email || !user.email_confirmed) continue;
      const url = ctx.config.url;
      await ctx.mail.enqueue(user, {
        template: 'digest',
        freq,
        topics: topics.map((t) => ({ title: t.title, url: `${url}/topic/${t.slug}`, postcount: t.postcount })),
        settings: `${url}/user/${user.userslug}/settings`,
      });
      sent += 1;
    }
  }
  return sent;
}
