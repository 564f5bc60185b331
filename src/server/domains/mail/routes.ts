import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Envelope, ok } from '../../http/envelope.js';
import { badRequest } from '../../http/errors.js';
import { Str } from '../../http/input.js';

const ResetParams = Type.Object({ code: Str({ maxLength: 200 }) });
const TokenParams = Type.Object({ token: Str({ maxLength: 200 }) });
// A mail client's one-click unsubscribe (RFC 8058) posts `List-Unsubscribe=One-Click` as a form.
const OneClickBody = Type.Optional(Type.Object({ 'List-Unsubscribe': Type.Optional(Str({ maxLength: 100 })) }));
const ResetBody = Type.Object({
  password: Type.Optional(Str({ maxLength: 1024 })),
  'password-confirm': Type.Optional(Str({ maxLength: 1024 })),
});

/**
 * The POSTs behind a mail's links (opening a link changes nothing: mail scanners open them):
 * `POST /reset/:code` sets a new password (the reset_code page's form), `POST /confirm/:code`
 * confirms an address (the confirm page's button), `POST /email/unsubscribe/:token` stops a
 * notification type's mails (the unsubscribe page's button, or the mail client's one-click).
 */
export function registerMailRoutes(parent: FastifyInstance, ctx: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  // Palaver's (NodeBB tests mail over its admin socket): the email settings page's test mail, to the admin.
  app.post('/api/v3/admin/email/test', {
    schema: { body: Type.Optional(Type.Object({})), response: { 200: Envelope(Type.Object({ to: Type.String() })) }, tags: ['admin'] },
    handler: async (req) => ok({ to: await ctx.mail.sendTest(req.viewer, req.ip) }),
  });
  app.post('/reset/:code', {
    schema: { params: ResetParams, body: ResetBody, response: { 200: Type.Object({ next: Type.String() }) }, tags: ['auth'] },
    handler: async (req) => {
      const { password, 'password-confirm': confirm } = req.body;
      if (!password) throw badRequest('error:invalid-password');
      if (confirm !== undefined && confirm !== password) throw badRequest('reset_password:passwords-do-not-match');
      await ctx.mail.resetPassword(req.params.code, password);
      return { next: `${ctx.config.relativePath}/login` };
    },
  });
  app.post('/confirm/:code', {
    schema: { params: ResetParams, body: Type.Optional(Type.Object({})), response: { 200: Type.Object({ confirmed: Type.Boolean() }) }, tags: ['auth'] },
    handler: async (req) => {
      await ctx.mail.confirmEmail(req.params.code);
      return { confirmed: true };
    },
  });
  app.post('/email/unsubscribe/:token', {
    // The signed token is the whole authority (as the code of /reset/:code is), and a mail
    // client's one-click POST has no cookie to carry a CSRF token: none is asked for.
    config: { skipCsrf: true },
    schema: { params: TokenParams, body: OneClickBody, response: { 200: Type.Object({ unsubscribed: Type.Boolean() }) }, tags: ['auth'] },
    handler: async (req) => {
      await ctx.mail.unsubscribe(req.params.token);
      return { unsubscribed: true };
    },
  });
}
