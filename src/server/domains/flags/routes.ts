import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { defaultBody, NoBody } from '../topics/schemas.js';
import { presentFlag } from './presenter.js';
import { FlagObjectSchema, FlagParams, HistorySchema, NoteBody, NoteParams, NotesSchema, ReportAnswerSchema, ReportBody, UpdateBody } from './schemas.js';

/** NodeBB's /api/v3/flags routes: report, read, update, delete a flag, rescind a report, add and delete notes. */
export function registerFlagRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['flags'];
  // After the service has checked the viewer's privileges: the flag as it now stands.
  const full = async (flagId: number) => presentFlag(ctx, await ctx.flags.get(flagId));

  app.post('/api/v3/flags', {
    schema: { body: ReportBody, response: { 200: Envelope(ReportAnswerSchema) }, tags },
    handler: async (req) => {
      const { flagId, privileged } = await ctx.flags.report(req.viewer, req.body, req.ip);
      return ok(privileged ? await full(flagId) : {});
    },
  });

  app.get('/api/v3/flags/:flagId', {
    schema: { params: FlagParams, response: { 200: Envelope(FlagObjectSchema) }, tags },
    handler: async (req) => ok(await presentFlag(ctx, await ctx.flags.load(req.viewer, req.params.flagId))),
  });

  app.put('/api/v3/flags/:flagId', {
    schema: { params: FlagParams, body: UpdateBody, response: { 200: Envelope(HistorySchema) }, tags },
    handler: async (req) => {
      await ctx.flags.update(req.viewer, req.params.flagId, req.body, req.ip);
      return ok({ history: (await full(req.params.flagId)).history });
    },
  });

  app.delete('/api/v3/flags/:flagId', {
    schema: { params: FlagParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.flags.delete(req.viewer, req.params.flagId, req.ip);
      return ok({});
    },
  });

  app.delete('/api/v3/flags/:flagId/report', {
    schema: { params: FlagParams, body: NoBody, response: { 200: Envelope(Empty) }, tags },
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.flags.rescind(req.viewer, req.params.flagId);
      return ok({});
    },
  });

  app.post('/api/v3/flags/:flagId/notes', {
    schema: { params: FlagParams, body: NoteBody, response: { 200: Envelope(NotesSchema) }, tags },
    handler: async (req) => {
      await ctx.flags.addNote(req.viewer, req.params.flagId, req.body.note, req.ip);
      const { notes, history } = await full(req.params.flagId);
      return ok({ notes, history });
    },
  });

  app.delete('/api/v3/flags/:flagId/notes/:datetime', {
    schema: { params: NoteParams, body: NoBody, response: { 200: Envelope(NotesSchema) }, tags },
    preValidation: defaultBody,
    handler: async (req) => {
      await ctx.flags.deleteNote(req.viewer, req.params.flagId, req.params.datetime, req.ip);
      const { notes, history } = await full(req.params.flagId);
      return ok({ notes, history });
    },
  });
}
