import { forumLanguage, memberLanguage } from '../../http/language.js';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { Writer } from '../../core/action.js';
import { AppError, badRequest, tooMany } from '../../http/errors.js';
import { assertAdmin, type Viewer } from '../privileges/service.js';
import type { UserRow } from '../users/store.js';
import * as store from './store.js';
import { render, type TemplateData } from './templates.js';
import { fromAddress, mailConfigured, smtpTransport, type MailTransport } from './transport.js';

export type MailDeps = Pick<AppContext, 'actions' | 'config' | 'db' | 'limiter' | 'log' | 'settings' | 'users' | 'events' | 'hooks' | 'mail'>;

const MINUTE = 60_000;
const BATCH = 20;
// A send that takes longer than this is taken over by another run (its process likely died).
const LEASE_MS = 2 * MINUTE;
const BACKOFF_BASE_MS = MINUTE;
const RESET_INTERVAL_MS = MINUTE;
/**
 * Minutes between two confirmation mails of a member (NodeBB's emailConfirmInterval): asking
 * again sooner is refused with error:confirm-email-already-sent, so nobody floods a mailbox.
 */
export const CONFIRM_INTERVAL_MINUTES = 10;
const BACKOFF_MAX_MS = 6 * 60 * MINUTE;
/** Attempts before a mail is marked failed (about two days with the back-off). */
export const MAX_ATTEMPTS = 12;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The back-off after a failed attempt (1 min, 2, 4, … up to 6 h). */
export function backoff(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/**
 * Outgoing mail. Every mail is written to the outbox first (and logged, without secrets),
 * then sent by the `mail.send` job, so the action that caused it never waits for SMTP and a
 * refusing or absent server loses nothing: the mail is retried with back-off.
 */
export class MailService {
  /** Replaces SMTP (tests of a failing transport); null: the forum's SMTP settings. */
  transportOverride: MailTransport | null = null;

  constructor(private readonly ctx: MailDeps) {}

  private async frame(user: UserRow | null) {
    const s = await this.ctx.settings.get();
    // Each mail in its recipient's language: theirs when the forum offers it, else the forum's.
    const lang = user ? memberLanguage(user, s) : forumLanguage(s);
    return { lang, siteTitle: s.siteTitle, url: this.ctx.config.url, username: user?.username ?? '' };
  }

  /** Renders a template for a member: what the outbox row holds. */
  private async compose(user: UserRow, data: TemplateData): Promise<{ subject: string; text: string; html: string; headers: Record<string, string> }> {
    const mail = render(data, await this.frame(user));
    const headers: Record<string, string> = {};
    if (data.template === 'notification') {
      headers['List-Unsubscribe'] = `<${data.unsubscribe}>`;
      // RFC 8058: a mail client unsubscribes with one POST to that address (the link itself only shows a button).
      headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
    }
    return { ...mail, headers };
  }

  /**
   * Writes a rendered mail to the outbox on the action's writer; returns its id, 0 when `key`
   * was queued before (a durable listener or job run twice queues its mail once).
   */
  private async queue(w: Writer, user: UserRow, template: string, mail: Awaited<ReturnType<MailService['compose']>>, to: string, key?: string): Promise<number> {
    const id = await store.insertMail(w, { uid: user.uid, to, template, ...mail, now: Date.now(), key });
    // Written to the log too, so a forum without SMTP can still see what went out (no links: they carry codes).
    if (id) this.ctx.log.info({ mailId: id, to, template, subject: mail.subject }, 'mail queued');
    return id;
  }

  /** Makes a single-use code for a member in the action's transaction; only its hash is stored (the member's older links of the kind stop working). */
  private async newCode(w: Writer, user: UserRow, kind: 'confirm' | 'reset', ttlMs: number, email: string): Promise<string> {
    const code = randomBytes(24).toString('base64url');
    const now = Date.now();
    await store.voidCodes(w, user.uid, kind, now);
    await store.insertCode(w, { hash: sha256(code), uid: user.uid, kind, email: email.toLowerCase(), now, expires: now + ttlMs });
    return code;
  }

  /** Renders a template for a member and writes it to the outbox inside an action already open (its writer). */
  async enqueueIn(w: Writer, user: UserRow, data: TemplateData, to = user.email ?? '', key?: string): Promise<number> {
    if (!to) return 0;
    return this.queue(w, user, data.template, await this.compose(user, data), to, key);
  }

  /**
   * Renders a template for a member and writes it to the outbox; returns the mail's id (0: none,
   * or `key` was queued before).
   */
  async enqueue(user: UserRow, data: TemplateData, to = user.email ?? '', key?: string): Promise<number> {
    if (!to) return 0;
    const mail = await this.compose(user, data);
    return this.ctx.actions.run(`mail.${data.template}`, (w) => this.queue(w, user, data.template, mail, to, key));
  }

  /**
   * Mails a single-use link to `email` (only its hash is stored; the member's older links of
   * the kind stop working), in one action with the mail: with `key`, a second call queues
   * nothing and leaves the first link working.
   */
  private async mailCode(user: UserRow, kind: 'confirm' | 'reset', ttlMs: number, email: string, data: (code: string) => TemplateData, key?: string): Promise<void> {
    const code = randomBytes(24).toString('base64url');
    const mail = await this.compose(user, data(code));
    await this.ctx.actions.run(`mail.${kind}`, async (w) => {
      if (!(await this.queue(w, user, kind, mail, email, key))) return;
      const now = Date.now();
      await store.voidCodes(w, user.uid, kind, now);
      await store.insertCode(w, { hash: sha256(code), uid: user.uid, kind, email: email.toLowerCase(), now, expires: now + ttlMs });
    });
  }

  /** Sends a confirmation link for the member's current address (`key`: once per durable listener run). */
  async sendConfirmation(user: UserRow, key?: string): Promise<void> {
    if (!user.email) return;
    const hours = (await this.ctx.settings.get()).emailConfirmExpiryHours;
    await this.mailCode(user, 'confirm', hours * 60 * MINUTE, user.email, (code) => ({ template: 'confirm', link: `${this.ctx.config.url}/confirm/${code}`, hours }), key);
  }

  /**
   * Counts a confirmation mail a member asks for (an email change) and refuses it (429
   * error:confirm-email-already-sent, with the minutes left) within CONFIRM_INTERVAL_MINUTES of
   * their last one. The shared limiter counts it, so every process agrees. The registration's
   * own mail is not counted: a member who mistyped their address fixes it at once.
   */
  async assertConfirmationAllowed(user: UserRow): Promise<void> {
    const wait = await this.ctx.limiter.hit(`confirm-mail:${user.uid}`, 1, CONFIRM_INTERVAL_MINUTES * 60);
    if (wait > 0) throw tooMany('error:confirm-email-already-sent', Math.ceil(wait / 60));
  }

  /**
   * Inside an email change's action: a confirmation link to the new address (the old one stays
   * until it is followed), and a notice to the old one, so a change the member did not ask for
   * does not pass unseen.
   */
  async sendChangeConfirmation(w: Writer, user: UserRow, email: string): Promise<void> {
    const hours = (await this.ctx.settings.get()).emailConfirmExpiryHours;
    const code = await this.newCode(w, user, 'confirm', hours * 60 * MINUTE, email);
    await this.enqueueIn(w, user, { template: 'confirm', link: `${this.ctx.config.url}/confirm/${code}`, hours }, email);
    if (user.email) await this.enqueueIn(w, user, { template: 'email-change-requested', email, link: this.passwordPage(user) }, user.email);
  }

  /** Inside the action that removed a member's address: tells that address. */
  async sendRemovedNotice(w: Writer, user: UserRow, old: string): Promise<void> {
    await this.enqueueIn(w, user, { template: 'email-removed', link: this.passwordPage(user) }, old);
  }

  /** Where a member changes their password (the notices' link: a change they did not ask for means someone has it). */
  private passwordPage(user: UserRow): string {
    return `${this.ctx.config.url}/user/${user.userslug}/edit/password`;
  }

  /** The new address a member asked for and has not confirmed yet (null: none, or it is their current one). */
  async pendingEmail(user: UserRow): Promise<string | null> {
    const email = await store.openCodeEmail(this.ctx.db, user.uid, 'confirm', Date.now());
    return email && email !== (user.email ?? '').toLowerCase() ? email : null;
  }

  /** Sends a password-reset link; at most one a minute per member, so nobody can flood a mailbox. */
  async sendReset(user: UserRow, key?: string): Promise<void> {
    if (!user.email) return;
    if (Date.now() - (await store.lastCodeTime(this.ctx.db, user.uid, 'reset')) < RESET_INTERVAL_MS) {
      this.ctx.log.info({ uid: user.uid }, 'password reset asked again within a minute: no new mail');
      return;
    }
    const email = user.email;
    const minutes = (await this.ctx.settings.get()).resetExpiryMinutes;
    await this.mailCode(user, 'reset', minutes * MINUTE, email, (code) => ({ template: 'reset', link: `${this.ctx.config.url}/reset/${code}`, minutes }), key);
  }

  /**
   * Mails a notification (text: plain or with [[key, params]] tokens; path inside the forum)
   * unless the member unsubscribed from its type. Returns the mail's id, 0 when none was sent.
   */
  async sendNotification(user: UserRow, n: { type: string; text: string; path: string }, key?: string): Promise<number> {
    if (!user.email || (await store.isUnsubscribed(this.ctx.db, user.uid, n.type))) return 0;
    const url = this.ctx.config.url;
    const link = `${url}${n.path.startsWith('/') ? n.path : `/${n.path}`}`;
    return this.enqueue(user, { template: 'notification', text: n.text, link, unsubscribe: `${url}/email/unsubscribe/${this.unsubscribeToken(user.uid, n.type)}` }, user.email, key);
  }

  /** The notification types a member unsubscribed from with a mail's link (their settings show the mail off). */
  async unsubscribedTypes(uid: number): Promise<string[]> {
    return store.unsubscribedTypes(this.ctx.db, uid);
  }

  /** Why a code does not work, or its row: unknown or used, then expired. */
  private async usableCode(code: string, kind: 'confirm' | 'reset') {
    const row = /^[\w-]{10,100}$/.test(code) ? await store.codeByHash(this.ctx.db, sha256(code), kind) : undefined;
    if (!row || row.used_at) throw badRequest(`error:${kind}-code-invalid`);
    if (row.expires <= Date.now()) throw badRequest(`error:${kind}-code-expired`);
    return row;
  }

  /** Checks a reset code without using it (the reset page shows the form or the error). */
  async checkResetCode(code: string): Promise<void> {
    await this.usableCode(code, 'reset');
  }

  /** Sets a new password with a reset code: the code works once, and every session ends. */
  async resetPassword(code: string, password: string): Promise<void> {
    const row = await this.usableCode(code, 'reset');
    await this.ctx.users.resetPassword(row.uid, password, async (w) => {
      // Two requests with one code: the conditional update lets one through.
      if (!(await store.useCode(w, row.code_hash, Date.now()))) throw badRequest('error:reset-code-invalid');
    });
  }

  /** Checks a confirmation code without using it (the confirm page shows its button or the error). */
  async checkConfirmCode(code: string): Promise<void> {
    await this.usableCode(code, 'confirm');
  }

  /** Confirms an address with its code (the confirm page's button, a POST); sends the welcome mail. */
  async confirmEmail(code: string): Promise<void> {
    const row = await this.usableCode(code, 'confirm');
    // The member's current address, or a new one from an email change (credentials.ts).
    const ok = await this.ctx.users.confirmAddress(row.uid, row.email, async (w) => {
      if (!(await store.useCode(w, row.code_hash, Date.now()))) throw badRequest('error:confirm-code-invalid');
    });
    if (!ok) throw badRequest('error:confirm-code-invalid');
    const user = await this.ctx.users.get(row.uid);
    // A new address of an email change gets no welcome: the member is not new.
    if (user && ok === 'confirmed') await this.enqueue(user, { template: 'welcome' });
  }

  /** The signed token of a notification mail's unsubscribe link (HMAC with the forum's secret). */
  unsubscribeToken(uid: number, type: string): string {
    return `${uid}.${type}.${this.sign(uid, type)}`;
  }

  private sign(uid: number, type: string): string {
    return createHmac('sha256', this.ctx.config.secret).update(`unsubscribe:${uid}:${type}`).digest('base64url').slice(0, 32);
  }

  /** Whom and what an unsubscribe link names, once its signature is checked; 400 error:unsubscribe-invalid otherwise. */
  async checkUnsubscribe(token: string): Promise<{ uid: number; type: string }> {
    const m = /^(\d{1,10})\.([a-z][\w-]{0,63})\.([\w-]{32})$/.exec(token);
    if (!m) throw badRequest('error:unsubscribe-invalid');
    const uid = Number(m[1]);
    const type = m[2]!;
    const expected = Buffer.from(this.sign(uid, type));
    if (!timingSafeEqual(expected, Buffer.from(m[3]!)) || !(await this.ctx.users.get(uid))) throw badRequest('error:unsubscribe-invalid');
    return { uid, type };
  }

  /** Acts on an unsubscribe link (its page's button, or a mail client's one-click POST): no more mail of that type. */
  async unsubscribe(token: string): Promise<{ uid: number; type: string }> {
    const { uid, type } = await this.checkUnsubscribe(token);
    await this.ctx.actions.run('mail.unsubscribe', (w) => store.unsubscribe(w, uid, type, Date.now()));
    return { uid, type };
  }

  /**
   * The admin's test mail (the email settings page's button): sent at once with the saved SMTP
   * settings, not through the outbox, so the answer says whether it went. 400
   * `error:smtp-not-set` without an SMTP host or an address to send to, 502
   * `error:test-email-failed` with the server's reason when it refuses.
   */
  async sendTest(actor: Viewer, ip = ''): Promise<string> {
    assertAdmin(actor);
    const user = await this.ctx.users.get(actor.uid);
    if (!user) throw badRequest('error:smtp-not-set');
    const s = await this.ctx.settings.get();
    const transport = this.transportOverride ?? smtpTransport(s);
    if (!transport || !user.email) throw badRequest('error:smtp-not-set');
    const mail = render({ template: 'test', link: `${this.ctx.config.url}/admin/settings/email` }, await this.frame(user));
    try {
      await transport.send({ from: fromAddress(s.smtpFrom, s.siteTitle, this.ctx.config.url), to: user.email, ...mail, headers: {} });
    } catch (err) {
      const reason = (err instanceof Error ? err.message : String(err)).replace(/[[\],]/g, ' ').slice(0, 200);
      this.ctx.log.warn({ err: reason }, 'test mail failed');
      throw new AppError('error:test-email-failed', 502, [reason]);
    } finally {
      if (transport !== this.transportOverride) transport.close();
    }
    await this.ctx.events.log('email-test', actor.uid, {}, ip);
    return user.email;
  }

  /** Whether the forum can send mail: an SMTP host is set (pages that would promise a mail ask). */
  async configured(): Promise<boolean> {
    return this.transportOverride !== null || mailConfigured(await this.ctx.settings.get());
  }

  /**
   * Whether the forum can send mail (an SMTP host is set) and what waits in the outbox: the
   * admin dashboard and the email settings page say so when mail is not configured.
   */
  async status(actor: Viewer): Promise<{ configured: boolean; waiting: number; oldest: number }> {
    assertAdmin(actor);
    const s = await this.ctx.settings.get();
    const { count, oldest } = await store.waiting(this.ctx.db);
    return { configured: this.transportOverride !== null || mailConfigured(s), waiting: count, oldest };
  }

  /**
   * Sends the due mails of the outbox (the `mail.send` job). Each mail is claimed with a
   * conditional update, so two processes never send one twice; a failure puts it back with
   * back-off. Without SMTP settings nothing is sent and nothing is lost. Stops when `signal`
   * fires (the job's lease was lost). Returns the number sent.
   */
  async sendDue(now = Date.now(), signal?: AbortSignal): Promise<number> {
    const s = await this.ctx.settings.get();
    const transport = this.transportOverride ?? smtpTransport(s);
    if (!transport) return 0;
    const from = fromAddress(s.smtpFrom, s.siteTitle, this.ctx.config.url);
    let sent = 0;
    try {
      for (const id of await store.dueIds(this.ctx.db, now, BATCH)) {
        // The job's lease went to another process: the rest is its to send.
        if (signal?.aborted) break;
        const mail = await store.claim(this.ctx.db, id, now, LEASE_MS);
        if (!mail) continue;
        try {
          await transport.send({ from, to: mail.to_address, subject: mail.subject, text: mail.text, html: mail.html, headers: JSON.parse(mail.headers) as Record<string, string> });
          await store.markSent(this.ctx.db, id, Date.now());
          sent += 1;
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          const failed = mail.attempts >= MAX_ATTEMPTS;
          await store.markRetry(this.ctx.db, id, message, now + backoff(mail.attempts), failed);
          this.ctx.log.warn({ mailId: id, attempts: mail.attempts, err: message }, failed ? 'mail failed for good' : 'mail send failed; will retry');
        }
      }
    } finally {
      if (transport !== this.transportOverride) transport.close();
    }
    return sent;
  }
}
