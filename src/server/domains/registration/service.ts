import { createHash, randomBytes } from 'node:crypto';
import { slugify } from '../../../shared/slug.js';
import { emailError } from '../../../shared/validation.js';
import type { AppContext } from '../../context.js';
import { AppError, badRequest, forbidden, notAuthorised, notFound } from '../../http/errors.js';
import { enforce } from '../../http/ratelimit.js';
import { registerNeedsCaptcha, verifyCaptcha } from '../../plugins/captcha/index.js';
import type { Viewer } from '../privileges/service.js';
import type { UserRow } from '../users/store.js';
import * as store from './store.js';

/** Whether the address is on the blocked list (one address a line, compared without case). */
function emailBlacklisted(list: string, email: string): boolean {
  const wanted = email.trim().toLowerCase();
  return !!wanted && list.split('\n').some((line) => line.trim().toLowerCase() === wanted);
}

export type RegistrationDeps = Pick<AppContext, 'actions' | 'config' | 'db' | 'events' | 'groups' | 'hooks' | 'limiter' | 'log' | 'mail' | 'outgoing' | 'moderation' | 'privileges' | 'settings' | 'users'>;

const DAY = 86_400_000;
const MAX_INVITES_PER_REQUEST = 20;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The fields of the registration form (POST /register). */
export interface RegisterInput {
  username?: string;
  email?: string;
  password?: string;
  'password-confirm'?: string;
  /** The ALTCHA widget's solution (base64 JSON). */
  altcha?: string;
  /** reCAPTCHA's or hCaptcha's token, when the admin chose one of them. */
  'g-recaptcha-response'?: string;
  'h-captcha-response'?: string;
  /** The invitation token of an invite link. */
  token?: string;
  'agree-terms'?: boolean | string;
  gdpr_consent?: boolean | string;
  /** The honeypot: a hidden field people never fill. */
  website?: string;
}

/** What a registration ended in: a member (logged in by the caller) or a place in the queue. */
export type RegisterOutcome = { user: UserRow; queued?: undefined } | { user?: undefined; queued: true };

const yes = (v: unknown) => v === true || v === 'on' || v === 'true' || v === '1';

/**
 * Registration as NodeBB runs it: the type (normal, invite-only, admin-invite-only,
 * disabled), the approval queue, invitations, the terms and consent step, the captcha and
 * the honeypot. Accounts are made by the users service; this domain owns the queue,
 * invitations, consent and the addresses members registered from.
 */
export class RegistrationService {
  constructor(private readonly ctx: RegistrationDeps) {}

  /** An invitation that can still be used, by the token of its link; null when unknown, used or expired. */
  async usableInvitation(token: string | undefined): Promise<store.InvitationRow | null> {
    if (!token || !/^[\w-]{10,100}$/.test(token)) return null;
    const row = await store.invitationByHash(this.ctx.db, sha256(token));
    return row && row.used_at === 0 && row.expires > Date.now() ? row : null;
  }

