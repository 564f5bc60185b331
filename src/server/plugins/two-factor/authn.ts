import { createHmac } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { SecurityKey } from '../../../shared/security.js';
import type { AppContext } from '../../context.js';
import { badRequest, notFound } from '../../http/errors.js';
import * as store from './authn-store.js';
import { limitTwoFactorAttempt } from './service.js';
import * as totpStore from './store.js';
import { backupHash, newBackupCodes } from './totp.js';

/** How long a challenge may wait for the browser's answer. */
export const AUTHN_CHALLENGE_TTL_MS = 5 * 60_000;
/** The most security keys one member may register. */
export const MAX_SECURITY_KEYS = 20;
/** The longest label of a key. */
export const LABEL_MAX = 64;

type Deps = Pick<AppContext, 'actions' | 'config' | 'db' | 'limiter' | 'settings'>;

/** A security key as the member's 2factor page lists it (never its public key). */
export type SecurityKeyInfo = SecurityKey;

/** What a challenge is for: adding a key, or proving one at login / re-authentication. */
export type ChallengePurpose = 'register' | 'login';

/**
 * The relying party the browser checks: the forum's host name (rpID) and origin, both from
 * config.url, so a response made for another site (a look-alike domain) never verifies.
 */
export function relyingParty(ctx: Pick<AppContext, 'config'>): { rpID: string; origin: string } {
  const u = new URL(ctx.config.url);
  return { rpID: u.hostname, origin: u.origin };
}

function present(row: store.CredentialRow): SecurityKeyInfo {
  return {
    id: row.id,
    label: row.label,
    transports: transportsOf(row),
    created: row.created,
    createdISO: new Date(row.created).toISOString(),
    lastUsed: row.last_used,
    lastUsedISO: row.last_used ? new Date(row.last_used).toISOString() : '',
  };
}

