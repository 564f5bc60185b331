import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Timestamp } from '../../http/input.js';
import type { UserSettings } from '../../../shared/types.js';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { forbidden, notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { presentUser } from './presenter.js';
import { UidParams, UserSchema, UserSettingsSchema, UserSummarySchema } from './schemas.js';
import type { UserRow } from './store.js';

function member(v: Viewer): Viewer {
  if (v.uid <= 0) throw notAuthorised();
  return v;
}

/** The full public view of a member; email only for the member themself or admins. */
export function presentUserFull(row: UserRow, viewer: Viewer) {
  return {
    ...presentUser(row),
    joindate: row.joindate,
    lastonline: row.lastonline,
    topiccount: row.topiccount,
    about: row.about,
    ...(viewer.uid === row.uid || viewer.isAdmin ? { email: row.email ?? '' } : {}),
  };
}

/** /api/v3/users routes. */
export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/v3/users', {
    schema: {
      body: Type.Object({ username: Type.String({ maxLength: 1024 }), email: Type.Optional(Type.String({ maxLength: 1024 })), password: Type.String({ maxLength: 1024 }) }),
      response: { 200: Envelope(UserSummarySchema) },
      tags: ['users'],
    },
    handler: async (req) => {
      if (!member(req.viewer).isAdmin) throw forbidden();
      const body = req.body as { username: string; email?: string; password: string };
      return ok(presentUser(await ctx.users.create(body, { ip: req.ip })));
    },
  });
  app.get('/api/v3/users/:uid', {
    schema: { params: UidParams, response: { 200: Envelope(UserSchema) }, tags: ['users'] },
    handler: async (req) => {
      const { uid } = req.params as { uid: number };
      await ctx.privileges.assert(req.viewer, 'view:users');
      const row = await ctx.users.get(uid);
      if (!row) throw notFound('error:no-user');
      return ok(presentUserFull(row, req.viewer));
    },
  });
  app.put('/api/v3/users/:uid', {
    schema: {
      params: UidParams,
      body: Type.Object({
        username: Type.Optional(Type.String({ maxLength: 1024 })),
        email: Type.Optional(Type.String({ maxLength: 1024 })),
        fullname: Type.Optional(Type.String({ maxLength: 1024 })),
        about: Type.Optional(Type.String({ maxLength: 5000 })),
        picture: Type.Optional(Type.String({ maxLength: 2048 })),
      }),
      response: { 200: Envelope(UserSchema) },
      tags: ['users'],
    },
    handler: async (req) => {
      const { uid } = req.params as { uid: number };
      const row = await ctx.users.update(member(req.viewer), uid, req.body as Record<string, string>);
      return ok(presentUserFull(row, req.viewer));
    },
  });
  app.delete('/api/v3/users/:uid', {
    schema: { params: UidParams, response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      await ctx.users.delete(member(req.viewer), (req.params as { uid: number }).uid);
      return ok({});
    },
  });
  app.put('/api/v3/users/:uid/settings', {
    schema: { params: UidParams, body: Type.Object({ settings: UserSettingsSchema }), response: { 200: Envelope(UserSettingsSchema) }, tags: ['users'] },
    handler: async (req) => {
      const { settings } = req.body as { settings: Partial<UserSettings> };
      return ok(await ctx.users.saveSettings(member(req.viewer), (req.params as { uid: number }).uid, settings));
    },
  });
  app.put('/api/v3/users/:uid/password', {
    schema: {
      params: UidParams,
      body: Type.Object({ currentPassword: Type.Optional(Type.String({ maxLength: 1024 })), newPassword: Type.String({ maxLength: 1024 }) }),
      response: { 200: Envelope(Empty) },
      tags: ['users'],
    },
    handler: async (req) => {
      const body = req.body as { currentPassword?: string; newPassword: string };
      await ctx.users.changePassword(member(req.viewer), (req.params as { uid: number }).uid, body.currentPassword, body.newPassword, req.sessionHash ?? undefined);
      return ok({});
    },
  });
  app.put('/api/v3/users/:uid/ban', {
    schema: {
      params: UidParams,
      body: Type.Object({ until: Type.Optional(Timestamp()), reason: Type.Optional(Type.String({ maxLength: 500 })) }),
      response: { 200: Envelope(Empty) },
      tags: ['users'],
    },
    handler: async (req) => {
      const body = req.body as { until?: number; reason?: string };
      await ctx.users.ban(member(req.viewer), (req.params as { uid: number }).uid, body.until ?? 0, body.reason ?? '');
      return ok({});
    },
  });
  app.delete('/api/v3/users/:uid/ban', {
    schema: { params: UidParams, response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      await ctx.users.unban(member(req.viewer), (req.params as { uid: number }).uid);
      return ok({});
    },
  });
  app.post('/api/v3/users/:uid/tokens', {
    schema: {
      params: UidParams,
      body: Type.Optional(Type.Object({ description: Type.Optional(Type.String({ maxLength: 200 })) })),
      response: { 200: Envelope(Type.Object({ token: Type.String() })) },
      tags: ['users'],
    },
    handler: async (req) => {
      const { uid } = req.params as { uid: number };
      const v = member(req.viewer);
      if (v.uid !== uid && !v.isAdmin) throw forbidden();
      const body = (req.body ?? {}) as { description?: string };
      return ok({ token: await ctx.auth.createToken(uid, body.description ?? '') });
    },
  });
}

/** The admins' spam report on a profile (spec §7): recorded in the event log, sent nowhere. */
export function registerSpamReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/user/:userslug/spam-be-gone/report', {
    schema: { params: Type.Object({ userslug: Type.String({ maxLength: 200 }) }), body: Type.Optional(Type.Object({})), response: { 200: Envelope(Empty) }, tags: ['users'] },
    handler: async (req) => {
      if (!member(req.viewer).isAdmin) throw forbidden();
      const target = await ctx.users.bySlug((req.params as { userslug: string }).userslug);
      if (!target) throw notFound('error:no-user');
      await ctx.events.log('spam-report', req.viewer.uid, { targetUid: target.uid, username: target.username }, req.ip);
      return ok({});
    },
  });
}