  /**
   * Runs a registration from the form, in the order: honeypot, rate limit, type, captcha,
   * fields, consent, then queue or account. `userLang`: the language the guest read the forum
   * in when it is not the forum's, kept as the new member's setting.
   */
  async register(body: RegisterInput, ip: string, userLang?: string): Promise<RegisterOutcome> {
    if (body.website) {
      // A bot filled the field people never see: a neutral answer, and the event for admins.
      await this.ctx.events.log('registration-honeypot', 0, { username: String(body.username ?? '').slice(0, 100), email: String(body.email ?? '').slice(0, 200) }, ip);
      throw badRequest('error:registration-failed');
    }
    await enforce(this.ctx.limiter, `register:ip:${ip}`, this.ctx.config.rateLimits.register, 3600);
    const s = await this.ctx.settings.get();
    if (!s.allowRegistration || s.registrationType === 'disabled') throw forbidden('error:registration-disabled');
    const invitation = await this.usableInvitation(body.token);
    if (body.token && !invitation) throw badRequest('register:invite.error-invalid-data');
    if (!invitation && s.registrationType === 'invite-only') throw forbidden('register:invite.error-invite-only');
    if (!invitation && s.registrationType === 'admin-invite-only') throw forbidden('register:invite.error-admin-only');
    if (await registerNeedsCaptcha(this.ctx)) await verifyCaptcha(this.ctx, body, ip);
    if (typeof body.username !== 'string') throw badRequest('error:invalid-username');
    if (typeof body.email !== 'string') throw badRequest('error:invalid-email');
    if (typeof body.password !== 'string') throw badRequest('user:change-password-error');
    if (emailBlacklisted(s.registrationEmailBlacklist, body.email)) throw forbidden('error:blacklisted-email');
    if (body['password-confirm'] !== undefined && body['password-confirm'] !== body.password) throw badRequest('error:passwords-do-not-match');
    const tos = s.termsOfUse.trim() !== '';
    if (tos && !yes(body['agree-terms'])) throw badRequest('register:terms_of_use_error');
    if (s.gdpr_enabled && !yes(body.gdpr_consent)) throw badRequest('register:gdpr-consent-denied');
    const consent = { gdpr: s.gdpr_enabled, tos };

    const approval = s.registrationApprovalType;
    // An invitation is an existing member's word for the newcomer: it skips the queue.
    const queue = !invitation && (approval === 'admin-approval' || (approval === 'admin-approval-ip' && (await store.ipKnown(this.ctx.db, ip))));
    if (queue) {
      await this.enqueue({ username: body.username, email: body.email, password: body.password }, ip, consent);
      return { queued: true };
    }
    const user = await this.ctx.users.create(
      { username: body.username, email: body.email, password: body.password },
      {
        ip,
        ...(userLang ? { settings: { userLang } } : {}),
        // In the account's action: these rows commit with it or not at all.
        inTx: async (w, row) => {
          const now = Date.now();
          if (invitation && !(await store.useInvitation(w, invitation.token_hash, row.uid, now))) throw badRequest('register:invite.error-invalid-data');
          await store.setConsent(w, row.uid, consent, now);
          await store.addIp(w, ip, row.uid, now);
        },
      },
    );
    if (invitation) await this.joinInvitedGroups(invitation, user.uid);
    return { user };
  }

  /** True when registration would refuse this name as taken: a member has it, or a waiting registration holds it. */
  async nameTaken(name: string): Promise<boolean> {
    const slug = slugify(name.trim());
    return (await this.ctx.users.nameTaken(name.trim())) || (!!slug && (await store.queueHoldsName(this.ctx.db, slug)));
  }

  private async enqueue(data: { username: string; email: string; password: string }, ip: string, consent: { gdpr: boolean; tos: boolean }): Promise<void> {
    const { username, email } = await this.ctx.users.assertAvailable(data.username, data.email);
    const held = await store.queueHolds(this.ctx.db, slugify(username), email);
    if (held) throw badRequest(held === 'username' ? 'error:username-taken' : 'error:email-taken');
    const passwordHash = await this.ctx.users.hashNewPassword(data.password, [username, email]);
    // Two registrations racing past the check: the unique indexes decide, and the runner answers
    // error:username-taken or error:email-taken (core/unique.ts).
    await this.ctx.actions.run('registration.enqueue', async (w) => {
      await store.enqueue(w, { username, userslug: slugify(username), email, password_hash: passwordHash, ip, gdpr_consent: consent.gdpr ? 1 : 0, tos_accepted: consent.tos ? 1 : 0, created: Date.now() });
      await this.ctx.events.log('registration-queued', 0, { username, email }, ip, w);
    });
  }

  private async joinInvitedGroups(invitation: store.InvitationRow, uid: number): Promise<void> {
    let groups: string[] = [];
    try {
      groups = JSON.parse(invitation.groups) as string[];
    } catch {
      groups = [];
    }
    for (const name of groups) if (typeof name === 'string' && name) await this.ctx.groups.join(name, uid).catch((err: unknown) => this.ctx.log.warn({ err, name }, 'invited member could not join a group'));
  }

  private assertAdmin(actor: Viewer): void {
    if (!actor.isAdmin) throw forbidden();
  }