function transportsOf(row: store.CredentialRow): AuthenticatorTransport[] {
  try {
    const t: unknown = JSON.parse(row.transports);
    return Array.isArray(t) ? t.filter((x): x is AuthenticatorTransport => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** The challenge a response signed (from its clientDataJSON), or null when unreadable. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && /^[\w-]{16,512}$/.test(data.challenge) ? data.challenge : null;
  } catch {
    return null;
  }
}

function cleanLabel(label: string): string {
  const l = label.replace(/\s+/g, ' ').trim();
  if (!l) throw badRequest('error:two-factor-authn-label-required');
  if (l.length > LABEL_MAX) throw badRequest('error:two-factor-authn-label-too-long', LABEL_MAX);
  return l;
}

/**
 * @simplewebauthn/server is loaded with the first security-key ceremony, not at start-up: it is
 * some 8 MB of a process's memory and 100–200 ms of its start.
 */
let library: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webauthn = () => (library ??= import('@simplewebauthn/server'));

/**
 * WebAuthn security keys (and passkeys) as a second factor, through @simplewebauthn/server.
 * A challenge is kept server-side for one session (or one waiting login) and one purpose, for
 * five minutes, and is deleted when answered: a response works once. A key's signature counter
 * must grow (when the key keeps one): a response from a cloned key is refused.
 */
export class SecurityKeys {
  constructor(private readonly ctx: Deps) {}

  /** The member's keys, oldest first. */
  async list(uid: number): Promise<SecurityKeyInfo[]> {
    return (await store.credentialsOf(this.ctx.db, uid)).map(present);
  }

  /** How many keys the member has. */
  async count(uid: number): Promise<number> {
    return store.countOf(this.ctx.db, uid);
  }

  /**
   * Options for navigator.credentials.create(): the forum as relying party, the member (by an
   * opaque handle, not their uid), the keys they have (so one key is not added twice).
   */
  async registrationOptions(uid: number, owner: string, username: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const keys = await store.credentialsOf(this.ctx.db, uid);
    if (keys.length >= MAX_SECURITY_KEYS) throw badRequest('error:two-factor-authn-too-many-keys', MAX_SECURITY_KEYS);
    const { rpID } = relyingParty(this.ctx);
    const options = await (
      await webauthn()
    ).generateRegistrationOptions({
      rpName: (await this.ctx.settings.get()).siteTitle || 'Palaver',
      rpID,
      userName: username,
      userDisplayName: username,
      userID: this.userHandle(uid),
      attestationType: 'none',
      timeout: AUTHN_CHALLENGE_TTL_MS,
      excludeCredentials: keys.map((k) => ({ id: k.id, transports: transportsOf(k) })),
      // A second factor: the password was the first, so no PIN or fingerprint is demanded.
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'discouraged' },
    });
    await this.keepChallenge(options.challenge, owner, 'register', uid);
    return options;
  }

  /**
   * Checks the browser's answer to registrationOptions and stores the key under the member's
   * label. A member who had no second factor yet also gets backup codes (shown once), so a lost
   * key does not lock them out; otherwise `backupCodes` is null.
   */
  async register(
    uid: number,
    owner: string,
    response: RegistrationResponseJSON,
    label: string,
  ): Promise<{ key: SecurityKeyInfo; backupCodes: string[] | null }> {
    const name = cleanLabel(label);
    await limitTwoFactorAttempt(this.ctx.limiter, uid);
    const challenge = await this.takeChallenge(response.response?.clientDataJSON, owner, 'register', uid);
    const { rpID, origin } = relyingParty(this.ctx);
    let info;
    try {
      const out = await (
        await webauthn()
      ).verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: false,
      });
      info = out.verified ? out.registrationInfo : undefined;
    } catch {
      info = undefined;
    }
    if (!info) throw badRequest('error:two-factor-authn-failed');
    const now = Date.now();
    const row = {
      id: info.credential.id,
      uid,
      public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: JSON.stringify(info.credential.transports ?? response.response.transports ?? []),
      label: name,
      created: now,
    };
    let backupCodes: string[] | null = null;
    await this.ctx.actions.run('two-factor.add-key', async (w) => {
      const tx = w.tx;
      if ((await store.countOf(tx, uid)) >= MAX_SECURITY_KEYS) throw badRequest('error:two-factor-authn-too-many-keys', MAX_SECURITY_KEYS);
      const hadFactor = (await store.countOf(tx, uid)) > 0 || (await totpStore.keyOf(tx, uid))?.confirmed === 1;
      if (!(await store.insertCredential(w, row))) throw badRequest('error:two-factor-authn-key-exists');
      if (!hadFactor) {
        backupCodes = newBackupCodes();
        await totpStore.replaceBackupCodes(
          w,
          uid,
          backupCodes.map((c) => backupHash(uid, c)),
        );
      }
    });
    return { key: present({ ...row, last_used: 0 }), backupCodes };
  }

  /** Options for navigator.credentials.get() at login or re-authentication: the member's keys. */
  async authenticationOptions(uid: number, owner: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const keys = await store.credentialsOf(this.ctx.db, uid);
    if (keys.length === 0) throw badRequest('error:two-factor-authn-no-keys');
    const options = await (
      await webauthn()
    ).generateAuthenticationOptions({
      rpID: relyingParty(this.ctx).rpID,
      allowCredentials: keys.map((k) => ({ id: k.id, transports: transportsOf(k) })),
      userVerification: 'discouraged',
      timeout: AUTHN_CHALLENGE_TTL_MS,
    });
    await this.keepChallenge(options.challenge, owner, 'login', uid);
    return options;
  }

  /**
   * Checks an answer to authenticationOptions: the challenge (once), a key of this member, its
   * signature, and a counter above the stored one (then stored, compare-and-set). Throws a
   * translated 400 when any of it fails; counts toward the member's attempt limit.
   */
  async authenticate(uid: number, owner: string, response: AuthenticationResponseJSON): Promise<void> {
    await limitTwoFactorAttempt(this.ctx.limiter, uid);
    const challenge = await this.takeChallenge(response.response?.clientDataJSON, owner, 'login', uid);
    const cred = typeof response.id === 'string' ? await store.credential(this.ctx.db, response.id) : undefined;
    if (!cred || cred.uid !== uid) throw badRequest('error:two-factor-authn-unknown-key');
    const { rpID, origin } = relyingParty(this.ctx);
    let newCounter: number;
    try {
      const out = await (
        await webauthn()
      ).verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: { id: cred.id, publicKey: Buffer.from(cred.public_key, 'base64url'), counter: cred.counter, transports: transportsOf(cred) },
        requireUserVerification: false,
      });
      if (!out.verified) throw new Error('not verified');
      newCounter = out.authenticationInfo.newCounter;
    } catch (err) {
      // The library refuses a counter that did not grow: a replayed or cloned key's response.
      if (err instanceof Error && /counter/i.test(err.message)) throw badRequest('error:two-factor-authn-replayed');
      throw badRequest('error:two-factor-authn-failed');
    }
    if (!(await this.ctx.actions.run('two-factor.use-key', (w) => store.useCredential(w, cred.id, uid, cred.counter, newCounter, Date.now())))) throw badRequest('error:two-factor-authn-replayed');
  }

  /** Renames one of the member's keys. */
  async rename(uid: number, id: string, label: string): Promise<void> {
    if (!(await this.ctx.actions.run('two-factor.rename-key', (w) => store.renameCredential(w, uid, id, cleanLabel(label))))) throw notFound('error:two-factor-authn-no-such-key');
  }

  /**
   * Removes one of the member's keys (the caller checked the password). With the last key
   * gone and no TOTP key either, the backup codes go too: nothing is left for them to back up.
   */
  async remove(uid: number, id: string): Promise<void> {
    await this.ctx.actions.run('two-factor.remove-key', async (w) => {
      if (!(await store.deleteCredential(w, uid, id))) throw notFound('error:two-factor-authn-no-such-key');
      if ((await store.countOf(w.tx, uid)) === 0 && (await totpStore.keyOf(w.tx, uid))?.confirmed !== 1) await totpStore.replaceBackupCodes(w, uid, []);
    });
  }

  /** The member's WebAuthn user handle: stable, opaque (an HMAC of the uid), 32 bytes. */
  private userHandle(uid: number): Uint8Array<ArrayBuffer> {
    return new Uint8Array(createHmac('sha256', this.ctx.config.secret).update(`webauthn-user:${uid}`).digest());
  }

  private async keepChallenge(challenge: string, owner: string, purpose: ChallengePurpose, uid: number): Promise<void> {
    const now = Date.now();
    await this.ctx.actions.run('two-factor.challenge', (w) => store.putChallenge(w, { challenge, owner, purpose, uid, expires: now + AUTHN_CHALLENGE_TTL_MS }, now));
  }

  private async takeChallenge(clientDataJSON: unknown, owner: string, purpose: ChallengePurpose, uid: number): Promise<string> {
    const challenge = typeof clientDataJSON === 'string' ? challengeOf(clientDataJSON) : null;
    if (!challenge || !(await this.ctx.actions.run('two-factor.take-challenge', (w) => store.takeChallenge(w, { challenge, owner, purpose, uid }, Date.now()))))
      throw badRequest('error:two-factor-authn-expired');
    return challenge;
  }
}

const services = new WeakMap<object, SecurityKeys>();

/** The forum's security-key service (one per application context). */
export function securityKeys(ctx: Deps): SecurityKeys {
  let s = services.get(ctx);
  if (!s) services.set(ctx, (s = new SecurityKeys(ctx)));
  return s;
}
