import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Envelope, ok } from '../../http/envelope.js';
import { badRequest } from '../../http/errors.js';
import { Str } from '../../http/input.js';

const ResetParams = Type.Object({ code: Str({ maxLength: 200 }) });
const ResetBody = Type.Object({
  password: Type.Optional(Str({ maxLength: 1024 })),
  'password-confirm': Type.Optional(Str({ maxLength: 1024 })),
});

/** `POST /reset/:code`: sets a new password with the code of a reset mail (the reset_code page's form). */
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
}