  /** The waiting registrations (admins), with the members already registered from each address. */
  async queue(actor: Viewer, page: number, perPage: number) {
    this.assertAdmin(actor);
    const { rows, count } = await store.listQueue(this.ctx.db, (page - 1) * perPage, perPage);
    const matches = await store.uidsByIps(this.ctx.db, [...new Set(rows.map((r) => r.ip).filter(Boolean))]);
    const members = await this.ctx.users.getMany([...new Set(matches.map((m) => m.uid))]);
    const byIp = new Map<string, UserRow[]>();
    for (const m of matches) {
      const u = members.get(m.uid);
      if (u) byIp.set(m.ip, [...(byIp.get(m.ip) ?? []), u]);
    }
    const invites = await store.pendingInvitations(this.ctx.db, Date.now());
    return { rows, count, byIp, invites };
  }

  private async queued(username: string): Promise<store.QueueRow> {
    const row = await store.queuedBySlug(this.ctx.db, slugify(username));
    if (!row) throw notFound('error:no-registration');
    return row;
  }

  /** Accepts a waiting registration (admins): the account is made with the password chosen then, and the newcomer is mailed. */
  async accept(actor: Viewer, username: string, ip: string): Promise<UserRow> {
    this.assertAdmin(actor);
    const row = await this.queued(username);
    const user = await this.ctx.users.create(
      { username: row.username, email: row.email, password: '' },
      {
        ip: row.ip,
        passwordHash: row.password_hash,
        // In the account's action: these rows commit with it or not at all.
        inTx: async (w, created) => {
          if (!(await store.dequeue(w, row.id))) throw notFound('error:no-registration');
          const now = Date.now();
          await store.setConsent(w, created.uid, { gdpr: row.gdpr_consent === 1, tos: row.tos_accepted === 1 }, now);
          await store.addIp(w, row.ip, created.uid, now);
          await this.ctx.events.log('registration-accepted', actor.uid, { targetUid: created.uid, username: row.username }, ip, w);
          await this.ctx.mail.enqueue(created, { template: 'registration-accepted', link: `${this.ctx.config.url}/login` }, created.email ?? '');
        },
      },
    );
    return user;
  }

  /** Rejects a waiting registration (admins): it is deleted. */
  async reject(actor: Viewer, username: string, ip: string): Promise<void> {
    this.assertAdmin(actor);
    const row = await this.queued(username);
    await this.ctx.actions.run('registration.reject', async (w) => {
      if (!(await store.dequeue(w, row.id))) throw notFound('error:no-registration');
      await this.ctx.events.log('registration-rejected', actor.uid, { username: row.username, email: row.email }, ip, w);
    });
  }

  /**
   * An admin's spam report on a waiting registration (spec §7 report/queue): the registration
   * is rejected and, as the admin chooses (both unless told otherwise), its IP address goes on
   * the IP blacklist and its email address on the blocked addresses, so neither registers
   * again; one transaction with the event.
   */
  async reportQueued(actor: Viewer, username: string, ip: string, block: { ip?: boolean; email?: boolean } = {}): Promise<void> {
    this.assertAdmin(actor);
    const row = await this.queued(username);
    // Never the reporting admin's own address: they would lock themselves out.
    const blockIp = block.ip !== false && !!row.ip && row.ip !== ip;
    const blockEmail = block.email !== false && !!row.email;
    const rules = blockIp ? (await this.ctx.moderation.blacklist.view()).rules : '';
    const emails = (await this.ctx.settings.get()).registrationEmailBlacklist;
    await this.ctx.actions.run('registration.spam', async (w) => {
      if (!(await store.dequeue(w, row.id))) throw notFound('error:no-registration');
      await this.ctx.events.log('spam-report-queue', actor.uid, { username: row.username, email: row.email, ip: row.ip, blockIp, blockEmail }, ip, w);
      // Both join this transaction (the runner is reentrant): the report commits whole or not at all.
      if (blockIp && !rules.split('\n').some((l) => l.trim() === row.ip)) await this.ctx.moderation.blacklist.save(actor.uid, `${rules.trimEnd()}\n${row.ip}`.trimStart(), ip);
      if (blockEmail && !emailBlacklisted(emails, row.email)) await this.ctx.settings.set({ registrationEmailBlacklist: `${emails.trimEnd()}\n${row.email}`.trimStart() });
    });
  }

