import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { defaultBody, NoBody } from '../topics/schemas.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { badRequest, notAuthorised, notFound } from '../../http/errors.js';
import type { Viewer } from '../privileges/service.js';
import { presentSettingsObj, presentUserObj, userSettings } from './presenter.js';
import type { UserRow } from './store.js';
import { UidParams, UserSchema, UserSettingsObjSchema } from './schemas.js';
import { registerProfileRoutes } from './profile-routes.js';
import { changeEmailFromProfile, changeUsername } from './credentials.js';

function member(v: Viewer): Viewer {
  if (v.uid <= 0) throw notAuthorised();
  return v;
}

const ProfileBody = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 1024 })),
  email: Type.Optional(Type.String({ maxLength: 1024 })),
  // The member's current password: needed to change or remove their own address (credentials.ts).
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  // Generous at the edge so the service answers an over-long value with its own key.
  fullname: Type.Optional(Type.String({ maxLength: 10_000 })),
  about: Type.Optional(Type.String({ maxLength: 100_000 })),
  // NodeBB's name for the same field.
  aboutme: Type.Optional(Type.String({ maxLength: 100_000 })),
  picture: Type.Optional(Type.String({ maxLength: 2048 })),
  website: Type.Optional(Type.String({ maxLength: 10_000 })),
  location: Type.Optional(Type.String({ maxLength: 10_000 })),
  birthday: Type.Optional(Type.String({ maxLength: 100 })),
  signature: Type.Optional(Type.String({ maxLength: 100_000 })),
  // NodeBB's group title: the groups whose badges the member shows, as JSON text ('["a","b"]') or one name.
  groupTitle: Type.Optional(Type.String({ maxLength: 10_000 })),
  // NodeBB sends the admin-defined fields as keys of their own (checked by the service).
}, { additionalProperties: Type.Union([Type.String({ maxLength: 10_000 }), Type.Number()]), maxProperties: 100 });
// NodeBB sends settings as strings ("0"/"1", "20"); the service converts them.
const SettingsBody = Type.Object({
  settings: Type.Record(Type.String({ maxLength: 100 }), Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean(), Type.Null()]), {
    maxProperties: 200,
  }),
});
const TokenBody = Type.Optional(Type.Object({ description: Type.Optional(Type.String({ maxLength: 200 })) }));
const TokenAnswer = Type.Object({ token: Type.String(), uid: Type.Number(), description: Type.String(), timestamp: Type.Number() });

/** NodeBB's groupTitle text: a JSON list of group names, one name, or '' for none. */
function parseGroupTitle(text: string): string[] {
  const t = text.trim();
  if (!t) return [];
  if (!t.startsWith('[')) return [t];
  let list: unknown;
  try {
    list = JSON.parse(t);
  } catch {
    throw badRequest('error:invalid-data', 'body/groupTitle');
  }
  if (!Array.isArray(list) || list.some((n) => typeof n !== 'string') || list.length > 50) throw badRequest('error:invalid-data', 'body/groupTitle');
  return (list as string[]).filter(Boolean);
}

