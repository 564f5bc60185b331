import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Empty, Envelope, ok } from '../../http/envelope.js';
import { IdOrZero } from '../../http/input.js';
import { AdminConfigSchema, adminConfig } from './admin-config.js';
import { assertAdmin } from '../privileges/service.js';
import { changeSetting, changeSettings, createMasterToken, getAdminToken, revokeMasterToken, rollAdminToken, updateAdminToken } from './admin.js';

/** NodeBB's TokenObject (components/schemas/admin/tokenObject.yaml). */
const AdminTokenSchema = Type.Object({
  uid: Type.Number(),
  description: Type.String(),
  token: Type.String(),
  timestamp: Type.Number(),
  timestampISO: Type.String(),
  lastSeen: Type.Union([Type.Number(), Type.Null()]),
  lastSeenISO: Type.Union([Type.String(), Type.Null()]),
});
const SettingParams = Type.Object({ setting: Type.String({ minLength: 1, maxLength: 100 }) });
// write.yaml documents `value` as a string; JSON numbers and booleans are accepted too.
const SettingBody = Type.Object({ value: Type.Union([Type.String({ maxLength: 100000 }), Type.Number(), Type.Boolean()]) });

const Value = Type.Union([Type.String({ maxLength: 100000 }), Type.Number(), Type.Boolean()]);
// Palaver's own: one admin settings page's save, several settings at once (all or none).
const SettingsBody = Type.Object({ values: Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Value, { maxProperties: 200 }) }, { additionalProperties: false });

/** NodeBB's admin settings write (`PUT /api/v3/admin/settings/{setting}`) and `GET /api/admin/config`. */
export function registerSettingsRoutes(parent: FastifyInstance, ctx: AppContext): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  app.put('/api/v3/admin/settings/:setting', {
    schema: { params: SettingParams, body: SettingBody, response: { 200: Envelope(Empty) }, tags: ['admin'] },
    handler: async (req) => {
      await changeSetting(ctx, req.viewer, req.params.setting, req.body.value, req.ip);
      return ok({});
    },
  });
  app.put('/api/v3/admin/settings', {
    schema: { body: SettingsBody, response: { 200: Envelope(Type.Object({ changed: Type.Array(Type.String()) })) }, tags: ['admin'] },
    handler: async (req) => ok({ changed: await changeSettings(ctx, req.viewer, req.body.values, req.ip) }),
  });
  // NodeBB's admin tokens (write.yaml /admin/tokens): master tokens only (uid 0 or absent).
  app.post('/api/v3/admin/tokens', {
    schema: {
      body: Type.Object({ uid: Type.Optional(IdOrZero()), description: Type.Optional(Type.String({ maxLength: 255 })) }, { additionalProperties: false }),
      response: {
        200: Envelope(AdminTokenSchema),
      },
      tags: ['admin'],
    },
    handler: async (req) => ok(await createMasterToken(ctx, req.viewer, req.body, req.ip)),
  });
  const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) });
  app.get('/api/v3/admin/tokens/:token', {
    schema: { params: TokenParams, response: { 200: Envelope(AdminTokenSchema) }, tags: ['admin'] },
    handler: async (req) => ok(await getAdminToken(ctx, req.viewer, req.params.token)),
  });
  app.put('/api/v3/admin/tokens/:token', {
    schema: {
      params: TokenParams,
      body: Type.Object({ uid: Type.Optional(IdOrZero()), description: Type.Optional(Type.String({ maxLength: 255 })) }, { additionalProperties: false }),
      response: { 200: Envelope(AdminTokenSchema) },
      tags: ['admin'],
    },
    handler: async (req) => ok(await updateAdminToken(ctx, req.viewer, req.params.token, req.body, req.ip)),
  });
  app.post('/api/v3/admin/tokens/:token/roll', {
    schema: { params: TokenParams, body: Type.Optional(Type.Object({})), response: { 200: Envelope(AdminTokenSchema) }, tags: ['admin'] },
    handler: async (req) => ok(await rollAdminToken(ctx, req.viewer, req.params.token, req.ip)),
  });
  app.delete('/api/v3/admin/tokens/:token', {
    schema: { params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 100 }) }), response: { 200: Envelope(Empty) }, tags: ['admin'] },
    handler: async (req) => {
      await revokeMasterToken(ctx, req.viewer, req.params.token, req.ip);
      return ok({});
    },
  });
  app.get('/api/admin/config', {
    schema: { response: { 200: AdminConfigSchema }, tags: ['admin'] },
    handler: async (req, reply) => {
      assertAdmin(req.viewer);
      reply.header('cache-control', 'private, no-store');
      return adminConfig(ctx, req, reply);
    },
  });
}
