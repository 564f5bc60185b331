import { forumLanguage, memberLanguage } from '../../http/language.js';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/index.js';
import { AppError, badRequest } from '../../http/errors.js';
import { assertAdmin, type Viewer } from '../privileges/service.js';
import type { UserRow } from '../users/store.js';
import * as store from './store.js';
import { render, type TemplateData } from './templates.js';
import { fromAddress, smtpTransport, type MailTransport } from './transport.js';

export type MailDeps = Pick<AppContext, 'config' | 'db' | 'log' | 'settings' | 'users' | 'events' | 'hooks' | 'mail'>;

const MINUTE = 60_000;
const BATCH = 20;
// A send that takes longer than this is taken over by another run (its process likely died).
const LEASE_MS = 2 * MINUTE;
const BACKOFF_BASE_MS = MINUTE;
const RESET_INTERVAL_MS = MINUTE;
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

  /** Renders a template for a member and writes it to the outbox; returns the mail's id. */
  async enqueue(user: UserRow, data: TemplateData, to = user.email ?? '', db: Queryable = this.ctx.db): Promise<number> {
    if (!to) return 0;
    const mail = render(data, await this.frame(user));
    const headers: Record<string, string> = {};
    if (data.template === 'notification') {
      headers['List-Unsubscribe'] = `<${data.unsubscribe}>`;
    }
    const id = await store.insertMail(db, { uid: user.uid, to, template: data.template, ...mail, headers, now: Date.now() });
    // Written to the log too, so a forum without SMTP can still see what went out (no links: they carry codes).
    this.ctx.log.info({ mailId: id, to, template: data.template, subject: mail.subject }, 'mail queued');
    return id;
  }

  /** Makes a single-use code for a member; only its hash is stored. */
  private async newCode(user: UserRow, kind: 'confirm' | 'reset', ttlMs: number, email: string): Promise<string> {
    const code = randomBytes(24).toString('base64url');
    const now = Date.now();
    await this.ctx.db.transaction().execute(async (tx) => {
      // Only the newest link of a kind works.
      await store.voidCodes(tx, user.uid, kind, now);
      await store.insertCode(tx, { hash: sha256(code), uid: user.uid, kind, email: email.toLowerCase(), now, expires: now + ttlMs });
    });
    return code;
  }

  /** Sends a confirmation link for the member's current address. */
  async sendConfirmation(user: UserRow): Promise<void> {
    if (!user.email) return;
    const hours = (await this.ctx.settings.get()).emailConfirmExpiryHours;
    const code = await this.newCode(user, 'confirm', hours * 60 * MINUTE, user.email);
    await this.enqueue(user, { template: 'confirm', link: `${this.ctx.config.url}/confirm/${code}`, hours });
  }

  /** Sends a confirmation link to a new address (an email change); the old one stays until it is followed. */
  async sendChangeConfirmation(user: UserRow, email: string): Promise<void> {
    const hours = (await this.ctx.settings.get()).emailConfirmExpiryHours;
    const code = await this.newCode(user, 'confirm', hours * 60 * MINUTE, email);
    await this.enqueue(user, { template: 'confirm', link: `${this.ctx.config.url}/confirm/${code}`, hours }, email);
  }

  /** The new address a member asked for and has not confirmed yet (null: none, or it is their current one). */
  async pendingEmail(user: UserRow): Promise<string | null> {
    const email = await store.openCodeEmail(this.ctx.db, user.uid, 'confirm', Date.now());
    return email && email !== (user.email ?? '').toLowerCase() ? email : null;
  }

  /** Sends a password-reset link; at most one a minute per member, so nobody can flood a mailbox. */
  async sendReset(user: UserRow): Promise<void> {
    if (!user.email) return;
    if (Date.now() - (await store.lastCodeTime(this.ctx.db, user.uid, 'reset')) < RESET_INTERVAL_MS) {
      this.ctx.log.info({ uid: user.uid }, 'password reset asked again within a minute: no new mail');
      return;
    }
    const minutes = (await this.ctx.settings.get()).resetExpiryMinutes;
    const code = await this.newCode(user, 'reset', minutes * MINUTE, user.email);
    await this.enqueue(user, { template: 'reset', link: `${this.ctx.config.url}/reset/${code}`, minutes });
  }

  /**
   * Mails a notification (text: plain or with [[key, params]] tokens; path inside the forum)
   * unless the member unsubscribed from its type. Returns the mail's id, 0 when none was sent.
   */
  async sendNotification(user: UserRow, n: { type: string; text: string; path: string }): Promise<number> {
    if (!user.email || (await store.isUnsubscribed(this.ctx.db, user.uid, n.type))) return 0;
    const url = this.ctx.config.url;
    const link = `${url}${n.path.startsWith('/') ? n.path : `/${n.path}`}`;
    return this.enqueue(user, { template: 'notification', text: n.text, link, unsubscribe: `${url}/email/unsubscribe/${this.unsubscribeToken(user.uid, n.type)}` });
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
    await this.ctx.users.resetPassword(row.uid, password, async (tx) => {
      // Two requests with one code: the conditional update lets one through.
      if (!(await store.useCode(tx, row.code_hash, Date.now()))) throw badRequest('error:reset-code-invalid');
    });
  }

  /** Confirms an address with its code; sends the welcome mail. */
  async confirmEmail(code: string): Promise<void> {
    const row = await this.usableCode(code, 'confirm');
    // The member's current address, or a new one from an email change (credentials.ts).
    const ok = await this.ctx.users.confirmAddress(row.uid, row.email, async (tx) => {
      if (!(await store.useCode(tx, row.code_hash, Date.now()))) throw badRequest('error:confirm-code-invalid');
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

  /** Follows an unsubscribe link: the member gets no more mail of that type. 400 for a bad signature. */
  async unsubscribe(token: string): Promise<{ uid: number; type: string }> {
    const m = /^(\d{1,10})\.([a-z][\w-]{0,63})\.([\w-]{32})$/.exec(token);
    if (!m) throw badRequest('error:unsubscribe-invalid');
    const uid = Number(m[1]);
    const type = m[2]!;
    const expected = Buffer.from(this.sign(uid, type));
    if (!timingSafeEqual(expected, Buffer.from(m[3]!)) || !(await this.ctx.users.get(uid))) throw badRequest('error:unsubscribe-invalid');
    await store.unsubscribe(this.ctx.db, uid, type, Date.now());
    return { uid, type };
  }

  /**
   * Sends the due mails of the outbox (the `mail.send` job). Each mail is claimed with a
   * conditional update, so two processes never send one twice; a failure puts it back with
   * back-off. Without SMTP settings nothing is sent and nothing is lost. Returns the number sent.
   */
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

  async sendDue(now = Date.now()): Promise<number> {
    const s = await this.ctx.settings.get();
    const transport = this.transportOverride ?? smtpTransport(s);
    if (!transport) return 0;
    const from = fromAddress(s.smtpFrom, s.siteTitle, this.ctx.config.url);
    let sent = 0;
    try {
      for (const id of await store.dueIds(this.ctx.db, now, BATCH)) {
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