/** /api/v3/users routes: each parses, calls one service method, presents. */
export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  registerProfileRoutes(app, ctx);
  r.post('/api/v3/users', {
    schema: {
      body: Type.Object({
        username: Type.String({ maxLength: 1024 }),
        email: Type.Optional(Type.String({ maxLength: 1024 })),
        password: Type.String({ maxLength: 1024 }),
      }),
      response: { 200: Envelope(UserSchema) },
      tags: ['users'],
    },
    handler: async (req) => ok(presentUserObj(await ctx.users.createByAdmin(member(req.viewer), req.body, req.ip), req.viewer)),
  });
  r.get('/api/v3/users/:uid', {
    schema: { params: UidParams, response: { 200: Envelope(UserSchema) }, tags: ['users'] },
    handler: async (req) => {
      await ctx.privileges.assert(req.viewer, 'view:users');
      const row = await ctx.users.get(req.params.uid);
      if (!row) throw notFound('error:no-user');
      const badges = (await ctx.groups.badgesOf([row.uid])).get(row.uid) ?? [];
      return ok(presentUserObj(row, req.viewer, badges.map((g) => g.name)));
    },
  });
  // NodeBB's read routes of a member's UserObject by uid, username or address, with the email
  // as GET /api/v3/users/{uid} shows it. By address: only for those who see addresses (admins,
  // global moderators) or when the member shows theirs; otherwise as if there were none.
  const userBy = async (viewer: Viewer, row: UserRow | null | undefined, byEmail = false) => {
    await ctx.privileges.assert(viewer, 'view:users');
    if (!row || row.deleted === 1) throw notFound('error:no-user');
    if (byEmail && !viewer.isAdmin && !viewer.isGlobalMod && viewer.uid !== row.uid && !(viewer.uid > 0 && userSettings(row).showemail)) throw notFound('error:no-user');
    const badges = (await ctx.groups.badgesOf([row.uid])).get(row.uid) ?? [];
    return presentUserObj(row, viewer, badges.map((g) => g.name));
  };
  r.get('/api/user/uid/:uid', {
    schema: { params: UidParams, response: { 200: UserSchema }, tags: ['users'] },
    handler: async (req) => userBy(req.viewer, await ctx.users.get(req.params.uid)),
  });
  r.get('/api/user/username/:username', {
    schema: { params: Type.Object({ username: Type.String({ minLength: 1, maxLength: 200 }) }), response: { 200: UserSchema }, tags: ['users'] },
    handler: async (req) => userBy(req.viewer, await ctx.users.byUsername(req.params.username)),
  });
  r.get('/api/user/email/:email', {
    schema: { params: Type.Object({ email: Type.String({ minLength: 1, maxLength: 1024 }) }), response: { 200: UserSchema }, tags: ['users'] },
    handler: async (req) => userBy(req.viewer, await ctx.users.byEmailAddress(req.params.email), true),
  });
  r.put('/api/v3/users/:uid', {
    schema: { params: UidParams, body: ProfileBody, response: { 200: Envelope(UserSchema) }, tags: ['users'] },
    handler: async (req) => {
      const { aboutme, username, email, password, fullname, about, picture, website, location, birthday, signature, groupTitle, ...custom } = req.body;
      // A new username goes through its own rules first (reserved names, cool-down, history): credentials.ts.
      if (username !== undefined) await changeUsername(ctx, member(req.viewer), req.params.uid, username);
      // A new address needs the password and takes effect once confirmed from the new address; '' removes it (credentials.ts).
      if (email !== undefined) await changeEmailFromProfile(ctx, member(req.viewer), req.params.uid, email, password);
      if (groupTitle !== undefined) {
        // As NodeBB shows only the groups a member is in, names of other groups are left out (not an error).
        const mine = new Set(await ctx.groups.groupsOf(req.params.uid));
        await ctx.groups.setBadges(member(req.viewer), req.params.uid, parseGroupTitle(groupTitle).filter((n) => mine.has(n)));
      }
      const data = { username, fullname, about: about ?? aboutme, picture, website, location, birthday, signature, custom };
      const row = await ctx.users.update(member(req.viewer), req.params.uid, data);
      const badges = (await ctx.groups.badgesOf([row.uid])).get(row.uid) ?? [];
      return ok(presentUserObj(row, req.viewer, badges.map((g) => g.name)));
    },
  });
  // DELETE /api/v3/users/:uid (account and content) is with the other deletions (delete-routes.ts).
  r.put('/api/v3/users/:uid/settings', {
    schema: { params: UidParams, body: SettingsBody, response: { 200: Envelope(UserSettingsObjSchema) }, tags: ['users'] },
    handler: async (req) => {
      const saved = await ctx.users.saveSettings(member(req.viewer), req.params.uid, req.body.settings);
      const row = await ctx.users.get(req.params.uid);
      return ok(presentSettingsObj(req.params.uid, saved, await ctx.settings.get(), row ?? undefined));
    },
  });
  r.put('/api/v3/users/:uid/password', {
    schema: {
      params: UidParams,
      body: Type.Object({ currentPassword: Type.Optional(Type.String({ maxLength: 1024 })), newPassword: Type.String({ maxLength: 1024 }) }),
      response: { 200: Envelope(Empty) },
      tags: ['users'],
    },
    handler: async (req) => {
      await ctx.users.changePassword(member(req.viewer), req.params.uid, req.body.currentPassword, req.body.newPassword, req.sessionHash ?? undefined);
      return ok({});
    },
  });
  for (const [method, on] of [['put', true], ['delete', false]] as const) {
    r[method]('/api/v3/users/:uid/follow', {
      schema: { params: UidParams, body: NoBody, response: { 200: Envelope(Empty) }, tags: ['users'] },
      preValidation: defaultBody,
      handler: async (req) => {
        await ctx.users.follow(req.viewer, req.params.uid, on);
        return ok({});
      },
    });
  }
  r.post('/api/v3/users/:uid/tokens', {
    schema: { params: UidParams, body: TokenBody, response: { 200: Envelope(TokenAnswer) }, tags: ['users'] },
    handler: async (req) => {
      const description = req.body?.description ?? '';
      const token = await ctx.users.createToken(member(req.viewer), req.params.uid, description);
      return ok({ token, uid: req.params.uid, description, timestamp: Date.now() });
    },
  });
}
