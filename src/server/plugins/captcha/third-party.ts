import type { AppContext } from '../../context.js';
import { badRequest } from '../../http/errors.js';

type Ctx = Pick<AppContext, 'outgoing' | 'settings'> & Partial<Pick<AppContext, 'log'>>;

/** The captcha providers an admin may choose; ALTCHA (no third party) is the default. */
export type CaptchaProvider = 'altcha' | 'recaptcha' | 'hcaptcha';

/** The form field each third-party widget fills with its token (the providers' own names). */
export const TOKEN_FIELDS = { recaptcha: 'g-recaptcha-response', hcaptcha: 'h-captcha-response' } as const;

/** How long the provider may take to answer before the captcha counts as failed. */
export const VERIFY_TIMEOUT_MS = 5000;

/**
 * The origins a provider's widget loads its script, frames, styles and calls from: the
 * content-security policy allows them only while the admin has chosen that provider.
 * From the providers' own CSP guidance (reCAPTCHA: google.com and gstatic.com; hCaptcha: hcaptcha.com).
 */
export const PROVIDER_ORIGINS: Record<Exclude<CaptchaProvider, 'altcha'>, { script: string[]; frame: string[]; style: string[]; connect: string[] }> = {
  recaptcha: { script: ['https://www.google.com', 'https://www.gstatic.com'], frame: ['https://www.google.com'], style: [], connect: [] },
  hcaptcha: {
    script: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    frame: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    style: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    connect: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
  },
};

/** The widget's script (explicit rendering, in the member's language). */
export const PROVIDER_SCRIPTS: Record<Exclude<CaptchaProvider, 'altcha'>, string> = {
  recaptcha: 'https://www.google.com/recaptcha/api.js?render=explicit',
  hcaptcha: 'https://js.hcaptcha.com/1/api.js?render=explicit',
};

/**
 * Verifies a reCAPTCHA or hCaptcha token with the provider: a form POST of the secret, the
 * token and the member's address to the verify URL the admin set (the providers' siteverify by
 * default). Anything but `success: true` within the time-out refuses: a provider that does not
 * answer lets nobody through. The secret is never logged.
 */
export async function verifyThirdParty(ctx: Ctx, provider: Exclude<CaptchaProvider, 'altcha'>, token: string | undefined, ip: string): Promise<void> {
  if (!token) throw badRequest('error:captcha-required');
  const s = await ctx.settings.get();
  const secret = s['captcha:secretKey'];
  const url = provider === 'recaptcha' ? s['captcha:recaptchaVerifyUrl'] : s['captcha:hcaptchaVerifyUrl'];
  if (!secret) {
    ctx.log?.warn({ provider }, 'captcha: no secret key set; every captcha is refused');
    throw badRequest('error:invalid-captcha');
  }
  const form = new URLSearchParams({ secret, response: token });
  if (ip) form.set('remoteip', ip);
  if (provider === 'hcaptcha' && s['captcha:siteKey']) form.set('sitekey', s['captcha:siteKey']);
  let success = false;
  try {
    // Through the outgoing guard (http/outgoing.ts): the verify URL is a setting, and must not reach the forum's own network.
    const res = await ctx.outgoing.request(url, {
      method: 'POST',
      body: form.toString(),
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      timeoutMs: VERIFY_TIMEOUT_MS,
      maxBytes: 64 * 1024,
    });
    const answer = res.status >= 200 && res.status < 300 ? (JSON.parse(res.body.toString('utf8')) as { success?: unknown; 'error-codes'?: unknown }) : null;
    success = answer?.success === true;
    if (!success) ctx.log?.info({ provider, status: res.status, errors: answer?.['error-codes'] }, 'captcha: the provider refused the token');
  } catch (err) {
    ctx.log?.warn({ provider, err: (err as Error).name }, 'captcha: the provider did not answer');
  }
  if (!success) throw badRequest('error:invalid-captcha');
}
