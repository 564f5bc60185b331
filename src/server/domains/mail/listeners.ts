import type { AppContext } from '../../context.js';
import { NOTIFICATION_TYPES } from '../../../shared/schemas/notification.js';
import { channelsFor, parseSettings, settingName, typeKey } from '../notifications/schemas.js';
import type { MailJob } from '../notifications/service.js';
import { resubscribe } from './store.js';

const MINUTE = 60_000;
// How soon a queued mail leaves: the outbox is polled this often (one process at a time).
export const SEND_EVERY_MS = 10_000;
// How long a reader's receipt of an event is kept (notifications/service.ts notify).
const RECEIPTS_KEPT_MS = 3 * 24 * 60 * MINUTE;

// Durable listeners (run from the outbox after commit, retried): a crash between the commit and
// the mail loses no confirmation or reset link. Each mail carries its run's key, so a listener
// run twice queues it once (mail_outbox.dedupe_key); the member is read again, as they are now.
const DURABLE = { durable: true } as const;

/**
 * Mail follows the members' actions, after commit and off the request path: a confirmation
 * link on registration and on a change of address, a reset link when asked; and the outbox
 * is sent by a job that runs in one process at a time (the job runner's lease). Notification
 * mails and digests are jobs too: the notifications domain decides who gets what.
 */
export function registerMail(ctx: Pick<AppContext, 'actions' | 'hooks' | 'jobs' | 'mail' | 'notifications' | 'users'>): void {
  const now = async (uid: number) => ctx.users.get(uid);
  ctx.hooks.action('action:user.create', 'mail', async ({ user: { uid } }, run) => {
    const user = await now(uid);
    if (user?.email && !user.email_confirmed) await ctx.mail.sendConfirmation(user, run?.key);
  }, DURABLE);
  ctx.hooks.action('action:user.update', 'mail', async ({ user: { uid }, fields }, run) => {
    const user = await now(uid);
    if (!user) return;
    if (fields.includes('email') && user.email && !user.email_confirmed) await ctx.mail.sendConfirmation(user, run?.key);
    // A member who turns a type's mail on again in their settings takes back that type's unsubscribe link.
    if (fields.includes('settings')) {
      const settings = parseSettings(user.settings);
      const again = NOTIFICATION_TYPES.filter((type) => fields.includes(typeKey(settingName(type))) && channelsFor(settings, type).email);
      await ctx.actions.run('mail.resubscribe', (w) => resubscribe(w, user.uid, again));
    }
  }, DURABLE);
  ctx.hooks.action('action:user.resetRequested', 'mail', async ({ user: { uid } }, run) => {
    const user = await now(uid);
    if (user) await ctx.mail.sendReset(user, run?.key);
  }, DURABLE);
  ctx.jobs.define('mail.send', async ({ signal }) => void (await ctx.mail.sendDue(Date.now(), signal)), { every: SEND_EVERY_MS, leaseMs: 10 * MINUTE });
  // Notification mails (one job per event, for the readers who want it by email) and digests (hourly, once across processes).
  ctx.jobs.define<MailJob>('notifications.mail', async ({ id, payload }) => void (await ctx.notifications.sendMails(payload, `job:${id}`)), { leaseMs: 10 * MINUTE });
  // Receipts outlive every retry of an outbox row (hours), then go.
  ctx.jobs.define('notifications.receipts', async () => ctx.notifications.pruneReceipts(Date.now() - RECEIPTS_KEPT_MS), { every: 60 * MINUTE });
  ctx.jobs.define('notifications.digest', async () => void (await ctx.notifications.sendDigests()), { every: 60 * MINUTE, leaseMs: 30 * MINUTE });
}
