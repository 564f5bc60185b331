import type { AppContext } from '../../context.js';

const MINUTE = 60_000;
// How soon a queued mail leaves: the outbox is polled this often (one process at a time).
export const SEND_EVERY_MS = 10_000;

/**
 * Mail follows the members' actions, after commit and off the request path: a confirmation
 * link on registration and on a change of address, a reset link when asked; and the outbox
 * is sent by a job that runs in one process at a time (the job runner's lease).
 */
export function registerMail(ctx: Pick<AppContext, 'hooks' | 'jobs' | 'mail'>): void {
  ctx.hooks.action('action:user.create', 'mail', async ({ user }) => {
    if (user.email && !user.email_confirmed) await ctx.mail.sendConfirmation(user);
  });
  ctx.hooks.action('action:user.update', 'mail', async ({ user, fields }) => {
    if (fields.includes('email') && user.email && !user.email_confirmed) await ctx.mail.sendConfirmation(user);
  });
  ctx.hooks.action('action:user.resetRequested', 'mail', async ({ user }) => ctx.mail.sendReset(user));
  ctx.jobs.define('mail.send', async () => void (await ctx.mail.sendDue()), { every: SEND_EVERY_MS, leaseMs: 10 * MINUTE });
}
