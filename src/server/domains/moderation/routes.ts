import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { Str, Timestamp } from '../../http/input.js';
import { notAuthorised } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { UidParams } from '../users/schemas.js';
import { BlacklistSavedSchema, BlacklistTestSchema } from '../../../shared/schemas/moderation.js';
import { presentNote } from './presenter.js';
import { BLACKLIST_MAX_LENGTH } from './ip-blacklist.js';
import { NOTE_MAX, REASON_MAX } from './service.js';

function member(v: Viewer): Viewer {
  if (v.uid <= 0) throw notAuthorised();
  return v;
}

// Generous at the edge: the service cuts a reason and refuses a long note with its own key.
const SanctionBody = Type.Optional(Type.Object({ until: Type.Optional(Timestamp()), reason: Type.Optional(Str({ maxLength: REASON_MAX * 4 })) }));
const LiftBody = Type.Optional(Type.Object({ reason: Type.Optional(Type.Union([Str({ maxLength: REASON_MAX * 4 }), Type.Null()])) }));
const LiftQuery = Type.Object({ reason: Type.Optional(Str({ maxLength: REASON_MAX * 4 })) });
const NoteSchema = Type.Object({
  uid: Type.Number(),
  note: Type.String(),
  timestamp: Type.Number(),
  timestampISO: Type.String(),
  user: Type.Object({ uid: Type.Number(), username: Type.String(), userslug: Type.String(), picture: Type.String(), 'icon:text': Type.String(), 'icon:bgColor': Type.String() }),
});

/** Bans, mutes, moderation notes, content deletion, the IP blacklist and the spam reports. */
export function registerModerationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const m = ctx.moderation;
  for (const kind of ['ban', 'mute'] as const) {
    r.put(`/api/v3/users/:uid/${kind}`, {
      schema: { params: UidParams, body: SanctionBody, response: { 200: Envelope(Empty) }, tags: ['users'] },
      handler: async (req) => {
        const act = kind === 'ban' ? m.ban.bind(m) : m.mute.bind(m);
        await act(member(req.viewer), req.params.uid, req.body?.until ?? 0, req.body?.reason ?? '');
        return ok({});
      },
    });
    r.delete(`/api/v3/users/:uid/${kind}`, {
      schema: { params: UidParams, querystring: LiftQuery, body: LiftBody, response: { 200: Envelope(Empty) }, tags: ['users'] },
      handler: async (req) => {
        const reason = req.body?.reason ?? req.query.reason ?? '';
        await (kind === 'ban' ? m.unban(member(req.viewer), req.params.uid, reason) : m.unmute(member(req.viewer), req.params.uid, reason));
        return ok({});
      },
    });
  }
  r.delete('/api/v3/users/:uid/content', {
    schema: { params: UidParams, response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      await m.deleteContent(member(req.viewer), req.params.uid);
      return ok({});
    },
  });
  r.post('/api/v3/users/:uid/moderation-notes', {
    schema: { params: UidParams, body: Type.Object({ note: Str({ maxLength: NOTE_MAX * 2 }) }), response: { 200: Envelope(NoteSchema) }, tags: ['users'] },
    handler: async (req) => {
      const note = await m.addNote(member(req.viewer), req.params.uid, req.body.note);
      return ok(presentNote(note, await ctx.users.get(note.by_uid)));
    },
  });
  r.put('/api/v3/ip-blacklist', {
    schema: { body: Type.Object({ rules: Str({ maxLength: BLACKLIST_MAX_LENGTH }) }), response: { 200: Envelope(BlacklistSavedSchema) }, tags: ['admin'] },
    handler: async (req) => {
      await m.assertBlacklistAdmin(member(req.viewer));
      return ok(await m.blacklist.save(req.viewer.uid, req.body.rules, req.ip));
    },
  });
  r.post('/api/v3/ip-blacklist/test', {
    schema: { body: Type.Object({ ip: Str({ maxLength: 100 }), rules: Type.Optional(Str({ maxLength: BLACKLIST_MAX_LENGTH })) }), response: { 200: Envelope(BlacklistTestSchema) }, tags: ['admin'] },
    handler: async (req) => {
      await m.assertBlacklistAdmin(member(req.viewer));
      return ok(await m.blacklist.test(req.body.ip, req.body.rules));
    },
  });
  // The spam-be-gone call of the spec (§7, no payload); its queue twin is the registration domain's.
  r.post('/api/user/:userslug/spam-be-gone/report', {
    schema: { params: Type.Object({ userslug: Str({ maxLength: 200 }) }), body: Type.Optional(Type.Object({})), response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      await m.reportSpam(member(req.viewer), req.params.userslug, req.ip);
      return ok({});
    },
  });
}

/**
 * The IP blacklist at the doors (spec: registration, login and posting): a preHandler on
 * exactly these routes, so a refused address writes nothing. Registration also asks the
 * optional StopForumSpam-style lookup.
 */
export function registerBlacklistGuard(app: FastifyInstance, ctx: AppContext): void {
  const rp = ctx.config.relativePath;
  const guarded = new Set(['POST /login', 'POST /api/v3/utilities/login', 'POST /register', 'POST /api/v3/topics', 'POST /api/v3/topics/:tid'].map((k) => k.replace(' /', ` ${rp}/`)));
  const guard = async (req: FastifyRequest, key: string) => {
    await ctx.moderation.blacklist.assertAllowed(req.ip);
    if (key === `POST ${rp}/register`) {
      const body = (req.body ?? {}) as { email?: unknown; username?: unknown };
      await ctx.moderation.assertNotKnownSpammer(req.ip, typeof body.email === 'string' ? body.email : '', typeof body.username === 'string' ? body.username : '');
    }
  };
  // Callback style: every other route (reads above all) passes on one lookup, not a promise.
  app.addHook('preHandler', (req, _reply, done) => {
    if (req.method !== 'POST') return done();
    const key = `${req.method} ${req.routeOptions.url ?? ''}`;
    if (!guarded.has(key)) return done();
    guard(req, key).then(() => done(), done);
  });
}
