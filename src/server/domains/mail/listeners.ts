import type { AppContext } from '../../context.js';
import { NOTIFICATION_TYPES } from '../../../shared/schemas/notification.js';
import { channelsFor, parseSettings, settingName, typeKey } from '../notifications/schemas.js';
import type { MailJob } from '../notifications/service.js';
import { resubscribe } from './store.js';

const MINUTE = 60_000;
// How soon a queued mail leaves: the outbox is polled this often (one process at a time).
export const SEND_EVERY_MS = 10_000;

/**
 * Mail follows the members' actions, after commit and off the request path: a confirmation
 * link on registration and on a change of address, a reset link when asked; and the outbox
 * is sent by a job that runs in one process at a time (the job runner's lease). Notification
 * mails and digests are jobs too: the notifications domain decides who gets what.
 */
export function registerMail(ctx: Pick<AppContext, 'db' | 'hooks' | 'jobs' | 'mail' | 'notifications'>): void {
  ctx.hooks.action('action:user.create', 'mail', async ({ user }) => {
    if (user.email && !user.email_confirmed) await ctx.mail.sendConfirmation(user);
  });
  ctx.hooks.action('action:user.update', 'mail', async ({ user, fields }) => {
    if (fields.includes('email') && user.email && !user.email_confirmed) await ctx.mail.sendConfirmation(user);
    // A member who turns a type's mail on again in their settings takes back that type's unsubscribe link.
    if (fields.includes('settings')) {
      const settings = parseSettings(user.settings);
      const again = NOTIFICATION_TYPES.filter((type) => fields.includes(typeKey(settingName(type))) && channelsFor(settings, type).email);
      await resubscribe(ctx.db, user.uid, again);
    }
  });
  ctx.hooks.action('action:user.resetRequested', 'mail', async ({ user }) => ctx.mail.sendReset(user));
  ctx.jobs.define('mail.send', async () => void (await ctx.mail.sendDue()), { every: SEND_EVERY_MS, leaseMs: 10 * MINUTE });
  // Notification mails (one job per event, for the readers who want it by email) and digests (hourly, once across processes).
  ctx.jobs.define<MailJob>('notifications.mail', async ({ payload }) => void (await ctx.notifications.sendMails(payload)), { leaseMs: 10 * MINUTE });
  ctx.jobs.define('notifications.digest', async () => void (await ctx.notifications.sendDigests()), { every: 60 * MINUTE, leaseMs: 30 * MINUTE });
}
