import type { ConfirmPage, ResetCodePage, UnsubscribePage } from '../../../shared/mail-pages.js';
import { AppError } from '../../http/errors.js';
import { definePage, type PageContent } from '../../http/pages.js';

/** The key of a 400 (a bad code or link), so the page shows it; anything else is thrown on. */
function badKey(err: unknown): string {
  if (err instanceof AppError && err.status === 400) return err.key;
  throw err;
}

const resetCodePage = definePage<ResetCodePage>({
  path: '/reset/:code',
  template: 'reset_code',
  async load({ ctx, params }) {
    const code = params.code ?? '';
    // Only checked here: the code is used by POST /reset/:code, so opening the link twice is harmless.
    const error = await ctx.mail.checkResetCode(code).then(() => '', badKey);
    const s = await ctx.settings.get();
    return {
      title: '[[email:reset-code.title]]',
      breadcrumbs: [{ text: '[[reset_password:reset-password]]', url: '/reset' }, { text: '[[email:reset-code.title]]' }],
      valid: !error,
      code: error ? '' : code,
      error,
      minimumPasswordLength: s.minimumPasswordLength,
      minimumPasswordStrength: s.minimumPasswordStrength,
    } satisfies PageContent<ResetCodePage>;
  },
});

const confirmPage = definePage<ConfirmPage>({
  path: '/confirm/:code',
  template: 'confirm',
  async load({ ctx, params }) {
    // Only checked here: mail scanners open links, so the page's button POSTs the code (routes.ts).
    const code = params.code ?? '';
    const error = await ctx.mail.checkConfirmCode(code).then(() => '', badKey);
    return { title: '[[email:confirm.title]]', breadcrumbs: [{ text: '[[email:confirm.title]]' }], code: error ? '' : code, ...(error ? { error } : {}) } satisfies PageContent<ConfirmPage>;
  },
});

const unsubscribePage = definePage<UnsubscribePage>({
  path: '/email/unsubscribe/:token',
  template: 'unsubscribe',
  async load({ ctx, params }) {
    // Only checked here, as the confirm page: the button (or a mail client's one-click POST) acts.
    const token = params.token ?? '';
    let payload: UnsubscribePage['payload'];
    const error = await ctx.mail.checkUnsubscribe(token).then((named) => {
      payload = { ...named, template: 'notification' };
      return '';
    }, badKey);
    return {
      title: '[[email:unsubscribe.confirm-title]]',
      breadcrumbs: [{ text: '[[email:unsubscribe.confirm-title]]' }],
      unsubscribed: false,
      token: error ? '' : token,
      error,
      ...(payload ? { payload } : {}),
    } satisfies PageContent<UnsubscribePage>;
  },
});

/** The pages a mail's links open. */
export const mailPages = [resetCodePage, confirmPage, unsubscribePage];
