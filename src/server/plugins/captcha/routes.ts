import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { newChallenge } from './index.js';

const ChallengeSchema = Type.Object({ algorithm: Type.String(), challenge: Type.String(), maxnumber: Type.Optional(Type.Number()), salt: Type.String(), signature: Type.String() });

/** GET /api/captcha/challenge: a fresh ALTCHA challenge (the widget's challengeurl); made here, no third party. */
export function registerCaptchaRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get('/api/captcha/challenge', {
    schema: { response: { 200: ChallengeSchema }, tags: ['auth'] },
    handler: async (_req, reply) => {
      void reply.header('cache-control', 'no-store');
      return newChallenge(ctx);
    },
  });
}
