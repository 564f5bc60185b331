import type { TwoFactorVariant } from '../../../shared/security.js';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../http/errors.js';
import { enforce } from '../../http/ratelimit.js';
import * as authnStore from './authn-store.js';
import * as store from './store.js';
import { backupHash, codeStep, newBackupCodes, newSecret, otpauthUri, qrDataUrl } from './totp.js';

/** Code attempts (TOTP or backup) a member may make per window: brute force stops here. */
export const TWO_FACTOR_ATTEMPTS = 5;
/** The window of those attempts, in seconds. */
export const TWO_FACTOR_WINDOW_SEC = 300;

/** Counts one second-factor attempt of a member: TOTP, backup code and security key share the bucket. */
export async function limitTwoFactorAttempt(limiter: AppContext['limiter'], uid: number): Promise<void> {
  await enforce(limiter, `2fa:uid:${uid}`, TWO_FACTOR_ATTEMPTS, TWO_FACTOR_WINDOW_SEC, 'error:too-many-two-factor-attempts');
}

type Deps = Pick<AppContext, 'actions' | 'db' | 'limiter' | 'settings'>;

/** What the 2factor page shows of a member's key. */
export interface TwoFactorStatus {
  /** A confirmed TOTP key. */
  enabled: boolean;
  backupCodesLeft: number;
  /** How many WebAuthn security keys (authn.ts). */
  securityKeys: number;
}

export type { TwoFactorVariant };

/** What an enrolment shows once: the secret, its address and its QR code. */
export interface Enrolment {
  secret: string;
  uri: string;
  qr: string;
}

/**
 * TOTP two-factor keys (RFC 6238 through otplib) and backup codes. Codes are checked with
 * replay protection (a time step works once) and a per-member attempt limit shared by every
 * process (the forum's rate limiter).
 */
export class TwoFactorService {
  constructor(private readonly ctx: Deps) {}

  /** True when the member has a second factor: a confirmed TOTP key or a security key. */
  async hasKey(uid: number): Promise<boolean> {
    return (await this.hasTotp(uid)) || (await authnStore.countOf(this.ctx.db, uid)) > 0;
  }

  /** True when the member has a confirmed TOTP key. */
  async hasTotp(uid: number): Promise<boolean> {
    const row = await store.keyOf(this.ctx.db, uid);
    return row?.confirmed === 1;
  }

  /** The member's key state for their 2factor page. */
  async status(uid: number): Promise<TwoFactorStatus> {
    const enabled = await this.hasTotp(uid);
    const securityKeys = await authnStore.countOf(this.ctx.db, uid);
    return { enabled, securityKeys, backupCodesLeft: enabled || securityKeys > 0 ? await store.backupCodesLeft(this.ctx.db, uid) : 0 };
  }

  /** The /login/2fa variants open to the member: security key, TOTP, then backup codes (with either). */
  async variants(uid: number): Promise<TwoFactorVariant[]> {
    const out: TwoFactorVariant[] = [];
    if ((await authnStore.countOf(this.ctx.db, uid)) > 0) out.push('authn');
    if (await this.hasTotp(uid)) out.push('totp');
    if (out.length > 0) out.push('backup');
    return out;
  }

  /** Starts an enrolment (a new unconfirmed secret); refused while a key is active. */
  async begin(uid: number, label: string): Promise<Enrolment> {
    if (await this.hasTotp(uid)) throw badRequest('error:two-factor-already-enabled');
    const secret = newSecret();
    await this.ctx.actions.run('two-factor.enrol', (w) => store.putPendingKey(w, uid, secret, Date.now()));
    const uri = otpauthUri((await this.ctx.settings.get()).siteTitle || 'Palaver', label, secret);
    return { secret, uri, qr: await qrDataUrl(uri) };
  }

  /** Confirms an enrolment with a code from the app; returns the backup codes (shown once). */
  async confirm(uid: number, code: string): Promise<string[]> {
    await limitTwoFactorAttempt(this.ctx.limiter, uid);
    const row = await store.keyOf(this.ctx.db, uid);
    if (!row || row.confirmed === 1) throw badRequest('error:two-factor-not-enrolling');
    const step = await codeStep(row.secret, code);
    if (step === null) throw badRequest('error:two-factor-invalid-code');
    const codes = newBackupCodes();
    await this.ctx.actions.run('two-factor.confirm', async (w) => {
      if (!(await store.confirmKey(w, uid, step))) throw badRequest('error:two-factor-not-enrolling');
      await store.replaceBackupCodes(
        w,
        uid,
        codes.map((c) => backupHash(uid, c)),
      );
    });
    return codes;
  }

  /** New backup codes in place of the old ones (the member has a key). */
  async regenerateBackupCodes(uid: number): Promise<string[]> {
    if (!(await this.hasKey(uid))) throw badRequest('error:two-factor-not-enabled');
    const codes = newBackupCodes();
    await this.ctx.actions.run('two-factor.backup-codes', (w) =>
      store.replaceBackupCodes(
        w,
        uid,
        codes.map((c) => backupHash(uid, c)),
      ),
    );
    return codes;
  }

  /**
   * Removes the TOTP key (the caller checked the password), and the backup codes unless the
   * member still has a security key for them to back up.
   */
  async disable(uid: number): Promise<void> {
    await this.ctx.actions.run('two-factor.disable', async (w) => store.deleteKey(w, uid, (await authnStore.countOf(w.tx, uid)) > 0));
  }

  /** Checks a code from the app: throws error:two-factor-invalid-code when wrong or already used. */
  async verifyTotp(uid: number, code: string): Promise<void> {
    await limitTwoFactorAttempt(this.ctx.limiter, uid);
    const row = await store.keyOf(this.ctx.db, uid);
    if (!row || row.confirmed !== 1) throw badRequest('error:two-factor-not-enabled');
    const step = await codeStep(row.secret, code);
    if (step === null) throw badRequest('error:two-factor-invalid-code');
    if (!(await this.ctx.actions.run('two-factor.use-code', (w) => store.useStep(w, uid, step)))) throw badRequest('error:two-factor-code-used');
  }

  /** Checks a backup code and uses it up: each works once. */
  async verifyBackup(uid: number, code: string): Promise<void> {
    await limitTwoFactorAttempt(this.ctx.limiter, uid);
    if (!(await this.hasKey(uid))) throw badRequest('error:two-factor-not-enabled');
    if (!(await this.ctx.actions.run('two-factor.use-backup-code', (w) => store.useBackupCode(w, uid, backupHash(uid, code), Date.now())))) throw badRequest('error:two-factor-invalid-backup-code');
  }
}

const services = new WeakMap<object, TwoFactorService>();

/** The forum's two-factor service (one per application context). */
export function twoFactor(ctx: Deps): TwoFactorService {
  let s = services.get(ctx);
  if (!s) services.set(ctx, (s = new TwoFactorService(ctx)));
  return s;
}
