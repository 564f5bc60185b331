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
    // Following the link confirms (as NodeBB's does): the mail's link is the whole action.
    const error = await ctx.mail.confirmEmail(params.code ?? '').then(() => '', badKey);
    return { title: '[[email:confirm.title]]', breadcrumbs: [{ text: '[[email:confirm.title]]' }], ...(error ? { error } : {}) } satisfies PageContent<ConfirmPage>;
  },
});

const unsubscribePage = definePage<UnsubscribePage>({
  path: '/email/unsubscribe/:token',
  template: 'unsubscribe',
  async load({ ctx, params }) {
    let payload: UnsubscribePage['payload'];
    const error = await ctx.mail.unsubscribe(params.token ?? '').then((done) => {
      payload = { ...done, template: 'notification' };
      return '';
    }, badKey);
    return { title: '[[email:unsubscribe.title]]', breadcrumbs: [{ text: '[[email:unsubscribe.title]]' }], unsubscribed: !error, error, ...(payload ? { payload } : {}) } satisfies PageContent<UnsubscribePage>;
  },
});

/** The pages a mail's links open. */
export const mailPages = [resetCodePage, confirmPage, unsubscribePage];
