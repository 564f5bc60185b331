import { createHmac } from 'node:crypto';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import type { Challenge } from 'altcha-lib/v1/types';
import type { AppContext } from '../../context.js';
import { AppError, badRequest } from '../../http/errors.js';
import * as store from './store.js';
import { TOKEN_FIELDS, verifyThirdParty } from './third-party.js';

type Ctx = Pick<AppContext, 'actions' | 'config' | 'db' | 'outgoing' | 'settings'> & Partial<Pick<AppContext, 'log'>>;

/** How long a challenge may be solved and used. */
export const CHALLENGE_TTL_MS = 10 * 60_000;
/**
 * The largest secret number: the browser tries half of them on average. 50,000 SHA-256
 * hashes take well under a second in a browser and make mass registration cost real work.
 */
export const MAX_NUMBER = 50_000;
const FAILURE_WINDOW_MS = 3600_000;

/** The key that signs challenges: derived from the forum's secret, so nothing is stored. */
function hmacKey(ctx: Ctx): string {
  return createHmac('sha256', ctx.config.secret).update('altcha').digest('hex');
}

/** A new ALTCHA challenge (SHA-256 proof of work), signed and expiring. */
export async function newChallenge(ctx: Ctx): Promise<Challenge> {
  return createChallenge({ hmacKey: hmacKey(ctx), maxNumber: MAX_NUMBER, expires: new Date(Date.now() + CHALLENGE_TTL_MS) });
}

/** The fields a form may carry for the captcha: ALTCHA's payload or a third-party provider's token. */
export interface CaptchaFields {
  altcha?: string;
  'g-recaptcha-response'?: string;
  'h-captcha-response'?: string;
}

/**
 * Checks the captcha of the provider the admin chose: ALTCHA (the default, made here) or the
 * reCAPTCHA / hCaptcha token, verified with the provider (third-party.ts). 400
 * error:captcha-required without one, error:invalid-captcha when it does not pass.
 */
export async function verifyCaptcha(ctx: Ctx, fields: CaptchaFields, ip: string): Promise<void> {
  const s = await ctx.settings.get();
  const provider = s['captcha:provider'];
  if (provider === 'altcha') return verifyAltcha(ctx, fields.altcha);
  await verifyThirdParty(ctx, provider, fields[TOKEN_FIELDS[provider]], ip);
}

/**
 * Checks the widget's payload (base64 JSON of algorithm, challenge, number, salt, signature):
 * the signature is ours, it has not expired, the number solves it, and it was not used
 * before. 400 error:captcha-required without one, error:invalid-captcha otherwise.
 */
export async function verifyAltcha(ctx: Ctx, payload: string | undefined): Promise<void> {
  if (!payload) throw badRequest('error:captcha-required');
  let challenge = '';
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { challenge?: unknown };
    challenge = typeof parsed.challenge === 'string' ? parsed.challenge : '';
  } catch {
    throw badRequest('error:invalid-captcha');
  }
  const ok = challenge !== '' && (await verifySolution(payload, hmacKey(ctx), true).catch(() => false));
  if (!ok) throw badRequest('error:invalid-captcha');
  const now = Date.now();
  const fresh = await ctx.actions.run('captcha.spend', async (w) => {
    await store.pruneSpent(w, now);
    return store.spend(w, challenge, now + CHALLENGE_TTL_MS);
  });
  if (!fresh) throw badRequest('error:invalid-captcha');
}

/** True when the registration form asks for the captcha. */
export async function registerNeedsCaptcha(ctx: Ctx): Promise<boolean> {
  return (await ctx.settings.get())['captcha:register'];
}

const failureKeys = (ip: string, name: string) => [`ip:${ip}`, ...(name ? [`name:${name.trim().toLowerCase()}`] : [])];

/** True when this address or name has failed to log in often enough that the login asks for the captcha. */
export async function loginNeedsCaptcha(ctx: Ctx, ip: string, name: string): Promise<boolean> {
  const after = (await ctx.settings.get())['captcha:loginFailures'];
  return after > 0 && (await store.failures(ctx.db, failureKeys(ip, name), Date.now())) >= after;
}

/**
 * Runs a login behind the captcha: after N failures (setting captcha:loginFailures) from the
 * address or for the name, a solved challenge must come with it; a failed login is counted,
 * a successful one clears the name's count. The login is given the check too (`captcha`), for
 * the users domain to ask for it when an account has had too many tries (at most one check
 * per request: a solution works once).
 */
export async function withLoginCaptcha<T>(ctx: Ctx, ip: string, body: { username?: string } & CaptchaFields, login: (captcha: () => Promise<void>) => Promise<T>): Promise<T> {
  const name = body.username ?? '';
  let checked: Promise<void> | null = null;
  const captcha = () => (checked ??= verifyCaptcha(ctx, body, ip));
  if (await loginNeedsCaptcha(ctx, ip, name)) await captcha();
  try {
    const result = await login(captcha);
    await ctx.actions.run('captcha.clear-failures', (w) => store.clearFailures(w, `name:${name.trim().toLowerCase()}`));
    return result;
  } catch (err) {
    // Only wrong credentials count: a rate-limit answer or a ban is not a guess.
    if (err instanceof AppError && (err.key === 'error:invalid-login-credentials' || err.key === 'error:invalid-username-or-password')) {
      const now = Date.now();
      await ctx.actions.run('captcha.count-failure', async (w) => {
        for (const key of failureKeys(ip, name)) await store.addFailure(w, key, now, FAILURE_WINDOW_MS);
      });
    }
    throw err;
  }
}

/**
 * The captcha arguments of the client configuration (spec §3; NodeBB's spam-be-gone names):
 * the provider the admin chose and, for reCAPTCHA or hCaptcha, its site key (never the secret).
 */
export async function captchaConfig(ctx: Ctx, lang: string) {
  const s = await ctx.settings.get();
  const provider = s['captcha:provider'];
  return {
    provider,
    targetId: provider === 'altcha' ? 'altcha-captcha' : `${provider}-captcha`,
    // ALTCHA needs no public key; reCAPTCHA and hCaptcha take the admin's site key.
    publicKey: provider === 'altcha' ? '' : s['captcha:siteKey'],
    options: { theme: 'light', hl: lang },
    addLoginRecaptcha: s['captcha:loginFailures'] > 0,
    register: s['captcha:register'],
    challengeUrl: `${ctx.config.relativePath}/api/captcha/challenge`,
  };
}