  /** True when this viewer may send invitations under the forum's registration type. */
  async canInvite(actor: Viewer): Promise<boolean> {
    if (actor.uid <= 0) return false;
    if (actor.isAdmin) return true;
    const s = await this.ctx.settings.get();
    if (s.registrationType === 'admin-invite-only' || s.registrationType === 'disabled') return false;
    return this.ctx.privileges.can(actor, 'invite');
  }

  /**
   * NodeBB's GET /users/{uid}/invites/groups: the groups a member may name for invitees to join,
   * asked by the member themself. Only administrators name groups here (invite() refuses
   * others), so theirs are every group but the system ones; anyone else's are none.
   */
  async inviteGroups(actor: Viewer, uid: number): Promise<string[]> {
    if (actor.uid <= 0) throw notAuthorised();
    if (actor.uid !== uid) throw forbidden();
    if (!actor.isAdmin) return [];
    return (await this.ctx.groups.adminList(actor)).filter((g) => g.system === 0).map((g) => g.name);
  }

  /**
   * Invites people by mail (POST /users/{uid}/invites): each address gets a link that works
   * once for `inviteExpiration` days. Admin-invite-only forums let only admins invite; a
   * member's invitations are limited by `maximumInvites`. Only admins may name groups to join.
   */
  async invite(actor: Viewer, uid: number, emailsText: string, groupsToJoin: string[] = []): Promise<number> {
    if (actor.uid <= 0) throw new AppError('error:not-logged-in', 401);
    if (actor.uid !== uid) throw forbidden();
    if (!(await this.canInvite(actor))) throw forbidden();
    const inviter = await this.ctx.users.get(uid);
    if (!inviter) throw notFound('error:no-user');
    const emails = [...new Set(emailsText.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean))];
    if (!emails.length) throw badRequest('error:no-invite-emails');
    if (emails.length > MAX_INVITES_PER_REQUEST) throw badRequest('error:invalid-data');
    for (const email of emails) if (emailError(email)) throw badRequest('error:invalid-email');
    if (groupsToJoin.length && !actor.isAdmin) throw forbidden();
    const s = await this.ctx.settings.get();
    if (!actor.isAdmin && s.maximumInvites > 0 && (await store.countInvitationsBy(this.ctx.db, uid)) + emails.length > s.maximumInvites) {
      throw forbidden('error:invite-limit-reached', s.maximumInvites);
    }
    for (const email of emails) {
      if (await this.ctx.users.byEmailAddress(email)) throw badRequest('error:email-taken');
    }
    const now = Date.now();
    const tokens = emails.map((email) => ({ email, token: randomBytes(24).toString('base64url') }));
    // The mail has no member yet: no name in the greeting, the forum's language.
    const recipient: UserRow = { ...inviter, uid: 0, username: '', settings: '{}' };
    // The invitations, their mails and the event commit together.
    await this.ctx.actions.run('registration.invite', async (w) => {
      for (const { email, token } of tokens) {
        await store.insertInvitation(w, { token_hash: sha256(token), inviter: uid, email, groups: JSON.stringify(groupsToJoin), created: now, expires: now + s.inviteExpiration * DAY });
        await this.ctx.mail.enqueueIn(w, recipient, { template: 'invitation', link: `${this.ctx.config.url}/register?token=${token}`, inviter: inviter.username, days: s.inviteExpiration }, email);
      }
      await this.ctx.events.log('invite', uid, { emails }, '', w);
    });
    return tokens.length;
  }

  /** A member's consent (the member themself or an admin): given, and when. */
  async consentOf(uid: number): Promise<{ gdpr_consent: boolean; gdpr_at: number; tos_at: number }> {
    const row = await store.consentOf(this.ctx.db, uid);
    return { gdpr_consent: row?.gdpr_consent === 1, gdpr_at: row?.gdpr_at ?? 0, tos_at: row?.tos_at ?? 0 };
  }

  /** Records a member's consent to data processing (from the consent page), and optionally the current terms. */
  async giveConsent(actor: Viewer, uid: number, tos = false): Promise<void> {
    if (actor.uid !== uid) throw forbidden();
    await this.ctx.actions.run('registration.consent', async (w) => {
      await store.setConsent(w, uid, { gdpr: true, tos }, Date.now());
      await this.ctx.events.log('consent-given', uid, { tos }, '', w);
    });
  }
}
